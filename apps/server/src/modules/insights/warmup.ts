/**
 * A cold unit's passive warm-up, learned from its own history.
 *
 * Between two runs of its compressor a cold unit warms toward its surroundings along Newton's law,
 * dT/dt = (A − T)/τ: every off-phase of its normal cycle is a piece of the very curve a stopped
 * compressor follows. The history's rising legs (a zigzag of the readings, trough to peak, reversals
 * smaller than the noise ignored) give the warming rate at the band's temperature — their median,
 * so that the rarer and faster rises (a defrost's heater, a door's gust of air) weigh nothing — and
 * the usual top of the band (how far an off-phase goes). The surroundings A are not identifiable
 * from legs a couple of kelvins long: a prior (the shop's air) stands for them, and the crossing
 * time hardly depends on it once the rate near the band is known: with τ = (A − T̄)/rate,
 * Δt = τ·ln((A − T_now)/(A − L)).
 *
 * A departure, then, is a rise that goes further than the unit's off-phases ever go, at a pace no
 * faster than its passive warm-up (a defrost's heater and a door's gust are faster, and fall back).
 */
import type { Reading } from './forecast.ts';

const HOUR = 3_600_000;

export interface Warmup {
  /** The median warming rate of the off-phases (per hour) … */
  rate: number;
  /** … at this temperature (the median middle of the legs). */
  at: number;
  /** The relative spread of the legs' rates (interquartile range over median), for the interval. */
  spread: number;
  /** How high the off-phases go (the 98th percentile of their peaks: one in fifty goes higher). */
  top: number;
  /** How far an off-phase rises (the median rise). */
  rise: number;
  /** How long the off-phases last (the 98th percentile of their durations, ms). */
  longest: number;
  /** What the noise and the rounding may add to a reading (three standard deviations of the scatter about the legs). */
  noise: number;
  /** How many legs the figures rest on. */
  legs: number;
  /**
   * True when the off-phases are read by three readings or more (the median leg): at a cadence close
   * to the cycle's period the samples catch pieces of different cycles, and the legs' rates mix in
   * the compressor's pull (too slow).
   */
  resolved: boolean;
}

interface Leg {
  from: Reading;
  to: Reading;
  rate: number;
  readings: number;
}

const quantile = (sorted: readonly number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))] ?? Number.NaN;

/**
 * The readings' resolution: the smallest step they commonly make (the 2nd percentile of the
 * nonzero differences between successive readings), which the quantisation and the noise set —
 * not the cycle, whose steps are larger at a coarse cadence.
 */
function resolution(readings: readonly Reading[]): number {
  const diffs: number[] = [];
  for (let i = 1; i < readings.length; i += 1) {
    const d = Math.abs((readings[i] as Reading).value - (readings[i - 1] as Reading).value);
    if (d > 1e-9) diffs.push(d);
  }
  diffs.sort((a, b) => a - b);
  return quantile(diffs, 0.02) || 0.1;
}

/** Theil–Sen's slope through `points` (per hour): the median of the pairwise slopes. */
function medianSlope(points: readonly Reading[]): number {
  const slopes: number[] = [];
  for (let i = 0; i < points.length; i += 1)
    for (let j = i + 1; j < points.length; j += 1) {
      const a = points[i] as Reading;
      const b = points[j] as Reading;
      if (b.ts > a.ts) slopes.push(((b.value - a.value) / (b.ts - a.ts)) * HOUR);
    }
  slopes.sort((a, b) => a - b);
  return quantile(slopes, 0.5);
}

/**
 * The rising legs of a zigzag through `readings`: a turning point is confirmed once the readings
 * have reversed by more than `threshold`. Gaps longer than `maxGap` cut the series.
 */
export function risingLegs(readings: readonly Reading[], threshold: number, maxGap: number, residuals: number[] = []): Leg[] {
  const legs: Leg[] = [];
  let trough = -1;
  let peak = -1;
  let rising = false;
  const at = (i: number) => readings[i] as Reading;
  const close = () => {
    // The rate from the reading after the trough (not across the turn of the cycle) to the peak:
    // Theil–Sen through them when there are four at least, the two ends otherwise.
    const from = peak - trough >= 2 ? trough + 1 : trough;
    const points = readings.slice(from, peak + 1);
    const rate = points.length >= 4 ? medianSlope(points) : ((at(peak).value - at(from).value) / (at(peak).ts - at(from).ts)) * HOUR;
    if (points.length >= 4) {
      // The readings' scatter about the leg's line (the noise and the rounding, not the cycle).
      const intercepts = points.map((point) => point.value - (rate * point.ts) / HOUR).sort((a, b) => a - b);
      const intercept = quantile(intercepts, 0.5);
      for (const point of points) residuals.push(Math.abs(point.value - intercept - (rate * point.ts) / HOUR));
    }
    if (rate > 0 && Number.isFinite(rate)) legs.push({ from: at(trough), to: at(peak), rate, readings: peak - trough + 1 });
  };
  for (let i = 0; i < readings.length; i += 1) {
    const reading = at(i);
    if (trough < 0 || reading.ts - at(i - 1).ts > maxGap) {
      trough = i;
      peak = i;
      rising = false;
      continue;
    }
    if (rising) {
      if (reading.value >= at(peak).value) peak = i;
      else if (at(peak).value - reading.value > threshold) {
        close();
        rising = false;
        trough = i;
      }
    } else if (reading.value <= at(trough).value) trough = i;
    else if (reading.value - at(trough).value > threshold) {
      rising = true;
      peak = i;
    }
  }
  return legs;
}

/**
 * The unit's passive warm-up from its history (`readings`, in time order, any cadence), null when
 * the history holds too few off-phases to tell (fewer than six rising legs).
 */
export function learnWarmup(readings: readonly Reading[], cadence: number): Warmup | null {
  if (readings.length < 20) return null;
  const threshold = Math.max(0.25, 2.5 * resolution(readings.slice(-2000)));
  const residuals: number[] = [];
  const legs = risingLegs(readings, threshold, 2.5 * cadence, residuals);
  // Three standard deviations of the scatter about the legs' lines (the zigzag's threshold
  // without enough of them to tell).
  residuals.sort((a, b) => a - b);
  const noise = residuals.length >= 30 ? Math.max(0.2, 3 * 1.4826 * quantile(residuals, 0.5)) : threshold;
  if (legs.length < 6) return null;
  // Weighed by their duration: the noise's zigzags are short, the off-phases last.
  const weighted = legs.map((leg) => ({ rate: leg.rate, weight: leg.to.ts - leg.from.ts })).sort((a, b) => a.rate - b.rate);
  const total = weighted.reduce((sum, leg) => sum + leg.weight, 0);
  const weightedQuantile = (q: number) => {
    let sum = 0;
    for (const leg of weighted) {
      sum += leg.weight;
      if (sum >= q * total) return leg.rate;
    }
    return weighted.at(-1)?.rate ?? Number.NaN;
  };
  const rate = weightedQuantile(0.5);
  if (!(rate > 0)) return null;
  // The off-phases: the legs no faster than twice the median (not a heater's, not a gust's).
  const normal = legs.filter((leg) => leg.rate <= 2 * rate);
  const peaks = normal.map((leg) => leg.to.value).sort((a, b) => a - b);
  const middles = normal.map((leg) => (leg.to.value + leg.from.value) / 2).sort((a, b) => a - b);
  const rises = normal.map((leg) => leg.to.value - leg.from.value).sort((a, b) => a - b);
  return {
    rate,
    at: quantile(middles, 0.5),
    spread: (weightedQuantile(0.75) - weightedQuantile(0.25)) / rate,
    top: quantile(peaks, 0.98),
    rise: quantile(rises, 0.5),
    longest: quantile(
      normal.map((leg) => leg.to.ts - leg.from.ts).sort((a, b) => a - b),
      0.98,
    ),
    noise,
    legs: legs.length,
    resolved:
      quantile(
        normal.map((leg) => leg.readings).sort((a, b) => a - b),
        0.5,
      ) >= 3,
  };
}

/** The time constant (hours) the learned rate gives for surroundings at `ambient`. */
export function tauOf(warmup: Warmup, ambient: number): number {
  return Math.max(0.05, (ambient - warmup.at) / warmup.rate);
}

/** Newton's warm-up from `level` toward `ambient` with time constant `tau` hours, `hours` later. */
export function passiveAt(ambient: number, tau: number, level: number, hours: number): number {
  return ambient - (ambient - level) * Math.exp(-hours / tau);
}

/** The passive warming rate (per hour) at temperature `value`, for surroundings at `ambient`. */
export function passiveRate(warmup: Warmup, ambient: number, value: number): number {
  return (warmup.rate * (ambient - value)) / Math.max(0.5, ambient - warmup.at);
}

/**
 * The pace the forecast follows from `level`: the passive rate the off-phases taught, or the rate
 * the departure's readings show now (`observed`) when it is clearly slower (a door ajar against a
 * running compressor, a weakening compressor) or when the off-phases were too sparsely read to
 * teach it.
 */
export function paceOf(warmup: Warmup, ambient: number, level: number, observed: number | null): number {
  const passive = passiveRate(warmup, ambient, level);
  if (observed === null) return passive;
  if (!warmup.resolved || observed < 0.7 * passive) return Math.max(observed, 0.05 * passive);
  return passive;
}

/** A rise under way: the reading it started from (its trough) and the readings since. */
export interface Rise {
  /** Index in the readings of the trough the rise started from. */
  from: number;
  /** Its mean pace from the trough to the last reading, per hour. */
  pace: number;
}

/**
 * The rise the readings end on, if they end rising: back from the last reading to the lowest one
 * before an earlier reading stands higher than it by more than the noise (the previous peak).
 * Null when the last reading has fallen back from the rise's top by more than half the noise.
 */
export function currentRise(readings: readonly Reading[], noise: number, maxGap: number): Rise | null {
  const last = readings.at(-1);
  if (!last) return null;
  let low = readings.length - 1;
  let high = last.value;
  for (let i = readings.length - 2; i >= 0; i -= 1) {
    const reading = readings[i] as Reading;
    if ((readings[i + 1] as Reading).ts - reading.ts > maxGap) break;
    if (reading.value > (readings[low] as Reading).value + noise) break;
    if (reading.value < (readings[low] as Reading).value) low = i;
    if (i > low) high = Math.max(high, reading.value);
  }
  const trough = readings[low] as Reading;
  if (low === readings.length - 1 || high - last.value > noise / 2) return null;
  return { from: low, pace: ((last.value - trough.value) / (last.ts - trough.ts)) * HOUR };
}

/**
 * A cold unit leaving its cycle: the readings end on a rise that has gone past the top of its
 * off-phases by more than the noise — and by half an off-phase's rise, or for longer than they last — at a pace its passive warm-up allows (a defrost's heater or a
 * door's gust warm faster: up to half as fast again as the passive rate at the rise's middle). The
 * rise's trough is where the departure began.
 */
export function passiveDeparture(readings: readonly Reading[], warmup: Warmup, ambient: number, cadence: number): Rise | null {
  const last = readings.at(-1);
  const beyond = warmup.top + warmup.noise;
  if (!last || last.value <= beyond) return null;
  const rise = currentRise(readings, warmup.noise, 2.5 * cadence);
  // Three readings at least: the trough and two that keep rising.
  if (!rise || rise.from > readings.length - 3) return null;
  // Further than half an off-phase's rise past their top, or for longer than they ever last.
  const trough = readings[rise.from] as Reading;
  if (last.value <= warmup.top + Math.max(warmup.noise, warmup.rise / 2) && last.ts - trough.ts <= warmup.longest) return null;
  const middle = ((readings[rise.from] as Reading).value + last.value) / 2;
  const allowed = 1.5 * (1 + warmup.spread);
  if (rise.pace > allowed * passiveRate(warmup, ambient, middle)) return null;
  // A single reading past the top: only if it came at that pace too, not in a jump (a door's gust
  // of air warms the probe in a step, and it falls back); two in a row past the top, still rising,
  // are no gust.
  const previous = readings.at(-2) as Reading;
  if (previous.value <= beyond) {
    const step = ((last.value - previous.value) / (last.ts - previous.ts)) * HOUR;
    if (step > allowed * passiveRate(warmup, ambient, (last.value + previous.value) / 2)) return null;
  }
  return rise;
}

/**
 * The forecast of a cold unit warming from `level` now: the passive curve (its off-phases' rate,
 * toward `ambient`) unless the departure's own readings say it warms more slowly (`observed`, the
 * rate they show now: a door ajar against a running compressor, a weakening compressor), then a
 * curve toward the same surroundings at that slower pace. The interval spans the passive curve for
 * the learned rate's spread and surroundings 4 K warmer, down to the slower curve at half its pace.
 */
export function warmupAt(
  warmup: Warmup,
  ambient: number,
  level: number,
  observed: number | null,
  hours: number,
): { value: number; low: number; high: number } {
  const passive = passiveRate(warmup, ambient, level);
  const pace = paceOf(warmup, ambient, level, observed);
  const value = passiveAt(ambient, Math.max(0.05, (ambient - level) / pace), level, hours);
  const fast = Math.max(pace, passive) * (1 + Math.max(0.25, warmup.spread));
  const high = passiveAt(ambient + 4, Math.max(0.05, (ambient - level) / fast), level, hours);
  const low = passiveAt(ambient - 4, Math.max(0.05, (ambient - level) / (0.5 * Math.min(pace, passive))), level, hours);
  const margin = warmup.noise / 2;
  return { value, low: Math.min(value, low) - margin, high: Math.max(value, high) + margin };
}
