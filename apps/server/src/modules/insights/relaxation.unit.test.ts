import { describe, expect, it } from 'vitest';
import {
  cadenceOf,
  explainForecast,
  fitRelaxation,
  habitualExcursion,
  outlastsPastExcursions,
  recordDirection,
  relaxationAt,
  usualRangeOf,
  type RelaxationFit,
} from './relaxation.ts';

function fitted(fit: RelaxationFit | null): RelaxationFit {
  if (!fit) throw new Error('no fit');
  return fit;
}

/** Newton's law of cooling: from `level` at hour 0 toward `target` with time constant `tau` (hours). */
const newton = (target: number, tau: number, level: number, hours: number) => target - (target - level) * Math.exp(-hours / tau);

/** Points every `stepMinutes` over the last `spanMinutes` before hour 0, rounded to 0,1 as sensors report. */
function sampled(f: (hours: number) => number, spanMinutes: number, stepMinutes: number) {
  const points = [];
  for (let m = -spanMinutes; m <= 0; m += stepMinutes) points.push({ hours: m / 60, value: Math.round(f(m / 60) * 10) / 10 });
  return points;
}

const MINUTE = 60_000;
/** Defrosts every 6 h 40 min (a period that does not divide a day): a 25-minute rise from 3 to 6 °C; cycles between 2 and 4 °C otherwise. */
const DEFROST_PERIOD = 400 * MINUTE;
function cyclingUnit(ts: number): number {
  const phase = ts % DEFROST_PERIOD;
  if (phase < 25 * MINUTE) return 3 + (3 * phase) / (25 * MINUTE);
  return 3 + Math.sin((2 * Math.PI * ts) / (20 * MINUTE));
}

/** A week of readings of `at`, one every `step` minutes up to `end`, rounded to 0,1 as sensors report. */
function week(at: (ts: number) => number, step: number, end: number) {
  const count = Math.floor((7 * 1440) / step);
  return Array.from({ length: count }, (_, i) => end - (count - 1 - i) * step * MINUTE).map((ts) => ({
    ts,
    value: Math.round(at(ts) * 10) / 10,
  }));
}

describe('the physical model of a departure', () => {
  it('recovers where a fridge that lost its cooling is heading, and when it passes +8 °C', () => {
    // Toward 21 °C with a 5-hour time constant, at 5,5 °C now: +8 °C is crossed in about 50 min.
    const truth = (hours: number) => newton(21, 5, 5.5, hours);
    const crossing = 5 * Math.log((21 - 5.5) / (21 - 8));
    for (const step of [1, 5, 10, 15]) {
      const fit = fitRelaxation(sampled(truth, 60, step), 1, { ambient: 21, noise: 0.1 });
      expect(fit?.kind, `every ${step} min`).toBe('relaxation');
      // The crossing the fit foresees, found on its curve minute by minute.
      let minutes = 0;
      while (minutes < 600 && relaxationAt(fitted(fit), minutes / 60).value <= 8) minutes += 1;
      expect(Math.abs(minutes - crossing * 60), `every ${step} min`).toBeLessThan(12);
    }
  });

  it('is less sure with fewer readings: the interval four hours ahead is wider at 15 min than at 1 min', () => {
    const truth = (hours: number) => newton(18, 4, 6, hours);
    const dense = fitRelaxation(sampled(truth, 45, 1), 1, { ambient: 21, noise: 0.1 });
    const sparse = fitRelaxation(sampled(truth, 45, 15), 1, { ambient: 21, noise: 0.1 });
    const width = (fit: typeof dense) => {
      const point = relaxationAt(fitted(fit), 4);
      return point.high - point.low;
    };
    expect(width(sparse)).toBeGreaterThan(width(dense));
    const point = relaxationAt(fitted(sparse), 4);
    expect(point.low).toBeLessThanOrEqual(newton(18, 4, 6, 4));
    expect(point.high).toBeGreaterThanOrEqual(newton(18, 4, 6, 4));
  });

  it('follows the rate the unit moves at now, after a gust of warm air that the cold first fought back', () => {
    // A door left ajar: +3 K of warm air that the running compressor brings down in minutes, then the
    // contents warming at 1,2 °C an hour. The departure as a whole slopes down; now it rises.
    const truth = (hours: number) => 5 + 3 * Math.exp(-(hours + 0.75) / 0.1) + 1.2 * (hours + 0.75);
    for (const step of [1, 5, 15]) {
      const fit = fitted(fitRelaxation(sampled(truth, 45, step), 1, { ambient: 21, noise: 0.1 }));
      expect(fit.recent.slopePerHour, `every ${step} min`).toBeGreaterThan(0.8);
      expect(fit.recent.slopePerHour, `every ${step} min`).toBeLessThan(1.6);
      // An hour ahead, the present rate continued: about 7,1 °C, not the room's air.
      const ahead = relaxationAt(fit, 1);
      expect(Math.abs(ahead.value - truth(1)), `every ${step} min`).toBeLessThan(0.5);
      expect(ahead.low).toBeLessThanOrEqual(ahead.value);
      expect(ahead.high).toBeGreaterThanOrEqual(ahead.value);
    }
  });

  it('follows a straight drift as a trend, falling ones too, and refuses what does not move that way', () => {
    const line = (hours: number) => 40 - 3 * hours;
    const fit = fitRelaxation(sampled(line, 90, 10), -1, { ambient: null, noise: 0.1 });
    expect(fit?.slopePerHour).toBeCloseTo(-3, 1);
    expect(relaxationAt(fitted(fit), 2).value).toBeCloseTo(34, 0);
    expect(fitRelaxation(sampled(line, 90, 10), 1, { ambient: null, noise: 0.1 })).toBeNull();
    // Two readings are no curve.
    expect(fitRelaxation(sampled(line, 10, 10), -1, { ambient: null, noise: 0.1 })).toBeNull();
  });

  it('reads the cadence from the gaps between readings, whatever their number', () => {
    const every = (minutes: number) => Array.from({ length: 50 }, (_, i) => ({ ts: i * minutes * 60_000, value: 4 }));
    expect(cadenceOf(every(1))).toBe(60_000);
    expect(cadenceOf(every(15))).toBe(15 * 60_000);
    expect(cadenceOf([])).toBe(5 * 60_000);
  });

  it('explains in French which model speaks', () => {
    const fit = fitRelaxation(
      sampled((hours) => newton(21, 5, 5.5, hours), 60, 10),
      1,
      { ambient: 21, noise: 0.1 },
    );
    expect(explainForecast(fit, '°C', true)).toMatch(
      /^Le froid ne suit plus\u202f: la température monte vers celle de la pièce \(environ 2\d\u00a0°C\), à \+\d,\d\u00a0°C par heure en ce moment\.$/,
    );
    expect(explainForecast(null, '°C', true)).toBe(
      'Prévision d’après les habitudes de l’appareil (ses cycles et ses heures de la journée).',
    );
    const falling = fitRelaxation(
      sampled((hours) => 800 - 200 * hours, 60, 10),
      -1,
      { ambient: null, noise: 1 },
    );
    expect(explainForecast(falling, 'ppm', false)).toMatch(/^La valeur baisse régulièrement \(−200\u00a0ppm par heure\)\u202f: /);
  });

  it('knows a defrost on its timer from a departure, at 1 and 15 min alike', () => {
    const minute = MINUTE;
    const period = DEFROST_PERIOD;
    for (const step of [1, 15]) {
      const readings = (end: number) => week(cyclingUnit, step, end);
      // Twenty minutes into a defrost that comes on its beat: a habit, since its start.
      const inDefrost = 30 * period + 20 * minute;
      const since = habitualExcursion(readings(inDefrost), usualRangeOf(readings(inDefrost)), 1, step * minute);
      expect(since, `every ${step} min`).not.toBeNull();
      expect(inDefrost - (since ?? 0)).toBeLessThanOrEqual(25 * minute);
      // The same rise three hours off the beat is no habit.
      const offBeat = readings(30 * period + 200 * minute).map((reading, i, all) =>
        i >= all.length - Math.ceil(20 / step)
          ? { ...reading, value: 4.6 + 0.1 * (i - all.length + Math.ceil(20 / step)) * step }
          : reading,
      );
      expect(habitualExcursion(offBeat, usualRangeOf(offBeat), 1, step * minute), `every ${step} min`).toBeNull();
    }
  });

  it('no longer takes a rise on the beat for a defrost once it is warmer than every defrost was that far into it', () => {
    const minute = MINUTE;
    const beat = 30 * DEFROST_PERIOD;
    // On the 30th beat a door is left ajar: up to 5,9 °C in a quarter of an hour, and it stays
    // there, never further than a defrost went.
    const at = (ts: number) => (ts >= beat ? Math.min(5.9, 3 + (3 * (ts - beat)) / (15 * minute)) : cyclingUnit(ts));
    for (const step of [1, 5]) {
      const readings = week(at, step, beat + 30 * minute);
      expect(habitualExcursion(readings, usualRangeOf(readings), 1, step * minute), `every ${step} min`).toBeNull();
    }
  });

  it('still sees a departure that has stood beyond the usual range longer than anything this week did', () => {
    const minute = MINUTE;
    const departed = 30 * DEFROST_PERIOD + 100 * minute;
    // Off the beat, a rise to 6,5 °C over half an hour that then holds there.
    const at = (ts: number) =>
      ts < departed ? cyclingUnit(ts) : Math.max(cyclingUnit(ts), Math.min(6.5, 4 + (2.5 * (ts - departed)) / (30 * minute)));
    for (const step of [1, 10]) {
      const readings = (end: number) => week(at, step, end);
      const early = readings(departed + 15 * minute);
      expect(outlastsPastExcursions(early, usualRangeOf(early), 1, step * minute), `every ${step} min`).toBe(false);
      const later = readings(departed + 90 * minute);
      expect(outlastsPastExcursions(later, usualRangeOf(later), 1, step * minute), `every ${step} min`).toBe(true);
      // A defrost on its beat is never that long.
      const defrost = readings(30 * DEFROST_PERIOD + 20 * minute);
      expect(outlastsPastExcursions(defrost, usualRangeOf(defrost), 1, step * minute), `every ${step} min`).toBe(false);
    }
  });
});

describe('recordDirection', () => {
  const end = 7 * 1440 * MINUTE;
  // A thermostat cycle between 2 and 4 °C and a defrost every 6 h 40 min (read up to 5,4 °C, held at 4,2 °C over ten minutes), every 5 min.
  const history = week(cyclingUnit, 5, end);
  const then = (values: number[]) => [...history, ...values.map((value, i) => ({ ts: end + (i + 1) * 5 * MINUTE, value }))];
  const range = usualRangeOf(history);

  it('says a unit held beyond anything its week held, still warming, is leaving its normal', () => {
    const readings = then([6.3, 6.6, 6.9]);
    expect(recordDirection(readings, usualRangeOf(readings), cadenceOf(readings))).toBe(1);
  });

  it('leaves alone a rise no further than its defrosts went, and a single gust of warm air', () => {
    expect(recordDirection(then([4.1, 4.2, 4.3]), range, 5 * MINUTE)).toBe(0);
    expect(recordDirection(then([3.5, 6.4]), range, 5 * MINUTE)).toBe(0);
  });

  it('leaves alone a unit coming back from beyond its record', () => {
    expect(recordDirection(then([6.8, 7.2, 6.6]), range, 5 * MINUTE)).toBe(0);
  });
});
