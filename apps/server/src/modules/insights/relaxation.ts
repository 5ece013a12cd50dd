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
}

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
 * Null when the points do not move in that direction.
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
  if (!(trend.slope * direction > 0) || trend.concordance < 0.6) return null;
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
  };
}

/** The fitted curve `hours` after the origin, with the envelope of the plausible curves widened by the fit's spread (≈ 80 %). */
export function relaxationAt(fit: RelaxationFit, hours: number): { value: number; low: number; high: number } {
  const value = fit.kind === 'trend' ? fit.level + fit.slopePerHour * hours : curve(fit.target, fit.tauHours, fit.level, hours);
  let low = value;
  let high = value;
  for (const c of fit.plausible) {
    const v = curve(c.target, c.tauHours, c.level, hours);
    low = Math.min(low, v);
    high = Math.max(high, v);
  }
  if (fit.kind === 'trend' || fit.plausible.length === 0) {
    // A straight line's own uncertainty: a quarter of its travel either way.
    const travel = Math.abs(fit.slopePerHour * hours) * 0.25;
    low = Math.min(low, value - travel);
    high = Math.max(high, value + travel);
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
  if (fit.kind === 'trend') {
    const slope = `${fit.slopePerHour > 0 ? '+' : ''}${number(fit.slopePerHour, Math.abs(fit.slopePerHour) >= 10 ? 0 : 1)}${u} par heure`;
    return cold && fit.direction > 0
      ? `Le froid ne suit plus\u202f: la température ${moving} régulièrement (${slope}).`
      : `La valeur ${moving} régulièrement (${slope})\u202f: la prévision suit cette tendance.`;
  }
  const target = `${number(fit.target, 0)}${u}`;
  if (cold && fit.direction > 0)
    return fit.target >= 15
      ? `Le froid ne suit plus\u202f: la température monte vers celle de la pièce (environ ${target}).`
      : `Le froid ne suit plus\u202f: la température monte et tendrait vers environ ${target}.`;
  return `La valeur ${moving} et tendrait vers environ ${target}\u202f: la prévision suit cette courbe.`;
}
