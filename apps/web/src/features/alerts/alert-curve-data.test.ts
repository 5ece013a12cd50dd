import type { ReadingBucket } from '@vigie/contract';
import { describe, expect, it } from 'vitest';
import { curveText, findPeak, limitWords, peakDirection } from './alert-curve-data';

const plain = (text: string) => text.replace(/[\u202F\u00A0]/g, ' ');
const bucket = (ts: string, min: number, max: number): ReadingBucket => ({ ts, min, avg: (min + max) / 2, max, count: 3 });

describe('the curve’s words', () => {
  it('writes the days when the curve spans more than one, and the lowest value of a breach below', () => {
    const text = curveText({
      key: 'temperature',
      from: Date.parse('2026-11-22T22:10:00.000Z'),
      to: Date.parse('2026-11-23T01:40:00.000Z'),
      readings: [],
      peak: { ts: 0, at: Date.parse('2026-11-23T00:05:00.000Z'), value: -12.4 },
      direction: 'below',
      limit: limitWords({ type: 'below', key: 'temperature', threshold: -15 }),
      timeZone: 'Europe/Paris',
    });
    expect(plain(text)).toBe(
      'Courbe du 22 novembre à 23 h 10 au 23 novembre à 2 h 40 : au plus bas −12,4 °C le 23 novembre à 1 h 05, limite ≥ −15,0 °C',
    );
  });

  it('names a range and finds the side its peak is on', () => {
    const outside = { type: 'outside', key: 'temperature', min: 2, max: 8 } as const;
    expect(plain(limitWords(outside) ?? '')).toBe('entre +2,0 °C et +8,0 °C');
    expect(peakDirection({ peak: 9.1, last: 8.2 }, outside)).toBe('above');
    expect(peakDirection({ peak: 0.5, last: 1.2 }, outside)).toBe('below');
    // The rule gone: the peak against the latest value.
    expect(peakDirection({ peak: 11.3, last: 7.4 }, null)).toBe('above');
  });

  it('marks the interval holding the peak, and never says it came before the alert opened', () => {
    const alert = {
      key: 'temperature',
      peak: 11.3,
      openedAt: '2026-11-23T13:10:20.000Z',
      resolvedAt: '2026-11-23T13:40:00.000Z',
    };
    const readings = [
      bucket('2026-11-23T13:00:00.000Z', 3.9, 4.2),
      bucket('2026-11-23T13:10:00.000Z', 4.1, 11.3),
      bucket('2026-11-23T13:20:00.000Z', 9.2, 11.3),
      // After the alert: not its peak, however close.
      bucket('2026-11-23T13:50:00.000Z', 11.3, 11.3),
    ];
    const peak = findPeak(readings, alert, 10 * 60_000, Date.parse('2026-11-23T16:00:00.000Z'));
    expect(peak?.ts).toBe(Date.parse('2026-11-23T13:10:00.000Z'));
    expect(peak?.at).toBe(Date.parse('2026-11-23T13:15:00.000Z'));
    expect(findPeak(readings, { ...alert, forecast: { direction: 'above', threshold: 8, eta: null } }, 600_000, 0)).toBeNull();
  });
});
