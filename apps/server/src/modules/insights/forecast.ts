/**
 * Forecasting core of the predictive analysis (docs/api.md, Analyse prédictive): pure functions, no I/O.
 *
 * - `resample` puts readings on a regular grid (bucket mean); an empty bucket is `null`.
 * - `fitHoltWinters` fits an additive Holt-Winters model, ETS(A,Ad,A) in error-correction form
 *   (level, damped trend, seasonal of period m), or its non-seasonal damped-trend version. The
 *   parameters are chosen by a coarse grid then a local refinement on the one-step-ahead squared
 *   error over the training window. Among candidate periods (and the non-seasonal model) the one
 *   with the lowest h-step error on a holdout (the last fifth of the training window) is kept,
 *   then refitted on the whole window.
 * - Missing buckets: gaps of one or two buckets are filled linearly for fitting only; over longer
 *   gaps the state runs on its own forecast (no update), never on interpolated values.
 * - Prediction interval: empirical quantiles of the h-step errors made over the training window
 *   (in-sample, with the fitted parameters), for h up to the fitted horizon; beyond it, the last
 *   quantile is widened by the ETS(A,Ad,A) variance ratio. Empirical quantiles follow skewed
 *   errors (a door opening only warms a fridge) where a symmetric normal interval would not.
 * - Robust option: residuals are clipped at k robust standard deviations before they update the
 *   state (a Huber filter), so short spikes (door openings) do not drag the level. The holdout
 *   decides between the plain and the robust filter when `robust` is 'auto'.
 */

export interface Reading {
  ts: number;
  value: number;
}

/** A regular series: one value per bucket, `null` where the bucket is empty. */
export type Series = (number | null)[];

export interface ForecastPoint {
  value: number;
  low: number;
  high: number;
}

export interface HoltWintersParams {
  alpha: number;
  /** Trend smoothing, 0 ≤ beta ≤ alpha (error-correction form). */
  beta: number;
  /** Seasonal smoothing, 0 ≤ gamma ≤ 1 − alpha; unused when the model is not seasonal. */
  gamma: number;
  /** Trend damping, 0.8 ≤ phi ≤ 1. */
  phi: number;
}

export interface HoltWintersModel {
  /** Seasonal period in buckets; 1 for the non-seasonal (damped trend) model. */
  period: number;
  params: HoltWintersParams;
  /** Residual clip in absolute units (Infinity for the plain filter). */
  clip: number;
  level: number;
  slope: number;
  /** Seasonal terms indexed by phase, i.e. absolute bucket index modulo the period. */
  seasonal: number[];
  /** Index of the next bucket (number of buckets consumed). */
  t: number;
  /** Standard deviation of the one-step errors over the training window. */
  sigma: number;
  /** Nominal coverage of the interval, e.g. 0.8. */
  coverage: number;
  /** Per horizon h (index h − 1): quantiles of the h-step errors at (1 − coverage)/2 and (1 + coverage)/2. */
  errorLow: number[];
  errorHigh: number[];
}

export interface FitOptions {
  /** Candidate seasonal periods in buckets; a candidate needs two full seasons of data. */
  periods?: number[];
  /** Longest horizon (buckets) whose errors are measured for the interval and the holdout. */
  horizon?: number;
  /** Nominal coverage of the prediction interval: 0.8 by default. */
  coverage?: number;
  /** Clip residuals (Huber filter): true, false, or 'auto' (decided on the holdout, the default). */
  robust?: boolean | 'auto';
}

const HUBER_K = 2.5;

/** Regular buckets of `stepMs` from `from` (inclusive) to `to` (exclusive): the mean of each bucket, null when empty. */
export function resample(readings: Reading[], stepMs: number, from: number, to: number): Series {
  const count = Math.max(0, Math.ceil((to - from) / stepMs));
  const sum = new Float64Array(count);
  const n = new Uint32Array(count);
  for (const r of readings) {
    if (r.ts < from || r.ts >= to || !Number.isFinite(r.value)) continue;
    const i = Math.floor((r.ts - from) / stepMs);
    sum[i] = (sum[i] ?? 0) + r.value;
    n[i] = (n[i] ?? 0) + 1;
  }
  return Array.from({ length: count }, (_, i) => ((n[i] ?? 0) > 0 ? (sum[i] ?? 0) / (n[i] ?? 1) : null));
}

/** Fills runs of at most `maxGap` nulls between two values linearly; longer runs and the edges stay null. */
export function fillShortGaps(series: Series, maxGap = 2): Series {
  const out = series.slice();
  let i = 0;
  while (i < out.length) {
    if (out[i] !== null) {
      i += 1;
      continue;
    }
    let j = i;
    while (j < out.length && out[j] === null) j += 1;
    const before = i > 0 ? out[i - 1] : null;
    const after = j < out.length ? out[j] : null;
    if (before != null && after != null && j - i <= maxGap) {
      for (let k = i; k < j; k += 1) out[k] = before + ((after - before) * (k - i + 1)) / (j - i + 1);
    }
    i = j;
  }
  return out;
}

/** Seasonal-naive forecast of the h buckets after the series: the value one season earlier (or several seasons when h > m). */
export function seasonalNaive(series: Series, m: number, h: number): (number | null)[] {
  const n = series.length;
  return Array.from({ length: h }, (_, i) => {
    for (let back = m * (Math.floor(i / m) + 1); n + i - back >= 0; back += m) {
      const v = series[n + i - back];
      if (v != null) return v;
    }
    return null;
  });
}

/** In-sample mean absolute error of the seasonal-naive forecast (lag m), over pairs where both values exist. */
export function seasonalNaiveScale(training: Series, m: number): number {
  let sum = 0;
  let count = 0;
  for (let t = m; t < training.length; t += 1) {
    const a = training[t];
    const b = training[t - m];
    if (a == null || b == null) continue;
    sum += Math.abs(a - b);
    count += 1;
  }
  return count > 0 ? sum / count : Number.NaN;
}

/** Mean absolute scaled error: MAE of the forecast over the in-sample seasonal-naive MAE of the training series. NaN when undefined. */
export function mase(actual: Series, forecast: Series, trainingSeries: Series, m: number): number {
  let sum = 0;
  let count = 0;
  for (let i = 0; i < actual.length; i += 1) {
    const a = actual[i];
    const f = forecast[i];
    if (a == null || f == null) continue;
    sum += Math.abs(a - f);
    count += 1;
  }
  const scale = seasonalNaiveScale(trainingSeries, m);
  return count > 0 && scale > 0 ? sum / count / scale : Number.NaN;
}

/**
 * Seasonal period by autocorrelation: the lag in [minLag, maxLag] with the highest local peak of the
 * autocorrelation (when it reaches `threshold`), or a whole fraction of it that peaks within 95 %
 * of it. A period that is not a whole number of buckets (a 22-minute cycle in 5-minute buckets)
 * is found at the first lag where it comes back in phase (22 buckets), not at a near miss (9).
 */
export function detectPeriod(series: Series, minLag: number, maxLag: number, threshold = 0.3): number | null {
  // On first differences: a slow drift or a daily swing would otherwise favour the shorter lags.
  const level = toArray(fillShortGaps(series));
  const y = level.subarray(1).map((v, i) => v - (level[i] as number));
  let mean = 0;
  let count = 0;
  for (const v of y) {
    if (Number.isNaN(v)) continue;
    mean += v;
    count += 1;
  }
  if (count < 3) return null;
  mean /= count;
  let variance = 0;
  for (const v of y) if (!Number.isNaN(v)) variance += (v - mean) ** 2;
  variance /= count;
  if (variance === 0) return null;
  const last = Math.min(maxLag + 1, Math.floor(y.length / 2));
  const acf = new Float64Array(last + 1);
  for (let lag = Math.max(1, minLag - 1); lag <= last; lag += 1) {
    let s = 0;
    let c = 0;
    for (let t = lag; t < y.length; t += 1) {
      const a = y[t] as number;
      const b = y[t - lag] as number;
      if (Number.isNaN(a) || Number.isNaN(b)) continue;
      s += (a - mean) * (b - mean);
      c += 1;
    }
    acf[lag] = c > 0 ? s / c / variance : 0;
  }
  const peaks: { lag: number; r: number }[] = [];
  for (let lag = Math.max(2, minLag); lag < last; lag += 1) {
    const r = acf[lag] as number;
    if (r >= (acf[lag - 1] as number) && r > (acf[lag + 1] as number)) peaks.push({ lag, r });
  }
  let best: { lag: number; r: number } | null = null;
  for (const p of peaks) if (!best || p.r > best.r) best = p;
  if (!best || best.r < threshold) return null;
  // A whole fraction of the best lag that correlates almost as well is the true period (its multiples peak too).
  for (let k = Math.floor(best.lag / 2); k >= 2; k -= 1) {
    if (best.lag % k !== 0) continue;
    const divisor = peaks.find((p) => p.lag === best.lag / k);
    if (divisor && divisor.r >= 0.95 * best.r) return divisor.lag;
  }
  return best.lag;
}

function toArray(series: Series): Float64Array {
  return Float64Array.from(series, (v) => (v == null ? Number.NaN : v));
}

interface State {
  level: number;
  slope: number;
  seasonal: Float64Array;
}

/** Starting state from the first seasons (or the first values without season). */
export function initialState(y: Float64Array, m: number): State | null {
  const seasonal = new Float64Array(m);
  if (m === 1) {
    const first: number[] = [];
    for (let t = 0; t < y.length && first.length < 10; t += 1) if (!Number.isNaN(y[t] as number)) first.push(y[t] as number);
    if (first.length === 0) return null;
    return { level: first[0] as number, slope: 0, seasonal };
  }
  const seasons = Math.min(Math.floor(y.length / m), 4);
  if (seasons < 1) return null;
  const sums = new Float64Array(m);
  const counts = new Uint32Array(m);
  let firstMean = Number.NaN;
  const means: number[] = [];
  for (let k = 0; k < seasons; k += 1) {
    let s = 0;
    let c = 0;
    for (let i = 0; i < m; i += 1) {
      const v = y[k * m + i] as number;
      if (!Number.isNaN(v)) {
        s += v;
        c += 1;
      }
    }
    if (c < m / 2) continue;
    const mean = s / c;
    means.push(mean);
    if (Number.isNaN(firstMean)) firstMean = mean;
    for (let i = 0; i < m; i += 1) {
      const v = y[k * m + i] as number;
      if (Number.isNaN(v)) continue;
      sums[i] = (sums[i] as number) + v - mean;
      counts[i] = (counts[i] as number) + 1;
    }
  }
  if (Number.isNaN(firstMean)) return null;
  for (let i = 0; i < m; i += 1) seasonal[i] = (counts[i] as number) > 0 ? (sums[i] as number) / (counts[i] as number) : 0;
  // The level starts at the first season's mean, the seasonal terms are centred.
  return { level: firstMean, slope: 0, seasonal };
}

interface RunOptions {
  m: number;
  params: HoltWintersParams;
  clip: number;
  /** Errors before this index are not counted (the initial state is being absorbed). */
  scoreFrom: number;
  /** Measure h-step errors for h = 1..horizon (0: one-step squared error only). */
  horizon: number;
  /** Keep every h-step error (for the interval), not only their mean absolute value. */
  keepErrors?: boolean;
}

interface RunResult {
  loss: number;
  sse: number;
  count: number;
  state: State;
  /** Mean absolute h-step error over h = 1..horizon. */
  meanAbsError: number;
  /** errors[h − 1]: h-step errors y − ŷ (the first counts[h − 1] entries), when kept. */
  errors: Float64Array[];
  counts: Uint32Array;
}

/** Runs the ETS(A,Ad,A) filter over y from its initial state. */
export function run(y: Float64Array, init: State, o: RunOptions): RunResult {
  const { m, clip, scoreFrom, horizon } = o;
  const { alpha, beta, gamma, phi } = o.params;
  let level = init.level;
  let slope = init.slope;
  const seasonal = Float64Array.from(init.seasonal);
  let loss = 0;
  let sse = 0;
  let count = 0;
  const keep = o.keepErrors === true;
  const errors = Array.from({ length: keep ? horizon : 0 }, () => new Float64Array(y.length));
  const counts = new Uint32Array(horizon);
  let absSum = 0;
  let absCount = 0;
  // ring[(target % H) * H + h − 1]: the forecast for `target` made h buckets before.
  const ring = horizon > 0 ? new Float64Array(horizon * horizon).fill(Number.NaN) : new Float64Array(0);
  for (let t = 0; t < y.length; t += 1) {
    const v = y[t] as number;
    const phase = t % m;
    const s = seasonal[phase] as number;
    const predicted = level + phi * slope + s;
    if (horizon > 0 && !Number.isNaN(v)) {
      const base = (t % horizon) * horizon;
      for (let h = 1; h <= horizon; h += 1) {
        const f = ring[base + h - 1] as number;
        if (Number.isNaN(f)) continue;
        absSum += Math.abs(v - f);
        absCount += 1;
        if (keep) {
          const k = counts[h - 1] as number;
          (errors[h - 1] as Float64Array)[k] = v - f;
          counts[h - 1] = k + 1;
        }
      }
    }
    if (Number.isNaN(v)) {
      level += phi * slope;
      slope *= phi;
    } else {
      const e = v - predicted;
      if (t >= scoreFrom) {
        const a = Math.abs(e);
        loss += a <= clip ? e * e : 2 * clip * a - clip * clip;
        sse += e * e;
        count += 1;
      }
      const u = e > clip ? clip : e < -clip ? -clip : e;
      level = level + phi * slope + alpha * u;
      slope = phi * slope + beta * u;
      if (m > 1) seasonal[phase] = s + gamma * u;
    }
    if (horizon > 0) {
      let damp = 0;
      let power = 1;
      for (let h = 1; h <= horizon; h += 1) {
        power *= phi;
        damp += power;
        const target = t + h;
        ring[(target % horizon) * horizon + h - 1] =
          t + 1 >= scoreFrom ? level + damp * slope + (seasonal[target % m] as number) : Number.NaN;
      }
    }
  }
  const meanAbsError = absCount > 0 ? absSum / absCount : Number.POSITIVE_INFINITY;
  return { loss, sse, count, state: { level, slope, seasonal }, meanAbsError, errors, counts };
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Parameters from the unit cube: beta and gamma are relative to their admissible ranges. */
function toParams(x: [number, number, number, number], seasonal: boolean): HoltWintersParams {
  const alpha = clamp(x[0], 0.001, 0.999);
  return {
    alpha,
    beta: clamp(x[1], 0, 1) * alpha,
    gamma: seasonal ? clamp(x[2], 0, 1) * (1 - alpha) : 0,
    phi: clamp(x[3], 0.8, 1),
  };
}

/** Grid search then coordinate refinement with shrinking steps, on the (Huber) one-step loss. */
function optimise(y: Float64Array, init: State, m: number, clip: number, scoreFrom: number): HoltWintersParams {
  const seasonal = m > 1;
  const loss = (x: [number, number, number, number]) =>
    run(y, init, { m, params: toParams(x, seasonal), clip, scoreFrom, horizon: 0 }).loss;
  let best: [number, number, number, number] = [0.5, 0, 0, 0.98];
  let bestLoss = Number.POSITIVE_INFINITY;
  for (const a of [0.05, 0.2, 0.5, 0.8])
    for (const b of [0, 0.1])
      for (const g of seasonal ? [0.02, 0.1, 0.4] : [0])
        for (const p of [0.9, 0.98]) {
          const x: [number, number, number, number] = [a, b, g, p];
          const l = loss(x);
          if (l < bestLoss) {
            bestLoss = l;
            best = x;
          }
        }
  const steps = [0.1, 0.05, 0.05, 0.04];
  const free = seasonal ? [0, 1, 2, 3] : [0, 1, 3];
  for (let round = 0; round < 3; round += 1) {
    for (const i of free) {
      for (const direction of [1, -1]) {
        for (;;) {
          const x = best.slice() as [number, number, number, number];
          x[i] = clamp((x[i] as number) + direction * (steps[i] as number), i === 3 ? 0.8 : 0.001, i === 3 ? 1 : 0.999);
          const l = loss(x);
          if (l < bestLoss - 1e-12) {
            bestLoss = l;
            best = x;
          } else break;
        }
      }
    }
    for (let i = 0; i < steps.length; i += 1) steps[i] = (steps[i] as number) / 3;
  }
  return toParams(best, seasonal);
}

/** A robust standard deviation of the noise: MAD of the differences at lag m, over √2. */
function robustScale(y: Float64Array, m: number): number {
  const d: number[] = [];
  for (let t = m; t < y.length; t += 1) {
    const a = y[t] as number;
    const b = y[t - m] as number;
    if (!Number.isNaN(a) && !Number.isNaN(b)) d.push(Math.abs(a - b));
  }
  if (d.length === 0) return 0;
  d.sort((a, b) => a - b);
  return (1.4826 * (d[Math.floor(d.length / 2)] as number)) / Math.SQRT2;
}

function quantile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const pos = clamp(q, 0, 1) * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return (sorted[lo] as number) + ((sorted[hi] as number) - (sorted[lo] as number)) * (pos - lo);
}

interface Candidate {
  m: number;
  clip: number;
}

function fitCandidate(y: Float64Array, c: Candidate, horizon: number, coverage: number): HoltWintersModel | null {
  const init = initialState(y, c.m);
  if (!init) return null;
  const scoreFrom = c.m > 1 ? c.m : Math.min(10, y.length);
  const params = optimise(y, init, c.m, c.clip, scoreFrom);
  const r = run(y, init, { m: c.m, params, clip: c.clip, scoreFrom, horizon, keepErrors: true });
  const errorLow: number[] = [];
  const errorHigh: number[] = [];
  const sigma = r.count > 1 ? Math.sqrt(r.sse / (r.count - 1)) : 0;
  const z = normalQuantile((1 + coverage) / 2);
  for (let h = 1; h <= horizon; h += 1) {
    const e = (r.errors[h - 1] as Float64Array).subarray(0, r.counts[h - 1]).sort();
    if (e.length >= 30) {
      errorLow.push(quantile(e, (1 - coverage) / 2));
      errorHigh.push(quantile(e, (1 + coverage) / 2));
    } else {
      const w = z * sigma * Math.sqrt(etsVariance(params, c.m, h));
      errorLow.push(-w);
      errorHigh.push(w);
    }
  }
  return {
    period: c.m,
    params,
    clip: c.clip,
    level: r.state.level,
    slope: r.state.slope,
    seasonal: Array.from(r.state.seasonal),
    t: y.length,
    sigma,
    coverage,
    errorLow,
    errorHigh,
  };
}

/** Variance multiplier of the h-step error of ETS(A,Ad,A): 1 + Σ_{j<h} (α + β·φ(1−φ^j)/(1−φ) + γ·[j ≡ 0 mod m])². */
export function etsVariance(p: HoltWintersParams, m: number, h: number): number {
  let v = 1;
  let damp = 0;
  let power = 1;
  for (let j = 1; j < h; j += 1) {
    power *= p.phi;
    damp += power;
    const c = p.alpha + p.beta * damp + (m > 1 && j % m === 0 ? p.gamma : 0);
    v += c * c;
  }
  return v;
}

/** Inverse of the standard normal distribution (Acklam's rational approximation). */
export function normalQuantile(p: number): number {
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771006, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.00778469570904146, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const poly = (k: number[], x: number) => k.reduce((acc, v) => acc * x + v, 0);
  if (p <= 0) return Number.NEGATIVE_INFINITY;
  if (p >= 1) return Number.POSITIVE_INFINITY;
  if (p < 0.02425) {
    const q = Math.sqrt(-2 * Math.log(p));
    return poly(c, q) / (poly(d, q) * q + 1);
  }
  if (p > 1 - 0.02425) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (poly(a, r) * q) / (poly(b, r) * r + 1);
}

/**
 * Fits the model to a regular series. Candidates: each period with at least two seasons of data,
 * and the non-seasonal damped trend; the holdout (last fifth) picks one, refitted on the whole series.
 * Returns null when the series has too few values.
 */
export function fitHoltWinters(series: Series, options: FitOptions = {}): HoltWintersModel | null {
  const horizon = Math.max(1, options.horizon ?? 24);
  const coverage = options.coverage ?? 0.8;
  const y = toArray(fillShortGaps(series));
  let valid = 0;
  for (const v of y) if (!Number.isNaN(v)) valid += 1;
  if (valid < 10) return null;
  const periods = [...new Set(options.periods ?? [])].filter((m) => Number.isInteger(m) && m > 1 && y.length >= 2 * m);
  const robust = options.robust ?? 'auto';
  const clipFor = (m: number, robustFilter: boolean) => {
    const scale = robustFilter ? robustScale(y, m) : 0;
    return scale > 0 ? HUBER_K * scale : Number.POSITIVE_INFINITY;
  };
  // Holdout: fit on the first 80 %, run the fitted filter over the rest, compare the mean absolute
  // h-step error over h = 1..horizon. First the periods (with the robust filter unless it is
  // refused), then, for the winner, the other filter when `robust` is 'auto'.
  const split = Math.floor(y.length * 0.8);
  const holdoutError = (c: Candidate) => {
    if (c.m > 1 && split < 2 * c.m) return Number.POSITIVE_INFINITY;
    const init = initialState(y.subarray(0, split), c.m);
    if (!init) return Number.POSITIVE_INFINITY;
    const params = optimise(y.subarray(0, split), init, c.m, c.clip, c.m > 1 ? c.m : 10);
    return run(y, init, { m: c.m, params, clip: c.clip, scoreFrom: split, horizon }).meanAbsError;
  };
  let best: Candidate = { m: 1, clip: clipFor(1, robust !== false) };
  let bestError = periods.length > 0 || robust === 'auto' ? holdoutError(best) : 0;
  for (const m of periods) {
    const c = { m, clip: clipFor(m, robust !== false) };
    const error = holdoutError(c);
    if (error < bestError) {
      bestError = error;
      best = c;
    }
  }
  if (robust === 'auto' && best.clip < Number.POSITIVE_INFINITY) {
    const plain = { m: best.m, clip: Number.POSITIVE_INFINITY };
    if (holdoutError(plain) < bestError) best = plain;
  }
  return fitCandidate(y, best, horizon, coverage);
}

/** Feeds the next bucket (null when missing) to a fitted model, without refitting its parameters. */
export function updateHoltWinters(model: HoltWintersModel, value: number | null): HoltWintersModel {
  const { alpha, beta, gamma, phi } = model.params;
  const phase = model.t % model.period;
  const seasonal = model.seasonal.slice();
  let level = model.level;
  let slope = model.slope;
  const s = seasonal[phase] as number;
  if (value == null || !Number.isFinite(value)) {
    level += phi * slope;
    slope *= phi;
  } else {
    const e = value - (level + phi * slope + s);
    const u = clamp(e, -model.clip, model.clip);
    level = level + phi * slope + alpha * u;
    slope = phi * slope + beta * u;
    if (model.period > 1) seasonal[phase] = s + gamma * u;
  }
  return { ...model, level, slope, seasonal, t: model.t + 1 };
}

/** Forecast of the next h buckets with the prediction interval of the model's coverage. */
export function forecastHoltWinters(model: HoltWintersModel, h: number): ForecastPoint[] {
  const { phi } = model.params;
  const fitted = model.errorLow.length;
  const out: ForecastPoint[] = [];
  let damp = 0;
  let power = 1;
  for (let k = 1; k <= h; k += 1) {
    power *= phi;
    damp += power;
    const value = model.level + damp * model.slope + (model.seasonal[(model.t + k - 1) % model.period] as number);
    let low: number;
    let high: number;
    if (k <= fitted) {
      low = value + (model.errorLow[k - 1] as number);
      high = value + (model.errorHigh[k - 1] as number);
    } else {
      const widen = Math.sqrt(etsVariance(model.params, model.period, k) / etsVariance(model.params, model.period, fitted));
      low = value + (model.errorLow[fitted - 1] as number) * widen;
      high = value + (model.errorHigh[fitted - 1] as number) * widen;
    }
    out.push({ value, low, high });
  }
  return out;
}

/**
 * Candidate seasonal periods of a series of `stepMs` buckets: one day when it is a whole number of
 * buckets, and the period found by autocorrelation up to a day (e.g. a compressor cycle).
 */
export function candidatePeriods(series: Series, stepMs: number): number[] {
  const day = 86_400_000 / stepMs;
  const out: number[] = [];
  if (Number.isInteger(day) && day > 1) out.push(day);
  const detected = detectPeriod(series, 2, Math.max(2, Math.floor(day)));
  if (detected !== null && !out.includes(detected)) out.push(detected);
  return out;
}
