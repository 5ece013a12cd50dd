import type { Rule } from '@vigie/contract';
import { describe, expect, it } from 'vitest';
import { computeInsights, toColumns } from './insights-compute.ts';
import { learnWarmup } from './warmup.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A small deterministic random source (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Unit {
  room: number;
  tauHours: number;
  /** The thermostat's band (°C): the compressor starts above `high`, stops below `low`. */
  low: number;
  high: number;
  /** When the compressor stops for good (null: never). */
  failureAt: number | null;
  /** Door openings: every so often (ms) a minute of room air (null: none). */
  doorEvery: number | null;
  seed: number;
}

/**
 * A fridge simulated a second at a time: a thermostat with hysteresis, the on-phase pulling toward
 * the evaporator (−5 °C, 8 min), the off-phase warming toward the room (Newton, `tauHours`), a
 * probe lagging 5 min, noise 0,05 K, readings rounded to 0,1 every `cadence` minutes. Returns the
 * readings and the probe's true crossing of `limit` after the failure.
 */
function simulate(unit: Unit, start: number, end: number, cadence: number, limit: number) {
  const rand = random(unit.seed);
  const dt = 10_000;
  let air = (unit.low + unit.high) / 2;
  let probe = air;
  let on = false;
  let crossing: number | null = null;
  let nextDoor = unit.doorEvery === null ? Infinity : start + rand() * unit.doorEvery;
  const readings: { ts: number; value: number }[] = [];
  for (let ts = start; ts <= end; ts += dt) {
    const failed = unit.failureAt !== null && ts >= unit.failureAt;
    if (!failed) {
      if (probe > unit.high) on = true;
      if (probe < unit.low) on = false;
    } else on = false;
    const h = dt / HOUR;
    air += on ? ((-5 - air) * dt) / (8 * MINUTE) : ((unit.room - air) * h) / unit.tauHours;
    if (ts >= nextDoor) {
      air += 1.5 + rand();
      nextDoor = ts + (0.5 + rand()) * (unit.doorEvery ?? Infinity);
    }
    probe += ((air - probe) * dt) / (4 * MINUTE);
    if (failed && crossing === null && probe > limit) crossing = ts;
    if ((ts - start) % (cadence * MINUTE) === 0) {
      const noise = (rand() + rand() + rand() - 1.5) * 0.1;
      readings.push({ ts, value: Math.round((probe + noise) * 10) / 10 });
    }
  }
  return { readings, crossing };
}

const rule: Rule = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Froid positif',
  enabled: true,
  sensorId: '00000000-0000-4000-8000-000000000002',
  siteId: null,
  condition: { type: 'above', key: 'temperature', threshold: 8 },
  delaySeconds: 0,
  hysteresis: 0.5,
  schedule: 'always',
  severity: 'critical',
  preset: 'chilled_perishable',
  createdAt: new Date(0).toISOString(),
  updatedAt: new Date(0).toISOString(),
};

const now = Date.UTC(2026, 10, 28, 15, 0);
const insightsAt = (readings: { ts: number; value: number }[], at: number) =>
  computeInsights({
    key: 'temperature',
    now: at,
    readings: toColumns(readings.filter((reading) => reading.ts <= at)),
    battery: toColumns([]),
    rules: [rule],
  }).insights;

describe('the passive warm-up a cold unit shows between two runs of its compressor', () => {
  it('is learned from its off-phases, near the true rate, at 1 and 15 min alike', () => {
    const unit: Unit = { room: 21, tauHours: 6, low: 3, high: 4.5, failureAt: null, doorEvery: null, seed: 1 };
    for (const cadence of [1, 15]) {
      const { readings } = simulate(unit, now - 3 * 86_400_000, now, cadence, 8);
      const warmup = learnWarmup(readings, cadence * MINUTE);
      expect(warmup, `every ${cadence} min`).not.toBeNull();
      // Newton's rate at the band's temperature: (21 − T̄)/6 h, about 2,9 K/h at 3,5 °C.
      const truth = (21 - (warmup?.at ?? 0)) / 6;
      expect(Math.abs((warmup?.rate ?? 0) - truth) / truth, `every ${cadence} min`).toBeLessThan(0.35);
    }
  });

  for (const cadence of [1, 5, 10, 15]) {
    it(`foretells a stopped compressor's crossing of +8 °C from its off-phases, read every ${cadence} min`, () => {
      // Three quarters of an hour after the stop. Its off-phases last an hour: read every 15 min,
      // the stop is still an off-phase like any other then (its last reading 0,2 K past their top
      // says nothing yet); the forecast is judged a reading later, an hour after it.
      const failureAt = now - 45 * MINUTE;
      const at = now + (cadence === 15 ? 15 * MINUTE : 0);
      const unit: Unit = { room: 21, tauHours: 6, low: 3, high: 4.5, failureAt, doorEvery: null, seed: cadence };
      const { readings, crossing } = simulate(unit, now - 3 * 86_400_000, now + 6 * HOUR, cadence, 8);
      expect(crossing).not.toBeNull();
      const insights = insightsAt(readings, at);
      const eta = insights.breach ? Date.parse(insights.breach.eta) : null;
      const remaining = (crossing as number) - at;
      expect(
        eta,
        `crossing in ${Math.round(remaining / MINUTE)} min, ${readings
          .filter((r) => r.ts < at)
          .slice(-6)
          .map((r) => r.value)
          .join(' ')}`,
      ).not.toBeNull();
      expect(Math.abs((eta as number) - (crossing as number))).toBeLessThanOrEqual(Math.max(30 * MINUTE, remaining / 2));
      expect(insights.forecastModel?.basis?.readings).toBeGreaterThanOrEqual(2);
    });
  }

  it('needs no week of history: eleven hours of cycles (less than the half day the seasonal model needs) are enough to foretell a stop', () => {
    const failureAt = now - 75 * MINUTE;
    const unit: Unit = { room: 21, tauHours: 6, low: 3, high: 4.5, failureAt, doorEvery: null, seed: 11 };
    const { readings, crossing } = simulate(unit, now - 11 * HOUR, now + 6 * HOUR, 5, 8);
    const insights = insightsAt(readings, now);
    const eta = insights.breach ? Date.parse(insights.breach.eta) : null;
    expect(eta).not.toBeNull();
    expect(Math.abs((eta as number) - (crossing as number))).toBeLessThanOrEqual(Math.max(30 * MINUTE, ((crossing as number) - now) / 2));
    expect(insights.forecastModel?.kind).toBe('relaxation');
    // Without the stop: nothing to forecast from yet.
    const { readings: healthy } = simulate({ ...unit, failureAt: null }, now - 11 * HOUR, now, 5, 8);
    expect(insightsAt(healthy, now).forecastUnavailable).toBe('not_enough_readings');
  });

  it('predicts no breach for a healthy unit whose door opens often', () => {
    const unit: Unit = { room: 21, tauHours: 6, low: 3, high: 4.5, failureAt: null, doorEvery: 40 * MINUTE, seed: 7 };
    for (const cadence of [1, 5, 15]) {
      const { readings } = simulate(unit, now - 3 * 86_400_000, now + 12 * HOUR, cadence, 8);
      for (let at = now; at <= now + 12 * HOUR; at += 30 * MINUTE)
        expect(insightsAt(readings, at).breach, `every ${cadence} min, at +${(at - now) / HOUR} h`).toBeNull();
    }
  });

  it('says why there is no forecast: too few readings, or none recent', () => {
    const unit: Unit = { room: 21, tauHours: 6, low: 3, high: 4.5, failureAt: null, doorEvery: null, seed: 3 };
    const { readings } = simulate(unit, now - 2 * HOUR, now, 5, 8);
    const young = insightsAt(readings, now);
    expect(young.forecast).toEqual([]);
    expect(young.forecastUnavailable).toBe('not_enough_readings');
    expect(young.forecastModel).toBeNull();
    const silent = insightsAt(readings, now + 2 * HOUR);
    expect(silent.forecastUnavailable).toBe('no_recent_reading');
    const { readings: week } = simulate(unit, now - 3 * 86_400_000, now, 5, 8);
    const healthy = insightsAt(week, now);
    expect(healthy.forecastUnavailable).toBeNull();
    expect(healthy.forecastModel?.basis?.readings).toBe(week.filter((reading) => reading.ts < now).length);
  });
});
