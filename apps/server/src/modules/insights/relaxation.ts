/**
 * The physical side of the forecast: a unit that leaves its normal, read from its readings in time
 * whatever their cadence.
 *
 * A cold unit that loses its cooling warms along Newton's law of cooling: the gap to its
 * surroundings shrinks exponentially, T(t) = A − (A − T₀)·e^(−t/τ), A the temperature it tends to
 * (the shop's air for a stopped compressor, a warmer balance for a door left ajar or a weak
 * compressor), τ its time constant (its thermal mass). A sensor drifting or a slow loss looks like
 * the start of such a curve with a far target: a straight line. One family covers them all: for
 * each candidate target A the time constant follows from a least-squares line through
 * ln|A − T|, and the target is chosen by the residuals, with a prior that the shop's air is near
 * 21 °C when the unit is a cold one. The curves the readings allow almost as well give the interval.
 *
 * Nothing here counts readings in a window: the departure is judged on the time the readings
 * cover, and sparse readings give fewer points, a wider set of plausible curves, a wider interval.
 */
import type { Reading } from './forecast.ts';
import { theilSen } from './anomalies.ts';

const HOUR = 3_600_000;
const MINUTE = 60_000;

/** The kind of model that speaks for the forecast. */
export type ForecastModelKind = 'seasonal' | 'relaxation' | 'trend';

export interface RelaxationFit {
  kind: 'relaxation' | 'trend';
  /** +1 warming (rising), −1 cooling (falling). */
  direction: 1 | -1;
  /** The value the curve tends to (Infinity-like for a straight trend), in the signal's unit. */
  target: number;
  /** Time constant in hours (Infinity for a straight trend). */
  tauHours: number;
  /** The fitted value at the origin of the forecast. */
  level: number;
  /** The slope at the origin, per hour. */
  slopePerHour: number;
  /** Residual spread of the fit (standard deviation), in the signal's unit. */
  spread: number;
  /** Plausible curves (target, tau): the interval's envelope. */
  plausible: { target: number; tauHours: number; level: number }[];
  /**
   * The rate the unit moves at now: a Theil–Sen line through the readings of the last
   * `RECENT_HOURS` (three readings at least), its value at the origin and its slope per hour. It
   * carries the forecast's value (see `relaxationAt`).
   */
  recent: { level: number; slopePerHour: number };
  /** Where the value cannot go (a cold unit does not warm past the shop's air and 5 K), in `direction`. */
  bound: number;
}

/**
 * The span the present rate is read over. A departure's first half hour often holds a fast step
 * (the air, quick to warm, then the contents, slow): the rate since then is the one that lasts.
 */
const RECENT_HOURS = 0.35;
/** How far past the shop's air a cold unit's forecast may go (a stuck defrost heater warms it further). */
const PAST_AMBIENT = 5;

/** The reporting cadence: the median gap between readings over the last day (at most the last 200 gaps). */
export function cadenceOf(readings: readonly Reading[]): number {
  const last = readings.at(-1)?.ts;
  if (last === undefined) return 5 * MINUTE;
  const gaps: number[] = [];
  for (let i = readings.length - 1; i > 0 && gaps.length < 200; i -= 1) {
    const b = readings[i] as Reading;
    const a = readings[i - 1] as Reading;
    if (last - b.ts > 24 * HOUR) break;
    if (b.ts > a.ts) gaps.push(b.ts - a.ts);
  }
  if (gaps.length === 0) return 5 * MINUTE;
  gaps.sort((x, y) => x - y);
  return gaps[Math.floor(gaps.length / 2)] as number;
}

function curve(target: number, tauHours: number, level: number, hours: number): number {
  if (!Number.isFinite(tauHours)) return level;
  return target - (target - level) * Math.exp(-hours / tauHours);
}

interface Candidate {
  target: number;
  tauHours: number;
  level: number;
  sse: number;
  objective: number;
}

/**
 * Fits the departure in `points` (hours before the origin ≤ 0, values), rising when `direction`
 * is +1. `ambient`: the prior on the surroundings for a cold unit (null: no prior, any target).
 * Null when the points move neither overall nor now in that direction.
 */
export function fitRelaxation(
  points: readonly { hours: number; value: number }[],
  direction: 1 | -1,
  options: { ambient: number | null; noise: number },
): RelaxationFit | null {
  if (points.length < 3) return null;
  const xs = points.map((p) => p.hours);
  const ys = points.map((p) => p.value);
  const trend = theilSen(xs, ys);
  // The present rate (see `recent`): the departure is followed when it moves that way now, even
  // after a first step the other way (a door's gust of warm air, then the cold fighting back).
  const recentFrom = Math.min(-RECENT_HOURS, points.at(-3)?.hours ?? 0, (xs[0] as number) / 2);
  const rx = xs.filter((x) => x >= recentFrom);
  const ry = ys.filter((_, k) => (xs[k] as number) >= recentFrom);
  const present = theilSen(rx, ry);
  const moving = (line: { slope: number; concordance: number }) => line.slope * direction > 0 && line.concordance >= 0.6;
  if (!moving(trend) && !moving(present)) return null;
  const rate = present.slope;
  const rateIntercepts = ry.map((y, k) => y - rate * (rx[k] as number)).sort((a, b) => a - b);
  const recent = { level: rateIntercepts[Math.floor(rateIntercepts.length / 2)] as number, slopePerHour: rate };
  const extreme = direction > 0 ? Math.max(...ys) : Math.min(...ys);
  const span = Math.max(...ys) - Math.min(...ys);
  const noise = Math.max(options.noise, 0.05);
  const candidates: Candidate[] = [];
  // Targets from just beyond the furthest reading outwards, on a widening grid.
  for (let i = 1; i <= 60; i += 1) {
    const gap = Math.max(0.25, span / 4) * 1.12 ** i * 0.35 + 0.2 * i;
    const target = extreme + direction * gap;
    // ln|A − T| is a straight line in time: slope −1/τ.
    const us = ys.map((y) => Math.log(Math.max(1e-6, direction * (target - y))));
    const n = xs.length;
    const mx = xs.reduce((s, x) => s + x, 0) / n;
    const mu = us.reduce((s, u) => s + u, 0) / n;
    let sxx = 0;
    let sxu = 0;
    for (let k = 0; k < n; k += 1) {
      sxx += ((xs[k] as number) - mx) ** 2;
      sxu += ((xs[k] as number) - mx) * ((us[k] as number) - mu);
    }
    if (sxx <= 0) return null;
    const b = sxu / sxx;
    if (!(b < 0)) continue;
    const tauHours = -1 / b;
    // The level at the origin (hours = 0) from the line, then the residuals in the signal's unit.
    const level = target - direction * Math.exp(mu - b * mx);
    let sse = 0;
    for (let k = 0; k < n; k += 1) sse += ((ys[k] as number) - curve(target, tauHours, level, xs[k] as number)) ** 2;
    const prior = options.ambient === null ? 0 : ((target - options.ambient) / 6) ** 2;
    candidates.push({ target, tauHours, level, sse, objective: sse / noise ** 2 + prior });
  }
  // The straight line (a target far away): Theil–Sen through the points.
  const intercepts = ys.map((y, k) => y - trend.slope * (xs[k] as number)).sort((a, b) => a - b);
  const lineLevel = intercepts[Math.floor(intercepts.length / 2)] as number;
  const lineSse = ys.reduce((s, y, k) => s + (y - (lineLevel + trend.slope * (xs[k] as number))) ** 2, 0);
  const linePrior = options.ambient === null ? 0 : 4;
  const bound = options.ambient !== null && direction > 0 ? options.ambient + PAST_AMBIENT : direction * Number.POSITIVE_INFINITY;
  if (candidates.length === 0 && !Number.isFinite(lineSse)) return null;
  const best = candidates.reduce<Candidate | null>((a, c) => (a === null || c.objective < a.objective ? c : a), null);
  const lineObjective = lineSse / noise ** 2 + linePrior;
  const dof = Math.max(1, points.length - 2);
  if (best === null || lineObjective <= best.objective) {
    const spread = Math.sqrt(lineSse / dof);
    const plausible = candidates
      .filter((c) => c.objective <= lineObjective + 4)
      .map(({ target, tauHours, level }) => ({ target, tauHours, level }));
    return {
      kind: 'trend',
      direction,
      target: Number.POSITIVE_INFINITY,
      tauHours: Number.POSITIVE_INFINITY,
      level: lineLevel,
      slopePerHour: trend.slope,
      spread,
      plausible,
      recent,
      bound,
    };
  }
  const plausible = candidates
    .filter((c) => c.objective <= best.objective + 4)
    .map(({ target, tauHours, level }) => ({ target, tauHours, level }));
  return {
    kind: 'relaxation',
    direction,
    target: best.target,
    tauHours: best.tauHours,
    level: best.level,
    slopePerHour: (best.target - best.level) / best.tauHours,
    spread: Math.sqrt(best.sse / dof),
    plausible,
    recent,
    bound,
  };
}

/**
 * The forecast `hours` after the origin. Its value continues the present rate (`recent`), held
 * within `bound`; the interval spans that line, the fitted curve and the plausible ones, widened by
 * the fit's spread (≈ 80 %).
 *
 * Why the present rate and not the fitted curve's: on the evaluation's cabinets (two heat
 * capacities: the air warms in minutes, the contents in hours), the first half hour of a departure
 * bends more than the rest of it does, and a single exponential fitted through it places its
 * target too close (a door ajar, a weakening compressor) or, under the prior on the shop's air, too
 * far (a door ajar settles 1 to 4 K past the limit, not at the room's temperature). The present
 * rate continued is early by a bounded share when the curve truly bends — the crossing of a line
 * tangent to a Newton curve comes at x/(−ln(1 − x)) of the true time, x the share of the way to the
 * target the limit lies at — and never late. docs/decisions/0037 holds the figures.
 */
export function relaxationAt(fit: RelaxationFit, hours: number): { value: number; low: number; high: number } {
  const fitted = fit.kind === 'trend' ? fit.level + fit.slopePerHour * hours : curve(fit.target, fit.tauHours, fit.level, hours);
  const line = fit.recent.level + fit.recent.slopePerHour * hours;
  const value = fit.direction > 0 ? Math.min(line, fit.bound) : Math.max(line, fit.bound);
  let low = Math.min(value, fitted);
  let high = Math.max(value, fitted);
  for (const c of fit.plausible) {
    const v = curve(c.target, c.tauHours, c.level, hours);
    low = Math.min(low, v);
    high = Math.max(high, v);
  }
  if (fit.kind === 'trend' || fit.plausible.length === 0) {
    // A straight line's own uncertainty: a quarter of its travel either way.
    const travel = Math.abs(fit.slopePerHour * hours) * 0.25;
    low = Math.min(low, fitted - travel);
    high = Math.max(high, fitted + travel);
  }
  const margin = 1.28 * fit.spread;
  return { value, low: low - margin, high: high + margin };
}

const number = (n: number, digits: number) =>
  n.toLocaleString('fr-FR', { minimumFractionDigits: digits, maximumFractionDigits: digits }).replace('-', '−');

/** What speaks for the forecast, in a shop manager's words. */
export function explainForecast(fit: RelaxationFit | null, unit: string, cold: boolean): string {
  const u = unit ? `\u00a0${unit}` : '';
  if (fit === null) return 'Prévision d’après les habitudes de l’appareil (ses cycles et ses heures de la journée).';
  const moving = fit.direction > 0 ? 'monte' : 'baisse';
  const perHour = fit.recent.slopePerHour;
  const rate = `${perHour > 0 ? '+' : ''}${number(perHour, Math.abs(perHour) >= 10 ? 0 : 1)}${u} par heure`;
  if (fit.kind === 'trend') {
    return cold && fit.direction > 0
      ? `Le froid ne suit plus\u202f: la température ${moving} régulièrement (${rate}).`
      : `La valeur ${moving} régulièrement (${rate})\u202f: la prévision suit cette tendance.`;
  }
  const target = `${number(fit.target, 0)}${u}`;
  if (cold && fit.direction > 0)
    return fit.target >= 15
      ? `Le froid ne suit plus\u202f: la température monte vers celle de la pièce (environ ${target}), à ${rate} en ce moment.`
      : `Le froid ne suit plus\u202f: la température monte (${rate} en ce moment) et tendrait vers environ ${target}.`;
  return `La valeur ${moving} (${rate} en ce moment) et tendrait vers environ ${target}\u202f: la prévision suit ce rythme.`;
}

/** A stretch of readings beyond the unit's usual range: when it began, how long and how far it went. */
interface Excursion {
  start: number;
  end: number;
  peak: number;
}

/** The stretches of `readings` beyond `limit` in `direction`, gaps of up to `maxGap` bridged. */
function excursionsBeyond(readings: readonly Reading[], limit: number, direction: 1 | -1, maxGap: number): Excursion[] {
  const out: Excursion[] = [];
  let current: Excursion | null = null;
  let lastTs = -Infinity;
  for (const reading of readings) {
    const beyond = (reading.value - limit) * direction > 0;
    if (beyond) {
      if (current && reading.ts - lastTs <= maxGap) {
        current.end = reading.ts;
        current.peak = direction > 0 ? Math.max(current.peak, reading.value) : Math.min(current.peak, reading.value);
      } else {
        current = { start: reading.ts, end: reading.ts, peak: reading.value };
        out.push(current);
      }
    } else {
      current = null;
    }
    lastTs = reading.ts;
  }
  return out;
}

/**
 * True when the stretch that began at `since` is, this far into it, further in `direction` than
 * every one of the `past` stretches was at the same point of its course (three at least, each read
 * within a reporting step of the same elapsed time). A defrost warms the unit and the compressor
 * then pulls it down on the unit's usual course; a door left ajar at defrost time keeps it warmer
 * than any of its defrosts kept it, and is no habit from then on.
 */
function beyondEveryPast(
  readings: readonly Reading[],
  past: readonly { start: number }[],
  since: number,
  direction: 1 | -1,
  cadence: number,
): boolean {
  const last = readings.at(-1);
  if (!last || past.length < 3) return false;
  const elapsed = last.ts - since;
  if (elapsed < 2 * cadence) return false;
  const tolerance = Math.max(cadence, 5 * MINUTE);
  const margin = 0.2;
  let j = 0;
  for (const { start } of past) {
    const at = start + elapsed;
    if (at >= since) return false;
    while (j < readings.length && (readings[j] as Reading).ts < at - tolerance) j += 1;
    for (let k = j; k < readings.length && (readings[k] as Reading).ts <= at + tolerance; k += 1)
      if (((readings[k] as Reading).value - last.value) * direction > -margin) return false;
  }
  return true;
}

/** True when the stretch beyond `edge` going on since `since` has outgrown every earlier one (see `beyondEveryPast`). */
export function outgrowsPastExcursions(
  readings: readonly Reading[],
  edge: number,
  since: number,
  direction: 1 | -1,
  cadence: number,
): boolean {
  const before = readings.filter((reading) => reading.ts < since);
  const past = excursionsBeyond(before, edge, direction, 2 * cadence + MINUTE);
  return beyondEveryPast(readings, past, since, direction, cadence);
}

/**
 * True when the readings have stood beyond the unit's usual range in `direction` since well before
 * anything this week did (half as long again as the longest earlier stretch, and a reporting step;
 * three earlier stretches at least): a departure that set in slowly enough for the seasonal model
 * to follow it is still a departure.
 */
export function outlastsPastExcursions(readings: readonly Reading[], range: UsualRange, direction: 1 | -1, cadence: number): boolean {
  const last = readings.at(-1);
  const edge = usualEdge(range, direction);
  // Within the usual range now (the common case, on every analysis): no pass over the week.
  if (!last || (last.value - edge) * direction <= 0) return false;
  const all = excursionsBeyond(readings, edge, direction, 2 * cadence + MINUTE);
  const current = all.at(-1);
  if (!current || current.end !== last.ts || all.length < 4) return false;
  const longest = Math.max(...all.slice(0, -1).map((e) => e.end - e.start));
  return last.ts - current.start > 1.5 * longest + cadence;
}

/** The direction in which the readings outlast every earlier stretch beyond the usual range (see above), 0 when neither. */
export function outlastingDirection(readings: readonly Reading[], range: UsualRange, cadence: number): 1 | -1 | 0 {
  if (outlastsPastExcursions(readings, range, 1, cadence)) return 1;
  if (outlastsPastExcursions(readings, range, -1, cadence)) return -1;
  return 0;
}

/** The unit's usual range: the 10th and 90th percentiles of its readings (sorted once, shared by the checks below). */
export interface UsualRange {
  q10: number;
  q90: number;
}

export function usualRangeOf(readings: readonly Reading[]): UsualRange {
  const sorted = readings.map((reading) => reading.value).sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.floor(q * (sorted.length - 1))))] ?? Number.NaN;
  return { q10: at(0.1), q90: at(0.9) };
}

/** The edge of the unit's usual range in `direction`: its 90th (10th) percentile and a quarter of its spread beyond. */
export function usualEdge(range: UsualRange, direction: 1 | -1): number {
  const spread = range.q90 - range.q10;
  return direction > 0 ? range.q90 + 0.25 * spread : range.q10 - 0.25 * spread;
}

/**
 * When the excursion going on now began, if it is one the unit makes by habit and comes back from — a
 * defrost on its timer, say — rather than a departure. It is when, over the history before it:
 * - the unit has made excursions beyond its usual range on a regular beat (at least three, and
 *   most of the beats the history holds, whatever the period from 2 to 26 hours), and the present
 *   one began on that beat;
 * - and it has not yet gone longer or further than those did.
 * Null otherwise. Judged in time, with the reporting cadence as the tolerance: a sensor that reports every 15 min
 * sees a defrost as one or two readings, and its beat as well as one that reports every minute.
 */
export function habitualExcursion(readings: readonly Reading[], range: UsualRange, direction: 1 | -1, cadence: number): number | null {
  const last = readings.at(-1);
  if (!last || readings.length < 20) return null;
  const limit = usualEdge(range, direction);
  const tolerance = Math.max(cadence, 10 * 60_000);
  const all = excursionsBeyond(readings, limit, direction, 2 * cadence + 60_000);
  const current = all.at(-1);
  if (!current || current.end !== last.ts) return null;
  const past = all.slice(0, -1);
  if (past.length < 3) return null;
  // Not longer nor further than the past ones went.
  const longest = Math.max(...past.map((e) => e.end - e.start));
  const furthest = direction > 0 ? Math.max(...past.map((e) => e.peak)) : Math.min(...past.map((e) => e.peak));
  const margin = Math.max(0.3, 0.1 * Math.abs(range.q90 - range.q10));
  if (last.ts - current.start > longest + tolerance + cadence) return null;
  if ((current.peak - furthest) * direction > margin) return null;
  if (beyondEveryPast(readings, past, current.start, direction, cadence)) return null;
  // On a beat: a period P for which the past excursions that went far (half as far as the
  // furthest at least: defrosts, not a door's blips) hit most of the beats before the present
  // one's start — distinct beats, and clearly more than excursions that dense would by chance.
  const reach = (e: Excursion) => (e.peak - limit) * direction;
  const far = past.filter((e) => reach(e) >= 0.5 * reach({ start: 0, end: 0, peak: furthest }));
  const span = current.start - (readings[0] as Reading).ts;
  const chance = 1 - Math.exp(-(far.length / Math.max(span, 1)) * 2 * tolerance);
  let best = 0;
  for (const e of far) {
    const gap = current.start - e.start;
    for (let k = 1; k <= 4; k += 1) {
      const period = gap / k;
      if (period < 2 * 3600_000 || period > 26 * 3600_000) continue;
      const hit = new Set<number>();
      for (const other of far) {
        const beats = (current.start - other.start) / period;
        const beat = Math.round(beats);
        if (beat >= 1 && Math.abs(beats - beat) * period <= tolerance) hit.add(beat);
      }
      const expected = Math.max(1, Math.floor(span / period));
      const share = hit.size / expected;
      if (hit.size >= 3 && share >= Math.max(0.5, chance + 0.3)) best = Math.max(best, share);
    }
  }
  return best > 0 ? current.start : null;
}

/**
 * The direction in which the readings now stand beyond anything the unit's history held before the
 * present stretch outside its usual range (by a margin: a tenth of that range, 0,2 at least), on the
 * last `needed` readings, still moving that way: a unit further than it has been all week is
 * leaving its normal, whatever its habits (a defrost or a door that reached as far before does not
 * trigger this). 0 when neither.
 */
export function recordDirection(readings: readonly Reading[], range: UsualRange, cadence: number): 1 | -1 | 0 {
  for (const direction of [1, -1] as const) if (beyondRecord(readings, range, direction, cadence)) return direction;
  return 0;
}

function beyondRecord(readings: readonly Reading[], range: UsualRange, direction: 1 | -1, cadence: number): boolean {
  const n = readings.length;
  const last = readings.at(-1);
  if (!last || n < 20) return false;
  const edge = usualEdge(range, direction);
  if ((last.value - edge) * direction <= 0) return false;
  let since = n - 1;
  while (since > 0 && ((readings[since - 1] as Reading).value - edge) * direction > 0) since -= 1;
  // Two days at least: a unit's habits (its defrosts, its busy hours) have come round a few times.
  if (since === 0 || last.ts - (readings[0] as Reading).ts < 48 * HOUR) return false;
  // What the unit held for a while: the value it stayed beyond over two successive readings and ten
  // minutes at least (a door's gust of warm air passes in a few minutes, a failure stays).
  const held = (end: number): number => {
    let worst = (readings[end] as Reading).value;
    const from = Math.min((readings[Math.max(0, end - 1)] as Reading).ts, (readings[end] as Reading).ts - 10 * MINUTE);
    for (let j = end - 1; j >= 0 && (readings[j] as Reading).ts >= from; j -= 1) {
      const value = (readings[j] as Reading).value;
      worst = direction > 0 ? Math.min(worst, value) : Math.max(worst, value);
    }
    return worst;
  };
  let record = direction > 0 ? -Infinity : Infinity;
  for (let i = 0; i < since; i += 1) {
    const value = held(i);
    record = direction > 0 ? Math.max(record, value) : Math.min(record, value);
  }
  const margin = Math.max(0.2, 0.1 * (range.q90 - range.q10));
  // Held beyond it over two readings; or the last one twice as far beyond, the one before it already
  // outside the usual range (a sensor that reports every 15 min gives little else to wait for).
  const far = (last.value - record) * direction >= 2 * margin && n - since >= 2;
  if ((held(n - 1) - record) * direction < margin && !far) return false;
  // Not coming back: the last reading no nearer than the one a reporting step or more before it.
  const before = readings.findLast((reading) => reading.ts <= last.ts - cadence);
  return before !== undefined && (last.value - before.value) * direction >= 0;
}
