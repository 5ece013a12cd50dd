import { describe, expect, it } from 'vitest';
import { mergeLiveValue } from './merge-live-value';

const bucket = (ts: string, avg: number, count = 1) => ({ ts, min: avg, avg, max: avg, count });
const minute = 60_000;

describe('mergeLiveValue', () => {
  it('folds a value into the last bucket when it falls inside it', () => {
    const merged = mergeLiveValue(
      [bucket('2024-06-01T12:00:00.000Z', 4, 3)],
      { value: 8, ts: '2024-06-01T12:00:30.000Z' },
      minute,
      60 * minute,
    );
    expect(merged).toEqual([{ ts: '2024-06-01T12:00:00.000Z', min: 4, max: 8, avg: 5, count: 4 }]);
  });

  it('opens a new bucket aligned on the previous ones and drops those out of range', () => {
    const merged = mergeLiveValue(
      [bucket('2024-06-01T11:00:00.000Z', 1), bucket('2024-06-01T12:00:00.000Z', 2)],
      { value: 3, ts: '2024-06-01T12:02:10.000Z' },
      minute,
      60 * minute,
    );
    expect(merged.map((item) => item.ts)).toEqual(['2024-06-01T12:00:00.000Z', '2024-06-01T12:02:00.000Z']);
  });

  it('ignores a value older than the last bucket', () => {
    const readings = [bucket('2024-06-01T12:00:00.000Z', 2)];
    expect(mergeLiveValue(readings, { value: 9, ts: '2024-06-01T11:00:00.000Z' }, minute, 60 * minute)).toBe(readings);
  });
});
