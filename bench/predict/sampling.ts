/**
 * What a real sensor sends of a simulated cabinet (cabinet.ts): a reading every `cadence` minutes on
 * its own clock (a phase, a slow clock drift, a few seconds of jitter), a few lost, noise and offset,
 * 0,1 °C resolution; in some runs a gap (gateway down, readings lost) or a late batch (readings kept
 * by the sensor and delivered at once when the network is back). Each reading carries the instant
 * it reaches the server: an analysis at `now` sees only what has arrived.
 */
import { type CabinetParams, DAY, type Fault, HOUR, MINUTE, SECOND, type Trace, trueAt } from './cabinet.ts';
import type { Random } from './random.ts';

export interface SentReading {
  ts: number;
  value: number;
  /** When the server receives it. */
  arrival: number;
}

export interface Disturbance {
  kind: 'gap' | 'late';
  from: number;
  to: number;
}

export interface Sampled {
  cadenceMinutes: number;
  readings: SentReading[];
  disturbance: Disturbance | null;
}

/** 0,1 °C resolution, without « −0 ». */
export const quantise = (value: number) => Math.round(value * 10) / 10 + 0;

/**
 * Samples `trace` from `from` to `to`. A gap or late batch (a quarter of runs each) falls within
 * [`quietFrom`, `quietTo`] when given: before the fault, so that a budget never hangs on readings
 * that could not arrive.
 */
export function sample(
  trace: Trace,
  params: CabinetParams,
  fault: Fault | null,
  cadenceMinutes: number,
  random: Random,
  window: { from: number; to: number; quietFrom: number; quietTo: number },
): Sampled {
  const period = cadenceMinutes * MINUTE * (1 + random.uniform(-0.002, 0.002));
  const jitter = random.uniform(2 * SECOND, Math.max(3 * SECOND, 0.03 * cadenceMinutes * MINUTE));
  const lost = random.uniform(0, 0.03);
  let disturbance: Disturbance | null = null;
  const roll = random.next();
  if (roll < 0.5 && window.quietTo - window.quietFrom > 8 * HOUR) {
    const length = roll < 0.25 ? random.uniform(1, 6) * HOUR : random.uniform(0.5, 3) * HOUR;
    const from = random.uniform(window.quietFrom, window.quietTo - length);
    disturbance = { kind: roll < 0.25 ? 'gap' : 'late', from, to: from + length };
  }
  const batchArrival = disturbance ? disturbance.to + random.uniform(0, 10) * MINUTE : 0;
  const readings: SentReading[] = [];
  let frozenValue: number | null = null;
  for (let k = 0, clock = window.from + random.uniform(0, period); clock < window.to; k += 1, clock = window.from + k * period) {
    const ts = Math.round(clock + random.uniform(-jitter, jitter));
    const noise = random.normal() * params.noise;
    const lose = random.chance(lost);
    if (ts < window.from || ts >= window.to || lose) continue;
    if (disturbance?.kind === 'gap' && ts >= disturbance.from && ts < disturbance.to) continue;
    if (fault?.kind === 'power_cut' && ts >= fault.at && ts < fault.at + fault.durationMs) continue;
    let value = quantise(trueAt(trace, ts) + params.offset + noise);
    if (fault?.kind === 'sensor_drift' && ts >= fault.at) value = quantise(value + (fault.perDay * (ts - fault.at)) / DAY);
    if (fault?.kind === 'sensor_frozen') {
      if (ts < fault.at) frozenValue = value;
      else value = frozenValue ?? value;
    }
    const late = disturbance?.kind === 'late' && ts >= disturbance.from && ts < disturbance.to;
    readings.push({ ts, value, arrival: late ? Math.max(ts, batchArrival) : ts + random.uniform(1, 20) * SECOND });
  }
  readings.sort((a, b) => a.ts - b.ts);
  return { cadenceMinutes, readings, disturbance };
}
