/**
 * Synthetic series with known answers for the anomaly detectors' tests: a thermostat-driven cold
 * unit (compressor cycles, scheduled defrosts, faults on demand), a door contact, and a daily
 * seasonal signal. Deterministic for a given seed.
 */
import type { Series } from './forecast.ts';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** Monday 2 March 2026, midnight UTC. */
export const START = Date.UTC(2026, 2, 2);

/** A repeatable uniform number in [0, 1) (mulberry32). */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function gaussian(rand: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
}

export interface ColdOptions {
  days: number;
  seed?: number;
  /** Cut-out and cut-in setpoints (°C). */
  low?: number;
  high?: number;
  /** Cooling power of the compressor at t (1 = healthy; below about 0,4 it cannot hold the cut-out). */
  power?: (t: number) => number;
  /** Defrosts every `defrostEvery` from `defrostAt` (ms after START), the compressor off for `heatMinutes(t)`. */
  defrostEvery?: number;
  defrostAt?: number;
  heatMinutes?: (t: number) => number;
  /** A scheduled defrost that does not happen. */
  skipDefrost?: (t: number) => boolean;
  /** What the probe reports instead of the true temperature (a stuck or drifting probe). */
  probe?: (t: number, temperature: number) => number;
  /** Extra exchange with the shop's air, per minute (a door left open: 1/40 lifts the cabinet to about 8 °C). */
  leak?: (t: number) => number;
  jitter?: number;
}

const AMBIENT = 20;
/** Thermal time constant of the cabinet, in minutes: it warms by 0,2 °C/min at 3,4 °C. */
const TAU = 83;
/** The compressor's cooling, in °C per minute at full power. */
const COOLING = 0.44;

/**
 * A fridge minute by minute (Newton's law towards the shop's air at 20 °C): while the compressor is
 * off the cabinet warms up to the cut-in, while it runs it cools down to the cut-out (a cycle of
 * about 22 minutes between 2,2 and 4,6 °C when healthy). A defrost stops the compressor for about
 * twenty minutes (the cabinet peaks near 7 °C), then the compressor pulls it down.
 */
export function coldSeries(options: ColdOptions): Series {
  const rand = random(options.seed ?? 1);
  const low = options.low ?? 2.2;
  const high = options.high ?? 4.6;
  const every = options.defrostEvery ?? 6 * HOUR;
  const at = options.defrostAt ?? HOUR;
  const jitter = options.jitter ?? 0.03;
  let temperature = (low + high) / 2;
  let running = false;
  let defrostUntil = -Infinity;
  const out: Series = [];
  for (let i = 0; i < options.days * 1440; i += 1) {
    const t = START + i * MINUTE;
    const sinceSchedule = (((t - START - at) % every) + every) % every;
    if (sinceSchedule < MINUTE && !(options.skipDefrost?.(t) ?? false)) defrostUntil = t + (options.heatMinutes?.(t) ?? 22) * MINUTE;
    const defrosting = t < defrostUntil;
    // The compressor pulls down after a defrost, and otherwise runs between the setpoints.
    if (defrosting) running = false;
    else if (t - defrostUntil < MINUTE) running = true;
    else if (running && temperature <= low) running = false;
    else if (!running && temperature >= high) running = true;
    const warming = (AMBIENT - temperature) * (1 / TAU + (options.leak?.(t) ?? 0));
    temperature += warming - (running ? COOLING * (options.power?.(t) ?? 1) : 0);
    const reading = temperature + jitter * gaussian(rand);
    out.push(Math.round((options.probe?.(t, reading) ?? reading) * 100) / 100);
  }
  return out;
}

/**
 * A door contact, minute by minute (1 open, 0 closed): between 8:00 and 20:00 UTC it opens now and
 * then for one to three minutes; `leftOpen` forces it open.
 */
export function doorSeries(days: number, leftOpen: (t: number) => boolean = () => false, seed = 3): Series {
  const rand = random(seed);
  const out: Series = [];
  let openUntil = -Infinity;
  for (let i = 0; i < days * 1440; i += 1) {
    const t = START + i * MINUTE;
    const hour = Math.floor((t % DAY) / HOUR);
    if (hour >= 8 && hour < 20 && t >= openUntil && rand() < 0.06) openUntil = t + (1 + Math.floor(rand() * 3)) * MINUTE;
    out.push(leftOpen(t) || t < openUntil ? 1 : 0);
  }
  return out;
}

/** A daily cycle (20 ± 5) with gaussian noise, every `stepMs`; `change` adds to it. */
export function dailySeries(days: number, stepMs: number, change: (t: number) => number = () => 0, noise = 0.5, seed = 5): Series {
  const rand = random(seed);
  return Array.from({ length: Math.round((days * DAY) / stepMs) }, (_, i) => {
    const t = START + i * stepMs;
    return 20 + 5 * Math.sin((2 * Math.PI * (t - START)) / DAY) + noise * gaussian(rand) + change(t);
  });
}
