import { describe, expect, it } from 'vitest';
import { sparklinePaths } from './card-sparkline';

const from = Date.parse('2026-11-27T08:00:00.000Z');
const bucket = (minutes: number, avg: number) => ({
  ts: new Date(from + minutes * 60_000).toISOString(),
  min: avg,
  avg,
  max: avg,
  count: 1,
});

describe('sparklinePaths', () => {
  it('draws the day left to right, the highest value at the top, the limit inside the box', () => {
    const { paths, limitYs } = sparklinePaths([bucket(0, 3), bucket(30, 5), bucket(60, 4)], from, [8]);
    expect(paths).toEqual(['M0,30 L2.5,18.8 L5,24.4']);
    // +8 °C is the top of the range: drawn at the top edge.
    expect(limitYs).toEqual([2]);
  });

  it('breaks the line where the sensor was silent for more than an hour', () => {
    const { paths } = sparklinePaths([bucket(0, 3), bucket(30, 3.5), bucket(300, 4), bucket(330, 4.5)], from, []);
    expect(paths).toHaveLength(2);
  });

  it('keeps a flat line in the middle of its box', () => {
    const { paths } = sparklinePaths([bucket(0, 4), bucket(30, 4)], from, []);
    expect(paths[0]).toBe('M0,16 L2.5,16');
  });
});
