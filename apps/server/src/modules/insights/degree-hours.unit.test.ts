import { describe, expect, it } from 'vitest';
import { excursions as fromAnomalies } from './anomalies.ts';
import { excursions } from './degree-hours.ts';

const MINUTE = 60_000;
const at = (minutes: number) => 1_000_000_000_000 + minutes * MINUTE;
const readings = (pairs: [number, number][]) => pairs.map(([minutes, value]) => ({ ts: at(minutes), value }));

describe('excursions and degree-hours', () => {
  it('integrates the area beyond the limit by trapezoids, from and to the interpolated crossings', () => {
    const found = excursions(
      readings([
        [0, 7],
        [5, 9],
        [10, 10],
        [15, 9],
        [20, 7],
      ]),
      { threshold: 8, direction: 'above' },
    );
    expect(found).toHaveLength(1);
    const [excursion] = found;
    expect(excursion?.from).toBe(at(2.5));
    expect(excursion?.to).toBe(at(17.5));
    expect(excursion?.peak).toBe(10);
    // 1,25 + 7,5 + 7,5 + 1,25 °C·min.
    expect(excursion?.degreeHours).toBeCloseTo(17.5 / 60, 10);
  });

  it('leaves `to` null while it goes on, and finds several excursions', () => {
    const found = excursions(
      readings([
        [0, 9],
        [5, 7],
        [10, 7],
        [15, 12],
      ]),
      { threshold: 8, direction: 'above' },
    );
    expect(found.map((e) => [e.from, e.to])).toEqual([
      [at(0), at(2.5)],
      [at(11), null],
    ]);
    // The first: 1 °C down to 0 over 2,5 min; the second: 0 up to 4 °C over 4 min.
    expect(found[0]?.degreeHours).toBeCloseTo(1.25 / 60, 10);
    expect(found[1]?.degreeHours).toBeCloseTo(8 / 60, 10);
    expect(found[1]?.peak).toBe(12);
  });

  it('works below a limit (a fridge too cold), the peak being the lowest reading', () => {
    const [excursion] = excursions(
      readings([
        [0, 1],
        [10, -1],
        [20, -3],
        [30, 1],
      ]),
      { threshold: 0, direction: 'below' },
    );
    expect(excursion?.from).toBe(at(5));
    expect(excursion?.to).toBe(at(27.5));
    expect(excursion?.peak).toBe(-3);
    // 0,5·1·5 + (1 + 3)/2·10 + 0,5·3·7,5 = 2,5 + 20 + 11,25 °C·min.
    expect(excursion?.degreeHours).toBeCloseTo(33.75 / 60, 10);
  });

  it('does not bridge a silence longer than the gap limit', () => {
    const found = excursions(
      readings([
        [0, 10],
        [5, 10],
        [60, 10],
        [65, 10],
        [120, 6],
      ]),
      { threshold: 8, direction: 'above' },
    );
    // One excursion (beyond on both sides of the silences); only the bridged segments count; it
    // ended at the last reading beyond the limit before the silence that follows.
    expect(found).toHaveLength(1);
    expect(found[0]?.from).toBe(at(0));
    expect(found[0]?.to).toBe(at(65));
    expect(found[0]?.degreeHours).toBeCloseTo((2 * 5 * 2) / 60, 10);
    // With a longer limit the same readings are joined.
    const joined = excursions(
      readings([
        [0, 10],
        [60, 10],
      ]),
      { threshold: 8, direction: 'above' },
      { maxGapMs: 90 * MINUTE },
    );
    expect(joined[0]?.degreeHours).toBeCloseTo(2, 10);
  });

  it('sorts its readings, skips non-finite values, and is exported by the anomalies module too', () => {
    const found = fromAnomalies(
      [
        { ts: at(10), value: 7 },
        { ts: at(0), value: 9 },
        { ts: at(5), value: Number.NaN },
      ],
      { threshold: 8, direction: 'above' },
    );
    expect(found).toHaveLength(1);
    expect(found[0]?.from).toBe(at(0));
    expect(found[0]?.to).toBe(at(5));
    expect(excursions([], { threshold: 8, direction: 'above' })).toEqual([]);
  });
});
