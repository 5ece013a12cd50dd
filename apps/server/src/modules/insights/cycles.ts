/**
 * A cold unit's cooling cycles, found causally from its temperature: the turning points of the
 * series with a hysteresis (a trough when the temperature has risen by `h` from its lowest point,
 * a peak when it has fallen by `h` from its highest), `h` adapting to the unit's usual swing so a
 * door opening or the sensor's jitter do not cut a cycle in two. A cycle runs from one trough (the
 * compressor stops) through a peak (it starts) to the next trough.
 */
import { quantileSorted } from './robust.ts';

export interface Turn {
  ts: number;
  value: number;
}

export interface Cycle {
  /** The trough that opens it, its peak, and the trough that closes it. */
  start: Turn;
  peak: Turn;
  end: Turn;
  /** Mean of the buckets seen between the two troughs' detections. */
  mean: number;
}

export interface CycleStats {
  /** How many cycles the figures rest on. */
  count: number;
  period: number;
  /** Upper quartile of the periods: what a long ordinary cycle lasts. */
  periodHigh: number;
  /** Warming (compressor off: trough → peak) and cooling (compressor on: peak → trough) durations. */
  rise: number;
  riseHigh: number;
  fall: number;
  fallHigh: number;
  amplitude: number;
  peak: number;
  trough: number;
  mean: number;
  /** Spread of the cycle means (robust), for « running warmer ». */
  meanSpread: number;
}

export interface CycleEvents {
  /** A peak confirmed at this bucket, with the trough before it (if any). */
  peak: { peak: Turn; trough: Turn | null } | null;
  /** A cycle closed by a trough confirmed at this bucket. */
  cycle: Cycle | null;
  /** A trough confirmed at this bucket. */
  trough: Turn | null;
}

const INITIAL_HYSTERESIS = 0.3;
const MIN_HYSTERESIS = 0.15;
/** A « cycle » longer than this is not one (the unit was off, or a long fault). */
const MAX_CYCLE_MS = 4 * 3_600_000;
/** Silence after which the turning points start afresh. */
const MAX_GAP_MS = 30 * 60_000;

export class CycleTracker {
  private direction: 'up' | 'down' | null = null;
  // The running extremes, as plain numbers (no allocation per bucket).
  private highTs = 0;
  private highValue = -Infinity;
  private lowTs = 0;
  private lowValue = Infinity;
  private lastTrough: Turn | null = null;
  private lastPeak: Turn | null = null;
  private sum = 0;
  private count = 0;
  private lastTs = -Infinity;
  /** Ordinary cycles (defrosts left out by the caller), oldest first. */
  private readonly normal: Cycle[] = [];
  private readonly keep: number;
  private readonly cache = new Map<number, CycleStats | null>();
  private learnt = 0;
  private static readonly NONE: CycleEvents = Object.freeze({ peak: null, cycle: null, trough: null }) as CycleEvents;
  hysteresis = INITIAL_HYSTERESIS;

  constructor(keep = 72) {
    this.keep = keep;
  }

  /** Where the temperature is heading: 'up' (warming), 'down' (cooling), or not known yet. */
  get heading(): 'up' | 'down' | null {
    return this.direction;
  }

  /** The turning point the current phase started from (the trough when warming, the peak when cooling). */
  get since(): Turn | null {
    return this.direction === 'up' ? this.lastTrough : this.direction === 'down' ? this.lastPeak : null;
  }

  push(ts: number, value: number | null): CycleEvents {
    if (value === null || !Number.isFinite(value)) return CycleTracker.NONE;
    if (ts - this.lastTs > MAX_GAP_MS) this.reset();
    this.lastTs = ts;
    this.sum += value;
    this.count += 1;
    if (this.direction === null) {
      if (value > this.highValue) [this.highTs, this.highValue] = [ts, value];
      if (value < this.lowValue) [this.lowTs, this.lowValue] = [ts, value];
      if (value <= this.highValue - this.hysteresis) {
        this.direction = 'down';
        [this.lowTs, this.lowValue] = [ts, value];
      } else if (value >= this.lowValue + this.hysteresis) {
        this.direction = 'up';
        [this.highTs, this.highValue] = [ts, value];
      }
      return CycleTracker.NONE;
    }
    if (this.direction === 'up') {
      if (value > this.highValue) {
        this.highTs = ts;
        this.highValue = value;
        return CycleTracker.NONE;
      }
      if (value > this.highValue - this.hysteresis) return CycleTracker.NONE;
      const peak = { ts: this.highTs, value: this.highValue };
      const events: CycleEvents = { peak: { peak, trough: this.lastTrough }, cycle: null, trough: null };
      this.lastPeak = peak;
      this.direction = 'down';
      this.lowTs = ts;
      this.lowValue = value;
      return events;
    }
    if (value < this.lowValue) {
      this.lowTs = ts;
      this.lowValue = value;
      return CycleTracker.NONE;
    }
    if (value < this.lowValue + this.hysteresis) return CycleTracker.NONE;
    const low = { ts: this.lowTs, value: this.lowValue };
    const events: CycleEvents = { peak: null, cycle: null, trough: low };
    if (this.lastTrough && this.lastPeak && this.lastPeak.ts > this.lastTrough.ts && low.ts - this.lastTrough.ts <= MAX_CYCLE_MS) {
      events.cycle = { start: this.lastTrough, peak: this.lastPeak, end: low, mean: this.sum / Math.max(1, this.count) };
    }
    this.sum = 0;
    this.count = 0;
    this.lastTrough = low;
    this.direction = 'up';
    this.highTs = ts;
    this.highValue = value;
    return events;
  }

  /** Records an ordinary cycle (not a defrost) and adapts the hysteresis to the usual swing. */
  learn(cycle: Cycle): void {
    // The usual cycle moves slowly: its figures are refreshed every fourth cycle once known.
    this.learnt += 1;
    const refresh = this.normal.length < 24 || this.learnt % 4 === 0;
    if (refresh) this.cache.clear();
    this.normal.push(cycle);
    if (this.normal.length > this.keep) this.normal.shift();
    if (this.normal.length >= 8 && refresh) {
      const amplitudes = Float64Array.from(this.normal, (c) => c.peak.value - Math.max(c.start.value, c.end.value)).sort();
      this.hysteresis = Math.max(MIN_HYSTERESIS, 0.45 * quantileSorted(amplitudes, 0.5));
    }
  }

  /** Forgets the ordinary cycles that ended after `ts` (they were part of a defrost found later). */
  forgetSince(ts: number): void {
    while (this.normal.length > 0 && (this.normal.at(-1) as Cycle).end.ts > ts) this.normal.pop();
    this.cache.clear();
  }

  /** The usual cycle, from the ordinary cycles before the last `skip` ones (so a fault does not become the norm). */
  stats(skip = 0): CycleStats | null {
    const cached = this.cache.get(skip);
    if (cached !== undefined) return cached;
    const computed = this.compute(skip);
    this.cache.set(skip, computed);
    return computed;
  }

  private compute(skip: number): CycleStats | null {
    const n = Math.max(0, this.normal.length - skip);
    if (n < 8) return null;
    const period = new Float64Array(n);
    const rise = new Float64Array(n);
    const fall = new Float64Array(n);
    const means = new Float64Array(n);
    const amplitude = new Float64Array(n);
    const peak = new Float64Array(n);
    const trough = new Float64Array(n);
    for (let i = 0; i < n; i += 1) {
      const c = this.normal[i] as Cycle;
      period[i] = c.end.ts - c.start.ts;
      rise[i] = c.peak.ts - c.start.ts;
      fall[i] = c.end.ts - c.peak.ts;
      means[i] = c.mean;
      amplitude[i] = c.peak.value - (c.start.value + c.end.value) / 2;
      peak[i] = c.peak.value;
      trough[i] = c.end.value;
    }
    for (const column of [period, rise, fall, means, amplitude, peak, trough]) column.sort();
    const mean = quantileSorted(means, 0.5);
    const deviations = new Float64Array(n);
    for (let i = 0; i < n; i += 1) deviations[i] = Math.abs((means[i] as number) - mean);
    deviations.sort();
    return {
      count: n,
      period: quantileSorted(period, 0.5),
      periodHigh: quantileSorted(period, 0.75),
      rise: quantileSorted(rise, 0.5),
      riseHigh: quantileSorted(rise, 0.75),
      fall: quantileSorted(fall, 0.5),
      fallHigh: quantileSorted(fall, 0.75),
      amplitude: quantileSorted(amplitude, 0.5),
      peak: quantileSorted(peak, 0.5),
      trough: quantileSorted(trough, 0.5),
      mean,
      meanSpread: 1.4826 * quantileSorted(deviations, 0.5),
    };
  }

  /** The last `n` ordinary cycles, newest last. */
  recent(n: number): Cycle[] {
    return this.normal.slice(-n);
  }

  private reset(): void {
    this.direction = null;
    this.highValue = -Infinity;
    this.lowValue = Infinity;
    this.lastTrough = null;
    this.lastPeak = null;
    this.sum = 0;
    this.count = 0;
  }
}
