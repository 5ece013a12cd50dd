import { describe, expect, it } from 'vitest';
import { computeUnit } from './report-compute.ts';
import { monthOf, previousMonth, localMonth } from '../../lib/local-time.ts';

const PARIS = 'Europe/Paris';
const MIN = 60_000;
const HOUR = 60 * MIN;

/** The local date of an instant, read by Intl alone (independently of the code under test). */
const parisDate = (ms: number) => new Intl.DateTimeFormat('sv-SE', { timeZone: PARIS }).format(new Date(ms));

describe('the site calendar', () => {
  it('has days of 23 and 25 hours at the daylight-saving changes of Europe/Paris', () => {
    const october = monthOf('2026-10', PARIS);
    expect(new Date(october.from).toISOString()).toBe('2026-09-30T22:00:00.000Z');
    expect(new Date(october.to).toISOString()).toBe('2026-10-31T23:00:00.000Z');
    expect(october.days).toHaveLength(31);
    expect(october.days[24]).toMatchObject({ date: '2026-10-25' });
    expect((october.days[24]?.to ?? 0) - (october.days[24]?.from ?? 0)).toBe(25 * HOUR);
    expect(october.to - october.from).toBe((31 * 24 + 1) * HOUR);

    const march = monthOf('2026-03', PARIS);
    expect(new Date(march.from).toISOString()).toBe('2026-02-28T23:00:00.000Z');
    expect((march.days[28]?.to ?? 0) - (march.days[28]?.from ?? 0)).toBe(23 * HOUR);
    expect(march.to - march.from).toBe((31 * 24 - 1) * HOUR);

    const february = monthOf('2028-02', 'America/New_York');
    expect(february.days).toHaveLength(29);
    expect(new Date(february.from).toISOString()).toBe('2028-02-01T05:00:00.000Z');
  });

  it('names the month before, across a year', () => {
    expect(previousMonth('2027-01')).toBe('2026-12');
    expect(previousMonth('2026-11')).toBe('2026-10');
    // 1 November 00:30 in Paris is still 31 October in UTC.
    expect(localMonth(Date.parse('2026-10-31T23:30:00Z'), PARIS)).toBe('2026-11');
  });
});

describe('a month of readings', () => {
  // October 2026 in Paris, a reading every 5 minutes with a timeout of 10 minutes.
  const month = monthOf('2026-10', PARIS);
  const excursion = { from: Date.parse('2026-10-24T21:30:00Z'), to: Date.parse('2026-10-24T23:00:00Z') }; // 23:30 → 01:00 local
  const gap = { last: Date.parse('2026-10-25T02:30:00Z'), next: Date.parse('2026-10-25T05:30:00Z') };
  const readings: { ts: number; value: number }[] = [];
  for (let ts = month.from, i = 0; ts < month.to; ts += 5 * MIN, i++) {
    if (ts > gap.last && ts < gap.next) continue;
    const inExcursion = ts >= excursion.from && ts < excursion.to;
    readings.push({ ts, value: inExcursion ? (ts === excursion.from + 30 * MIN ? 7.5 : 6) : 2 + (i % 3) });
  }
  const figures = computeUnit({
    from: month.from,
    to: month.to,
    cutAtMaking: false,
    days: month.days,
    timeoutSeconds: 600,
    min: null,
    max: 4,
    readings,
  });

  it('counts the time within limits, out of limits and without data', () => {
    const total = (month.to - month.from) / 1000;
    const out = (excursion.to - excursion.from) / 1000;
    const silent = (gap.next - gap.last) / 1000;
    expect(figures.outOfRangeSeconds).toBe(out);
    expect(figures.noDataSeconds).toBe(silent);
    expect(figures.inRangeSeconds).toBe(total - out - silent);
    expect(figures.readingCount).toBe(readings.length);
  });

  it('lists the excursion and the gap as they were', () => {
    expect(figures.excursions).toEqual([
      {
        start: new Date(excursion.from).toISOString(),
        end: new Date(excursion.to).toISOString(),
        durationSeconds: 90 * 60,
        peak: 7.5,
        direction: 'above',
      },
    ]);
    expect(figures.gaps).toEqual([
      { from: new Date(gap.last).toISOString(), to: new Date(gap.next).toISOString(), durationSeconds: 3 * 3600 },
    ]);
  });

  it('splits the days on the site clock, the 25-hour day included', () => {
    const dated = readings.map((reading) => ({ date: parisDate(reading.ts), value: reading.value }));
    for (const day of figures.days) {
      const values = dated.filter((reading) => reading.date === day.date).map((reading) => reading.value);
      expect(day.readings, day.date).toBe(values.length);
      expect(day.min, day.date).toBe(Math.min(...values));
      expect(day.max, day.date).toBe(Math.max(...values));
      expect(day.mean, day.date).toBeCloseTo(values.reduce((sum, value) => sum + value, 0) / values.length, 9);
    }
    const byDate = new Map(figures.days.map((day) => [day.date, day]));
    // 23:30 → 00:00 local on the 24th, 00:00 → 01:00 on the 25th.
    expect(byDate.get('2026-10-24')?.outOfRangeSeconds).toBe(30 * 60);
    expect(byDate.get('2026-10-25')?.outOfRangeSeconds).toBe(60 * 60);
    expect(byDate.get('2026-10-25')?.noDataSeconds).toBe(3 * 3600);
    expect(byDate.get('2026-10-25')?.readings).toBe(25 * 12 - (3 * 12 - 1));
    expect(byDate.get('2026-10-26')?.noDataSeconds).toBe(0);
  });

  it('never draws across the gap', () => {
    const inGap = figures.chart.filter((point) => Date.parse(point.from) >= gap.last + HOUR && Date.parse(point.to) <= gap.next);
    expect(inGap.length).toBeGreaterThan(0);
    for (const point of inGap) expect(point).toMatchObject({ min: null, max: null });
    expect(figures.chart).toHaveLength(31 * 24 + 1);
  });
});

describe('the edges of the period', () => {
  const month = monthOf('2026-03', PARIS);

  it('counts the time before the first reading as without data, unless a reading just before covers it', () => {
    const first = Date.parse('2026-03-02T08:00:00Z');
    const readings = [first, first + 5 * MIN].map((ts) => ({ ts, value: 3 }));
    const base = { from: month.from, to: first + 10 * MIN, cutAtMaking: true, days: month.days, timeoutSeconds: 600, min: 0, max: 4 };
    const alone = computeUnit({ ...base, readings });
    expect(alone.gaps[0]).toEqual({
      from: '2026-02-28T23:00:00.000Z',
      to: '2026-03-02T08:00:00.000Z',
      durationSeconds: (first - month.from) / 1000,
    });
    expect(alone.inRangeSeconds).toBe(10 * 60);

    const covered = computeUnit({ ...base, from: first, readings: [{ ts: first - 4 * MIN, value: 3 }, ...readings] });
    expect(covered.gaps).toEqual([]);
    expect(covered.noDataSeconds).toBe(0);
  });

  it('ends a finished period on a gap when the sensor stayed silent past its end', () => {
    const last = month.to - 5 * MIN;
    const base = { from: month.from, to: month.to, cutAtMaking: false, days: month.days, timeoutSeconds: 900, min: 0, max: 4 };
    const readings = [{ ts: month.from, value: 3 }, ...Array.from({ length: 10 }, (_, i) => ({ ts: last - (9 - i) * 60_000, value: 3 }))];
    expect(computeUnit({ ...base, readings }).gaps.at(-1)?.to).not.toBe(new Date(month.to).toISOString());
    const silent = computeUnit({ ...base, readings, silentAfterEnd: true });
    expect(silent.gaps.at(-1)).toEqual({ from: new Date(last).toISOString(), to: new Date(month.to).toISOString(), durationSeconds: 300 });
  });

  it('leaves an excursion still running at the making of the report without an end', () => {
    const start = Date.parse('2026-03-10T10:00:00Z');
    const readings = [
      { ts: start, value: -20 },
      { ts: start + 5 * MIN, value: -16.5 },
      { ts: start + 10 * MIN, value: -15 },
    ];
    const figures = computeUnit({
      from: start,
      to: start + 12 * MIN,
      cutAtMaking: true,
      days: month.days,
      timeoutSeconds: 600,
      min: null,
      max: -18,
      readings,
    });
    expect(figures.excursions).toEqual([
      { start: new Date(start + 5 * MIN).toISOString(), end: null, durationSeconds: 7 * 60, peak: -15, direction: 'above' },
    ]);
  });

  it('has no compliance to measure without limits: everything with data counts as within', () => {
    const figures = computeUnit({
      from: month.from,
      to: month.from + HOUR,
      cutAtMaking: false,
      days: month.days,
      timeoutSeconds: 600,
      min: null,
      max: null,
      readings: Array.from({ length: 12 }, (_, i) => ({ ts: month.from + i * 5 * MIN, value: 30 })),
    });
    expect(figures).toMatchObject({ inRangeSeconds: 3600, outOfRangeSeconds: 0, noDataSeconds: 0, excursions: [] });
  });
});
