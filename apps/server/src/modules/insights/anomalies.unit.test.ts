import type { AnomalyKind } from '@vigie/contract';
import { describe, expect, it } from 'vitest';
import { coldSeries, DAY, dailySeries, doorSeries, gaussian, HOUR, MINUTE, random, START } from './anomaly-fixtures.ts';
import { type DetectedAnomaly, createAnomalyDetector, detectAnomalies } from './anomalies.ts';
import type { Series } from './forecast.ts';

const FAULT = START + 4 * DAY;

function run(series: Series, stepMs: number, profile: 'cold' | 'door' | 'generic') {
  return detectAnomalies(series, START, { stepMs, profile });
}

const kinds = (anomalies: DetectedAnomaly[]) => [...new Set(anomalies.map((a) => a.kind))].sort();
const firstOf = (anomalies: DetectedAnomaly[], kind: AnomalyKind) => anomalies.find((a) => a.kind === kind);

/** French typography: U+202F before « : » and « ? », no plain space before them, a decimal comma. */
function expectFrench(text: string) {
  expect(text).not.toMatch(/ [:;?!%]/);
  expect(text).not.toMatch(/\d\.\d/);
  expect(text).not.toMatch(/'/);
}

describe('healthy series raise nothing', () => {
  it('a fridge cycling and defrosting every six hours, for a week', () => {
    const result = run(coldSeries({ days: 7 }), MINUTE, 'cold');
    expect(result.anomalies).toEqual([]);
    // 28 defrosts in the week; the first ones are recognised once three fall on the beat.
    expect(result.defrosts.length).toBeGreaterThanOrEqual(25);
  });

  it('a daily signal at five-minute steps, and at fifteen-minute steps', () => {
    expect(run(dailySeries(10, 5 * MINUTE), 5 * MINUTE, 'generic').anomalies).toEqual([]);
    expect(run(dailySeries(10, 15 * MINUTE), 15 * MINUTE, 'generic').anomalies).toEqual([]);
  });

  it('white noise', () => {
    const rand = random(11);
    const noise = Array.from({ length: 10 * 288 }, () => 50 + 3 * gaussian(rand));
    expect(run(noise, 5 * MINUTE, 'generic').anomalies).toEqual([]);
  });

  it('a door opened now and then during the day', () => {
    expect(run(doorSeries(6), MINUTE, 'door').anomalies).toEqual([]);
  });
});

describe('defrosts', () => {
  it('are recognised where they happen, and are no anomaly', () => {
    const result = run(coldSeries({ days: 5 }), MINUTE, 'cold');
    expect(result.anomalies).toEqual([]);
    for (const defrost of result.defrosts) {
      // Every six hours from 01:00 UTC, the compressor stopped for 22 minutes.
      const slot = Math.round((defrost.from - START - HOUR) / (6 * HOUR));
      const start = START + HOUR + slot * 6 * HOUR;
      expect(defrost.from).toBeGreaterThanOrEqual(start - 30 * MINUTE);
      expect(defrost.from).toBeLessThanOrEqual(start + 5 * MINUTE);
      expect(defrost.to - defrost.from).toBeLessThan(60 * MINUTE);
    }
  });

  it('a missing one is defrost_missed, soon after its time', () => {
    const result = run(coldSeries({ days: 5, skipDefrost: (t) => t >= FAULT && t < FAULT + 2 * HOUR }), MINUTE, 'cold');
    expect(kinds(result.anomalies)).toEqual(['defrost_missed']);
    const missed = firstOf(result.anomalies, 'defrost_missed') as DetectedAnomaly;
    // Due at 01:00 (its peak about 01:22): flagged within the hour.
    expect(missed.to).toBeGreaterThan(FAULT + HOUR);
    expect(missed.to).toBeLessThan(FAULT + 2 * HOUR + 30 * MINUTE);
    expect(missed.explanation).toMatch(
      /^Pas de dégivrage depuis 6\u202fh\u202f\d+\u202fmin alors qu’il a lieu toutes les 6\u202fh d’habitude\.$/,
    );
  });

  it('a warming that fell between two defrosts while the beat was learnt does not halve the beat', () => {
    // Every six hours from 01:00, and once, at 10:00 on the first day, a defrost-like warming too:
    // the first three the detector sees (07:00, 10:00, 13:00) fall three hours apart.
    const series = coldSeries({
      days: 5,
      defrostEvery: 3 * HOUR,
      skipDefrost: (t) => {
        const slot = Math.round((t - START - HOUR) / (3 * HOUR));
        return slot % 2 === 1 && slot !== 3;
      },
    });
    const result = run(series, MINUTE, 'cold');
    // No « defrost_missed » every six hours for the slots between the defrosts.
    expect(result.anomalies).toEqual([]);
    const late = result.defrosts.filter((defrost) => defrost.from > START + DAY);
    expect(late.length).toBeGreaterThanOrEqual(14);
    for (const defrost of late) expect(((defrost.from - START - HOUR + 30 * MINUTE) % (6 * HOUR)) / MINUTE).toBeLessThan(35);
  });

  it('one due while the sensor is silent is not reported missing', () => {
    const series = coldSeries({ days: 5 }).map((v, i) => {
      const t = START + i * MINUTE;
      return t >= FAULT && t < FAULT + 4 * HOUR ? null : v;
    });
    expect(run(series, MINUTE, 'cold').anomalies).toEqual([]);
  });

  it('a long one is defrost_long, and nothing else', () => {
    const result = run(coldSeries({ days: 5, heatMinutes: (t) => (t >= FAULT && t < FAULT + 2 * HOUR ? 80 : 22) }), MINUTE, 'cold');
    expect(kinds(result.anomalies)).toEqual(['defrost_long']);
    const long = firstOf(result.anomalies, 'defrost_long') as DetectedAnomaly;
    expect(long.from).toBeGreaterThanOrEqual(FAULT + HOUR - 30 * MINUTE);
    expect(long.from).toBeLessThanOrEqual(FAULT + HOUR);
    expect(long.explanation).toMatch(/^Le dégivrage dure depuis 1\u202fh\u202f\d+\u202fmin contre 2\d\u202fmin d’habitude\.$/);
  });
});

describe('cold units', () => {
  it('a compressor losing power: compressor first, then the level', () => {
    const power = (t: number) => (t < FAULT ? 1 : Math.max(0.3, 1 - (t - FAULT) / (10 * HOUR)));
    const result = run(coldSeries({ days: 6, power }), MINUTE, 'cold');
    const compressor = firstOf(result.anomalies, 'compressor') as DetectedAnomaly;
    expect(compressor).toBeDefined();
    expect(compressor.from).toBeGreaterThan(FAULT);
    // Longer runs at the usual temperature are heard once they last (four cycles, two hours, clear
    // of a defrost) or once the cabinet runs warmer: with a defrost every six hours, within five hours.
    expect(compressor.from).toBeLessThan(FAULT + 5 * HOUR);
    expect(compressor.from).toBeLessThan((firstOf(result.anomalies, 'level_shift') as DetectedAnomaly).from);
    expect(result.anomalies.every((a) => a.to > FAULT)).toBe(true);
  });

  it('cycles much longer than usual: « Les cycles de froid durent … »', () => {
    // The compressor keeps 60 % of its power: it still reaches the cut-out, in twice the time.
    const result = run(coldSeries({ days: 6, power: (t) => (t < FAULT ? 1 : 0.62) }), MINUTE, 'cold');
    const compressor = firstOf(result.anomalies, 'compressor') as DetectedAnomaly;
    expect(compressor).toBeDefined();
    expect(compressor.explanation).toMatch(
      /^Les cycles de froid durent \d+\u202fmin contre 2\d\u202fmin d’habitude.*\u202f: le compresseur peine\.$/,
    );
    expectFrench(compressor.explanation);
  });

  it('a stuck probe is a flatline, and only that', () => {
    const probe = (t: number, v: number) => (t >= FAULT && t < FAULT + 3 * HOUR ? 3.9 : v);
    const result = run(coldSeries({ days: 5, probe }), MINUTE, 'cold');
    expect(kinds(result.anomalies)).toEqual(['flatline']);
    const flat = result.anomalies[0] as DetectedAnomaly;
    expect(flat.from).toBe(FAULT);
    expect(flat.to).toBeGreaterThan(FAULT + 2 * HOUR);
    expect(flat.explanation).toBe(
      'La température reste à 3,9\u00a0°C depuis 3\u202fh alors que ce meuble oscille d’habitude entre 2,2 et 4,6\u00a0°C\u202f: capteur bloqué\u202f?',
    );
  });

  it('a slow drift of the probe is a drift', () => {
    const probe = (t: number, v: number) => v + Math.max(0, (t - FAULT) / HOUR) * 0.1;
    const result = run(coldSeries({ days: 6, probe }), MINUTE, 'cold');
    const drift = firstOf(result.anomalies, 'drift') as DetectedAnomaly;
    expect(drift).toBeDefined();
    expect(drift.from).toBeGreaterThan(FAULT - 3 * HOUR);
    expect(drift.explanation).toMatch(
      /^La température monte lentement depuis .+ \(\+\d+,\d\u00a0°C, soit \+0,1\d?\u00a0°C par heure\) sans revenir à son niveau habituel\.$/,
    );
  });

  it('a door left open lifts the level: level_shift', () => {
    const leak = (t: number) => (t >= FAULT + 14 * HOUR && t < FAULT + 16 * HOUR ? 1 / 40 : 0);
    const result = run(coldSeries({ days: 5, leak }), MINUTE, 'cold');
    const shift = firstOf(result.anomalies, 'level_shift') as DetectedAnomaly;
    expect(shift).toBeDefined();
    expect(shift.from).toBeGreaterThanOrEqual(FAULT + 14 * HOUR);
    expect(shift.from).toBeLessThan(FAULT + 15 * HOUR);
    expect(shift.explanation).toMatch(
      /^La température tourne autour de \d+,?\d*\u00a0°C alors qu’elle est d’habitude autour de \d,?\d*\u00a0°C à cette heure-ci\.$/,
    );
    expect(result.anomalies.every((a) => a.from >= FAULT + 13 * HOUR && a.from < FAULT + 17 * HOUR)).toBe(true);
  });

  it('a jittery probe is noise', () => {
    const rand = random(9);
    // From 03:00, between two defrosts.
    const at = FAULT + 3 * HOUR;
    const probe = (t: number, v: number) => (t >= at ? v + 0.8 * gaussian(rand) : v);
    const result = run(coldSeries({ days: 6, probe }), MINUTE, 'cold');
    const noise = firstOf(result.anomalies, 'noise') as DetectedAnomaly;
    expect(noise).toBeDefined();
    expect(noise.from).toBeGreaterThanOrEqual(at - HOUR);
    expect(noise.from).toBeLessThan(at + HOUR);
    expect(noise.explanation).toMatch(
      /^Les relevés sont \d+,?\d* fois plus agités que d’habitude depuis 1\u202fh\u202f: capteur défaillant ou mal fixé\u202f\?$/,
    );
  });
});

describe('generic signals', () => {
  it('a level shift is found within the hour, at five- and fifteen-minute steps', () => {
    for (const step of [5 * MINUTE, 15 * MINUTE]) {
      const at = START + 8 * DAY + 3 * HOUR;
      const result = run(
        dailySeries(10, step, (t) => (t >= at ? 4 : 0)),
        step,
        'generic',
      );
      const shift = firstOf(result.anomalies, 'level_shift') as DetectedAnomaly;
      expect(shift).toBeDefined();
      expect(shift.from).toBeGreaterThanOrEqual(at - HOUR);
      expect(shift.from).toBeLessThanOrEqual(at + HOUR);
      expect(result.anomalies.every((a) => a.to >= at)).toBe(true);
    }
  });

  it('one far-off bucket is a pattern anomaly, raised at that bucket', () => {
    const series = dailySeries(10, 5 * MINUTE);
    const index = 8 * 288 + 100;
    series[index] = (series[index] as number) + 30;
    const detector = createAnomalyDetector({ stepMs: 5 * MINUTE, profile: 'generic' });
    const raisedAt: number[] = [];
    series.forEach((value, i) => {
      for (const anomaly of detector.push(START + i * 5 * MINUTE, value)) {
        expect(anomaly.kind).toBe('pattern');
        raisedAt.push(i);
      }
    });
    expect(raisedAt).toEqual([index]);
    const [anomaly] = detector.anomalies();
    expect(anomaly?.explanation).toMatch(/^La mesure atteint \d+,\d alors qu’elle est d’habitude autour de \d+,\d à cette heure-ci\.$/);
  });

  it('a signal stuck at a value it usually passes through is a flatline', () => {
    const series = dailySeries(10, 5 * MINUTE).map((v, i) => (i >= 8 * 288 && i < 8 * 288 + 60 ? 22.5 : v));
    const flat = firstOf(run(series, 5 * MINUTE, 'generic').anomalies, 'flatline') as DetectedAnomaly;
    expect(flat).toBeDefined();
    expect(flat.from).toBe(START + 8 * DAY);
    expectFrench(flat.explanation);
  });

  it('the same week reads the same at any step (durations, not bucket counts)', () => {
    const at = START + 8 * DAY + 6 * HOUR;
    const change = (t: number) => (t >= at && t < at + 6 * HOUR ? -6 : 0);
    for (const step of [MINUTE, 5 * MINUTE, 30 * MINUTE]) {
      const result = run(dailySeries(10, step, change, 0.5, 7), step, 'generic');
      expect(result.anomalies.length).toBeGreaterThan(0);
      expect(result.anomalies.every((a) => a.from >= at - 2 * HOUR && a.from <= at + 2 * HOUR)).toBe(true);
    }
  });
});

describe('doors', () => {
  it('an opening far longer than usual at this hour is door_open, from its start', () => {
    const leftOpen = (t: number) => t >= FAULT + 14 * HOUR && t < FAULT + 14 * HOUR + 40 * MINUTE;
    const result = run(doorSeries(5, leftOpen), MINUTE, 'door');
    expect(kinds(result.anomalies)).toEqual(['door_open']);
    const open = result.anomalies[0] as DetectedAnomaly;
    // From its start (or that of an ordinary opening it prolonged).
    expect(open.from).toBeGreaterThanOrEqual(FAULT + 14 * HOUR - 3 * MINUTE);
    expect(open.from).toBeLessThanOrEqual(FAULT + 14 * HOUR);
    expect(open.to).toBe(FAULT + 14 * HOUR + 39 * MINUTE);
    expect(open.explanation).toMatch(
      /^La porte est ouverte depuis 4\d\u202fmin alors qu’à cette heure-ci elle ne le reste d’habitude pas plus de \d\u202fmin\.$/,
    );
  });

  it('at an hour it is never opened, the floor is fifteen minutes', () => {
    // Opened at 03:00 (the door is used from 8:00 to 20:00 only).
    const at = FAULT + 3 * HOUR;
    const series = doorSeries(5, (t) => t >= at && t < at + 20 * MINUTE);
    const detector = createAnomalyDetector({ stepMs: MINUTE, profile: 'door' });
    let raisedAt = -1;
    series.forEach((value, i) => {
      if (detector.push(START + i * MINUTE, value).length > 0) raisedAt = START + i * MINUTE;
    });
    // The fifteenth open minute starts 14 minutes in: the opening has lasted 15 min at its end.
    expect(raisedAt).toBe(at + 14 * MINUTE);
    expect(detector.anomalies()[0]?.explanation).toBe(
      'La porte est ouverte depuis 20\u202fmin, plus que les 15\u202fmin tolérées sans historique à cette heure-ci.',
    );
  });
});

describe('the detector', () => {
  it('raises nothing during its first day (warm-up)', () => {
    const probe = (t: number, v: number) => (t >= START + 6 * HOUR && t < START + 12 * HOUR ? 3.9 : v);
    expect(run(coldSeries({ days: 2, probe }), MINUTE, 'cold').anomalies).toEqual([]);
  });

  it('reports each anomaly once, when first raised, and its final extent afterwards', () => {
    const probe = (t: number, v: number) => (t >= FAULT && t < FAULT + 3 * HOUR ? 3.9 : v);
    const series = coldSeries({ days: 5, probe });
    const detector = createAnomalyDetector({ stepMs: MINUTE, profile: 'cold' });
    const raised: { at: number; anomaly: DetectedAnomaly }[] = [];
    series.forEach((value, i) => {
      const at = START + i * MINUTE;
      for (const anomaly of detector.push(at, value)) raised.push({ at, anomaly });
    });
    expect(raised).toHaveLength(1);
    const first = raised[0] as { at: number; anomaly: DetectedAnomaly };
    // Raised 30 min into the run (causal), dated from its start, and extended later.
    expect(first.at).toBe(FAULT + 29 * MINUTE);
    expect(first.anomaly.from).toBe(FAULT);
    expect(first.anomaly.to).toBe(first.at);
    expect(detector.anomalies()[0]?.to).toBe(FAULT + 3 * HOUR - MINUTE);
    // The replay finds the same.
    expect(run(series, MINUTE, 'cold').anomalies).toEqual(detector.anomalies());
  });

  it('takes skipped buckets and nulls as gaps, and ignores a bucket pushed twice', () => {
    const series = dailySeries(10, 5 * MINUTE);
    const detector = createAnomalyDetector({ stepMs: 5 * MINUTE, profile: 'generic' });
    series.forEach((value, i) => {
      if (i % 97 === 0) return;
      const ts = START + i * 5 * MINUTE;
      detector.push(ts, i % 89 === 0 ? null : value);
      expect(detector.push(ts, 1e6)).toEqual([]);
    });
    expect(detector.anomalies()).toEqual([]);
  });

  it('scores in [0, 1] and writes French', () => {
    const leak = (t: number) => (t >= FAULT + 14 * HOUR && t < FAULT + 16 * HOUR ? 1 / 40 : 0);
    const all = [
      ...run(coldSeries({ days: 5, leak }), MINUTE, 'cold').anomalies,
      ...run(coldSeries({ days: 5, skipDefrost: (t) => t >= FAULT && t < FAULT + 2 * HOUR }), MINUTE, 'cold').anomalies,
      ...run(
        dailySeries(10, 5 * MINUTE, (t) => (t >= START + 8 * DAY ? -40 : 0)),
        5 * MINUTE,
        'generic',
      ).anomalies,
    ];
    expect(all.length).toBeGreaterThan(2);
    for (const anomaly of all) {
      expect(anomaly.score).toBeGreaterThanOrEqual(0);
      expect(anomaly.score).toBeLessThanOrEqual(1);
      expect(anomaly.to).toBeGreaterThanOrEqual(anomaly.from);
      expectFrench(anomaly.explanation);
    }
    expect(all.some((a) => a.explanation.includes('\u2212'))).toBe(true);
  });
});

describe('a generic signal with heavy tails', () => {
  /** A daily cycle with gaussian noise and, one bucket in twenty, a burst of Pareto size (α = 1,5). */
  function bursty(seed: number): Series {
    const rand = random(seed);
    return Array.from({ length: 14 * 288 }, (_, i) => {
      const burst = rand() < 0.05 ? 2 * (1 - rand()) ** (-1 / 1.5) : 0;
      return 50 + 10 * Math.sin((2 * Math.PI * i * 5 * MINUTE) / DAY) + gaussian(rand) + burst;
    });
  }

  it('raises about what its false-alarm rate allows, its thresholds read on its own tails', () => {
    // Fixed thresholds raised 10 to 15 anomalies on each of these fortnights.
    for (const seed of [1, 2, 3]) expect(run(bursty(seed), 5 * MINUTE, 'generic').anomalies.length).toBeLessThanOrEqual(6);
  });

  it('still raises a burst far beyond any it has seen', () => {
    const series = bursty(2);
    const index = 12 * 288 + 100;
    const biggest = Math.max(...series.map((v, i) => (v ?? 0) - 50 - 10 * Math.sin((2 * Math.PI * i * 5 * MINUTE) / DAY)));
    series[index] = (series[index] as number) + 5 * biggest;
    const at = START + index * 5 * MINUTE;
    expect(run(series, 5 * MINUTE, 'generic').anomalies.some((a) => a.kind === 'pattern' && a.from <= at && a.to >= at)).toBe(true);
  });
});
