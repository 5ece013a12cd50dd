import type { ReadingBucket } from '@vigie/contract';
import { describe, expect, it } from 'vitest';
import { timeRange, toData } from './chart-data';

const T0 = Date.parse('2026-11-23T12:00:00Z');
const bucket = (minutes: number, avg: number): ReadingBucket => ({
  ts: new Date(T0 + minutes * 60_000).toISOString(),
  min: avg - 0.2,
  avg,
  max: avg + 0.2,
  count: 5,
});

describe('toData', () => {
  it('draws readings only, as three columns, without a forecast', () => {
    const data = toData([bucket(0, 4), bucket(5, 4.2)]);
    expect(data).toHaveLength(4);
    expect(data[0]).toEqual([T0 / 1000, T0 / 1000 + 300]);
  });

  it('starts the forecast at the last reading’s average and draws it after, never before', () => {
    const forecast = [0, 5, 10].map((minutes) => ({ ts: T0 + minutes * 60_000, value: 5 + minutes / 10, low: 4, high: 7 }));
    const data = toData([bucket(0, 4), bucket(5, 4.2)], Number.POSITIVE_INFINITY, forecast);
    expect(data).toHaveLength(7);
    const [xs, min, avg, max, low, value, high] = data;
    // The forecast's step at 12:00 is older than the last reading: left out.
    expect(xs).toEqual([T0 / 1000, T0 / 1000 + 300, T0 / 1000 + 600]);
    expect(avg).toEqual([4, 4.2, null]);
    expect(min?.[2]).toBeNull();
    expect(max?.[2]).toBeNull();
    expect(value).toEqual([null, 4.2, 6]);
    expect(low).toEqual([null, 4.2, 4]);
    expect(high).toEqual([null, 4.2, 7]);
  });

  it('draws a forecast alone when the period has no reading', () => {
    const forecast = [0, 5].map((minutes) => ({ ts: T0 + minutes * 60_000, value: 5, low: 4, high: 6 }));
    const [xs, , avg, , , value] = toData([], Number.POSITIVE_INFINITY, forecast);
    expect(xs).toEqual([T0 / 1000, T0 / 1000 + 300]);
    expect(avg).toEqual([null, null]);
    expect(value).toEqual([5, 5]);
  });
});

describe('timeRange', () => {
  const now = Date.parse('2026-12-01T20:00:00Z');
  const day = { from: now - 24 * 3600_000, to: now };

  it('spans the last 24 h for a new sensor’s single reading, not years', () => {
    const one = now / 1000 - 60;
    const [from, to] = timeRange([one], day);
    expect(to - from).toBe(24 * 3600);
    expect([from, to]).toEqual([day.from / 1000, now / 1000]);
  });

  it('spans the period with no reading at all, and runs on for a forecast or a pause ending later', () => {
    expect(timeRange([], day)).toEqual([day.from / 1000, now / 1000]);
    expect(timeRange([day.from / 1000 + 60, now / 1000 + 3600], day)).toEqual([day.from / 1000, now / 1000 + 3600]);
    expect(timeRange([day.from / 1000 + 60, now / 1000], day, [now / 1000 + 600])).toEqual([day.from / 1000, now / 1000 + 600]);
  });

  it('without a period, spans the readings, and the hour around a single one', () => {
    const one = now / 1000;
    expect(timeRange([one - 600, one], undefined)).toEqual([one - 600, one]);
    expect(timeRange([one], undefined)).toEqual([one - 1800, one + 1800]);
  });
});
