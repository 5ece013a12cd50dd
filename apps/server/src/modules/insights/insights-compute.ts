import type { Anomaly, Excursion, Insights, PredictedBreach, Rule } from '@vigie/contract';
import { detectAnomalies, excursions, theilSen, type SignalProfile } from './anomalies.ts';
import {
  candidatePeriods,
  fillShortGaps,
  fitHoltWinters,
  forecastHoltWinters,
  resample,
  updateHoltWinters,
  type Reading,
} from './forecast.ts';
import {
  cadenceOf,
  explainForecast,
  fitRelaxation,
  habitualExcursion,
  outgrowsPastExcursions,
  outlastingDirection,
  recordDirection,
  relaxationAt,
  usualEdge,
  usualRangeOf,
  type ForecastModelKind,
} from './relaxation.ts';

export const STEP_MS = 5 * 60_000;
/** History the analysis learns from: a week holds several daily cycles and hundreds of compressor cycles. */
export const HISTORY_MS = 7 * 86_400_000;
/** How far ahead: four hours, time enough to move the stock. */
export const HORIZON_STEPS = 48;
export const BATTERY_HISTORY_MS = 30 * 86_400_000;
/** The level at which a battery is taken as spent. */
const BATTERY_EMPTY = 5;
/** A sensor silent for the last hour has no present to forecast from. */
const STALE_MS = 3600_000;
/** Less than half a day of history gives no forecast: too little to know the unit's normal. */
export const MIN_FORECAST_HISTORY_MS = 12 * 3600_000;
/** The kinds of anomaly that mean the unit is leaving its normal: the forecast then follows the departure. */
const DEPARTURES: ReadonlySet<Anomaly['kind']> = new Set(['compressor', 'level_shift', 'drift', 'defrost_long']);
/** A departure is followed when it held within this time. */
const DEPARTURE_RECENT_MS = 15 * 60_000;
/** The readings judged against what the seasonal model expected of them: this long at least, four reporting steps at least. */
const DEPARTURE_WINDOW_MS = 60 * 60_000;
/** A departure: readings beyond the interval for this much (interval half-widths beyond it × hours). */
const DEPARTURE_AREA = 0.25;
/** A cadence beyond this is a sensor that lost its way, not one to wait for. */
const MAX_CADENCE_MS = 30 * 60_000;
/** A departure slower than this (per hour) is left to the seasonal model. */
const MIN_DEPARTURE_SLOPE = 0.3;
/** The shop's air, the prior on where a cold unit that lost its cooling is heading (°C). */
const SHOP_AIR = 21;
const HOUR = 3600_000;
const MINUTE = 60_000;
/** A cold unit's detectors read at most fifteen-minute buckets (see `detectorStepOf`). */
const MAX_COLD_STEP_MS = 15 * MINUTE;
/** Around the same time of day: this much either side. */
const SAME_HOUR_MS = 20 * 60_000;
/** Units of the usual measures, for the explanations. */
/** A map: a measure named like an object's own property (`constructor`) has no unit, not a function. */
const UNITS: ReadonlyMap<string, string> = new Map([
  ['temperature', '°C'],
  ['humidity', '%'],
  ['co2', 'ppm'],
]);
/** An anomaly that held within this time is still « going on » for the watch list. */
export const CURRENT_ANOMALY_MS = 2 * 3600_000;

/** Readings as two parallel columns: cheap to hand to a worker thread. */
export interface Columns {
  ts: Float64Array<ArrayBuffer>;
  values: Float64Array<ArrayBuffer>;
}

export function toColumns(readings: readonly Reading[]): Columns {
  const ts = new Float64Array(readings.length);
  const values = new Float64Array(readings.length);
  readings.forEach((reading, index) => {
    ts[index] = reading.ts;
    values[index] = reading.value;
  });
  return { ts, values };
}

function fromColumns(columns: Columns): Reading[] {
  return Array.from(columns.ts, (ts, index) => ({ ts, value: columns.values[index] ?? Number.NaN }));
}

/** Everything the analysis of one sensor's measure needs, read beforehand from the database. */
export interface InsightsInput {
  key: string;
  now: number;
  /** The measure's readings over the last seven days, in time order. */
  readings: Columns;
  /** The battery levels over the last thirty days, in time order. */
  battery: Columns;
  /** The rules watching this sensor (its own and its site's). */
  rules: Rule[];
}

export interface InsightsResult {
  insights: Insights;
  /** From 0 to 1: how soon someone should look at this sensor (0 = nothing to watch). */
  urgency: number;
}

interface Limit {
  ruleId: string;
  threshold: number;
  direction: 'above' | 'below';
}

/** The limits the enabled rules set on this measure, a predicted breach's own threshold included. */
function limitsOf(rules: Rule[], key: string, predicted: boolean): Limit[] {
  const limits: Limit[] = [];
  for (const rule of rules) {
    const condition = rule.condition;
    if (!rule.enabled || !('key' in condition) || condition.key !== key) continue;
    if (condition.type === 'above' || (predicted && condition.type === 'predicted_above'))
      limits.push({ ruleId: rule.id, threshold: condition.threshold, direction: 'above' });
    if (condition.type === 'below' || (predicted && condition.type === 'predicted_below'))
      limits.push({ ruleId: rule.id, threshold: condition.threshold, direction: 'below' });
    if (condition.type === 'outside') {
      limits.push({ ruleId: rule.id, threshold: condition.max, direction: 'above' });
      limits.push({ ruleId: rule.id, threshold: condition.min, direction: 'below' });
    }
  }
  return limits;
}

/** The 80 % interval's half-width in standard deviations of a normal law (its 90th percentile). */
const Z80 = 1.2816;

/** The standard normal distribution function (Abramowitz–Stegun 7.1.26, within 1,5e-7). */
function normalCdf(x: number): number {
  const t = 1 / (1 + (0.3275911 * Math.abs(x)) / Math.SQRT2);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-(x * x) / 2);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/**
 * When `side` of the forecast first passes `limit`, null when it does not. Each point stands for its
 * five-minute bucket, its value at the bucket's middle: the crossing is placed between the middles
 * of the last point within the limit and the first beyond it (to the minute), not at the start of
 * the first bucket beyond (up to seven minutes early).
 */
function crossingOf(forecast: Insights['forecast'], limit: Limit, side: (point: Insights['forecast'][number]) => number): number | null {
  const beyond = (value: number) => (limit.direction === 'above' ? value > limit.threshold : value < limit.threshold);
  const index = forecast.findIndex((candidate) => beyond(side(candidate)));
  const point = forecast[index];
  if (!point) return null;
  let eta = Date.parse(point.ts);
  const previous = forecast[index - 1];
  if (previous) {
    const share = (limit.threshold - side(previous)) / (side(point) - side(previous));
    const middle = Date.parse(previous.ts) + STEP_MS / 2;
    if (Number.isFinite(share)) eta = Math.round((middle + Math.max(0, Math.min(1, share)) * STEP_MS) / MINUTE) * MINUTE;
  }
  return eta;
}

/**
 * When the forecast first passes a limit of an enabled rule on this key, if it does (`eta`, its
 * central value), with the hours its 80 % interval allows (`earliest`: its unfavourable side,
 * `high` for a limit above; `latest`: its favourable side, null when that side stays within the
 * limit over the horizon) and how likely a crossing within the horizon is: each point taken as a
 * normal law whose 80 % interval is the point's, the largest chance of any point being beyond.
 */
export function predictBreach(rules: Rule[], key: string, forecast: Insights['forecast']): PredictedBreach | null {
  let best: PredictedBreach | null = null;
  for (const limit of limitsOf(rules, key, true)) {
    const eta = crossingOf(forecast, limit, (point) => point.value);
    if (eta === null) continue;
    const above = limit.direction === 'above';
    const earliest = crossingOf(forecast, limit, (point) => (above ? Math.max(point.high, point.value) : Math.min(point.low, point.value)));
    const latest = crossingOf(forecast, limit, (point) => (above ? Math.min(point.low, point.value) : Math.max(point.high, point.value)));
    let probability = 0;
    for (const point of forecast) {
      const sigma = Math.max(1e-9, (point.high - point.low) / (2 * Z80));
      probability = Math.max(probability, normalCdf(((point.value - limit.threshold) * (above ? 1 : -1)) / sigma));
    }
    if (!best || eta < Date.parse(best.eta))
      best = {
        ruleId: limit.ruleId,
        threshold: limit.threshold,
        eta: new Date(eta).toISOString(),
        earliest: new Date(Math.min(eta, earliest ?? eta)).toISOString(),
        latest: latest === null ? null : new Date(Math.max(eta, latest)).toISOString(),
        probability: Math.round(probability * 1000) / 1000,
      };
  }
  return best;
}

/**
 * When the battery reaches 5 %, from a least-squares line through a month of levels, with the range
 * its uncertainty allows (two standard errors of the slope). Null while the level does not fall.
 */
export function batteryOutlook(levels: Reading[], now: number): Insights['battery'] {
  if (levels.length < 10) return null;
  const span = (levels.at(-1)?.ts ?? 0) - (levels[0]?.ts ?? 0);
  if (span < 2 * 86_400_000) return null;
  const n = levels.length;
  const meanT = levels.reduce((sum, r) => sum + r.ts, 0) / n;
  const meanV = levels.reduce((sum, r) => sum + r.value, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (const r of levels) {
    sxx += (r.ts - meanT) ** 2;
    sxy += (r.ts - meanT) * (r.value - meanV);
  }
  const slope = sxy / sxx;
  if (!(slope < 0)) return null;
  const intercept = meanV - slope * meanT;
  const residual = levels.reduce((sum, r) => sum + (r.value - (intercept + slope * r.ts)) ** 2, 0) / Math.max(1, n - 2);
  const slopeError = Math.sqrt(residual / sxx);
  const at = (s: number) => Math.max(now, (BATTERY_EMPTY - (meanV - s * meanT)) / s);
  const fastest = slope - 2 * slopeError;
  const slowest = slope + 2 * slopeError;
  const iso = (ms: number) => new Date(Math.min(ms, 8.64e15)).toISOString();
  return {
    endOfLifeAt: iso(at(slope)),
    earliest: iso(at(fastest)),
    // A slope that may be flat gives no latest date: ten years stands for « not in sight ».
    latest: iso(slowest < 0 ? at(slowest) : now + 10 * 365 * 86_400_000),
  };
}

/**
 * How the detectors read this measure: a door's `open` as a door, a temperature that lives below
 * 12 °C as a cold unit (its compressor and defrost cycles), anything else as a generic signal.
 */
export function profileOf(key: string, readings: Reading[]): SignalProfile {
  if (key === 'open') return 'door';
  if (key !== 'temperature' || readings.length === 0) return 'generic';
  const sorted = readings.map((r) => r.value).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  return median < 12 ? 'cold' : 'generic';
}

/** 1 for a breach due now, 0,6 for one at the end of the horizon; half an anomaly's score; the larger. */
export function urgencyOf(breach: PredictedBreach | null, anomalies: Anomaly[], now: number): number {
  const horizon = HORIZON_STEPS * STEP_MS;
  const breachUrgency = breach ? 0.6 + 0.4 * Math.max(0, Math.min(1, 1 - (Date.parse(breach.eta) - now) / horizon)) : 0;
  const anomalyUrgency = Math.max(0, ...currentAnomalies(anomalies, now).map((anomaly) => 0.5 * anomaly.score));
  return Math.max(breachUrgency, anomalyUrgency);
}

/** The anomalies still going on (they held within the last two hours), strongest first. */
export function currentAnomalies(anomalies: Anomaly[], now: number): Anomaly[] {
  return anomalies.filter((anomaly) => Date.parse(anomaly.to) >= now - CURRENT_ANOMALY_MS).sort((a, b) => b.score - a.score);
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The median of `values`, undefined when there are none. */
function medianOf(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** True when one of these anomalies says the unit is leaving its normal right now. */
export function departing(anomalies: readonly { kind: Anomaly['kind']; to: number }[], now: number): boolean {
  return anomalies.some((anomaly) => DEPARTURES.has(anomaly.kind) && anomaly.to >= now - DEPARTURE_RECENT_MS);
}

/** What the forecast says and which model speaks for it. */
export interface Outlook {
  forecast: Insights['forecast'];
  model: ForecastModelKind;
  explanation: string;
  /** What the forecast rests on: the departure's readings and its start, or the analysed history's; null without a forecast. */
  basis: { readings: number; since: number } | null;
  /** Why there is no forecast (null when there is one). */
  unavailable: 'not_enough_readings' | 'no_recent_reading' | null;
}

/** The readings' typical step-to-step jitter (median absolute difference of successive readings), at least the 0,1 quantisation. */
function jitterOf(readings: readonly Reading[]): number {
  const diffs: number[] = [];
  for (let i = Math.max(1, readings.length - 500); i < readings.length; i += 1)
    diffs.push(Math.abs((readings[i] as Reading).value - (readings[i - 1] as Reading).value));
  diffs.sort((a, b) => a - b);
  return Math.max(0.1, (diffs[Math.floor(diffs.length / 2)] ?? 0) / Math.SQRT2);
}

/**
 * The next four hours from `readings` (up to now, in time order, any cadence): Holt-Winters on
 * five-minute buckets gives the unit's normal with its cycles. The readings of the last
 * `departureWindow` (half an hour, or three reporting steps when the sensor reports less often) are
 * compared with what that model expected of them before they came: when they all lie beyond its
 * interval and keep moving away — or when the detectors say the unit is leaving its normal
 * (`departure`), or when they have held further than anything the week before held
 * (`recordDirection`) — a seasonal model would pull the forecast back to the unit's habits, and the
 * physical model speaks instead (relaxation.ts: an exponential approach to a target, or a straight
 * trend), fitted on the readings since the departure began. Empty without a recent reading or with
 * less than half a day of history.
 */
export function outlookFrom(
  readings: readonly Reading[],
  start: number,
  departure: boolean,
  options: { cold?: boolean; unit?: string; defrosting?: boolean; usualDefrostMs?: number } = {},
): Outlook {
  const cold = options.cold ?? false;
  const unit = options.unit ?? '';
  const first = readings[0]?.ts ?? Infinity;
  const fresh = (readings.at(-1)?.ts ?? -Infinity) >= start - STALE_MS;
  const none = (unavailable: Outlook['unavailable']): Outlook => ({
    forecast: [],
    model: 'seasonal',
    explanation: '',
    basis: null,
    unavailable,
  });
  if (!fresh) return none(readings.length === 0 ? 'not_enough_readings' : 'no_recent_reading');
  if (start - first < MIN_FORECAST_HISTORY_MS) return none('not_enough_readings');
  const cadence = Math.min(cadenceOf(readings), MAX_CADENCE_MS);
  const window = Math.max(DEPARTURE_WINDOW_MS, 4 * cadence);
  const origin = Math.floor((start - window) / STEP_MS) * STEP_MS;
  const series = fillShortGaps(resample(readings as Reading[], STEP_MS, start - HISTORY_MS, start));
  const before = series.length - (start - origin) / STEP_MS;
  const fitted = fitHoltWinters(series.slice(0, before), { periods: candidatePeriods(series.slice(0, before), STEP_MS), horizon: 24 });
  if (!fitted) return none('not_enough_readings');
  // What the model expected of the window's buckets, then the model brought up to date with them.
  const expected = forecastHoltWinters(fitted, series.length - before);
  let model = fitted;
  // A defrost on its timer, not yet longer or warmer than the others, is the unit's habit: its
  // readings do not drag the level of the forecast (they are skipped as if missing).
  const usual = usualRangeOf(readings);
  const habitSince = habitualExcursion(readings, usual, 1, cadence) ?? habitualExcursion(readings, usual, -1, cadence);
  for (let i = before; i < series.length; i += 1) {
    const skipped = habitSince !== null && start - (series.length - i) * STEP_MS + STEP_MS > habitSince;
    model = updateHoltWinters(model, skipped ? null : (series[i] ?? null));
  }
  const seasonal = forecastHoltWinters(model, HORIZON_STEPS).map((point, index) => ({ ts: iso(start + index * STEP_MS), ...point }));
  const analysed = readings.filter((reading) => reading.ts >= start - HISTORY_MS);
  const habits: Outlook = {
    forecast: seasonal,
    model: 'seasonal',
    explanation: explainForecast(null, unit, cold),
    basis: { readings: analysed.length, since: analysed[0]?.ts ?? start },
    unavailable: null,
  };

  // How far the window's readings stand from what was expected, in units of the interval's half-width.
  const recent = readings.filter((reading) => reading.ts >= origin);
  const z = recent.map((reading) => {
    const point = expected[Math.min(expected.length - 1, Math.floor((reading.ts - origin) / STEP_MS))];
    if (!point) return 0;
    const half = Math.max((point.high - point.low) / 2, 1e-9);
    return (reading.value - point.value) / half;
  });
  // The trailing stretch beyond the interval, weighed by the time each reading stands for: a
  // large departure is seen soon, a small one once it has lasted (a CUSUM in time, not in counts).
  const side = (z.at(-1) ?? 0) >= 0 ? 1 : -1;
  let area = 0;
  let stretch = 0;
  for (let i = z.length - 1; i >= 0 && (z[i] as number) * side > 1; i -= 1) {
    const gap = i > 0 ? (recent[i] as Reading).ts - (recent[i - 1] as Reading).ts : cadence / 2;
    area += ((z[i] as number) * side - 1) * (Math.min(gap, 2 * cadence) / HOUR);
    stretch += 1;
  }
  let beyond = stretch >= 2 && area >= DEPARTURE_AREA && (z.at(-1) ?? 0) * side > 1.5;
  // A departure the unit has already made at this hour and come back from (a scheduled defrost, the
  // morning delivery) is its habit, not a failure, until it outlasts an hour.
  const last = readings.at(-1) as Reading;
  if (beyond) {
    const since = (recent[recent.length - stretch] as Reading).ts;
    if (last.ts - since < HOUR && (last.value - sameHourExtreme(readings, last.ts, side)) * side <= 0) beyond = false;
  }
  // A departure slow enough for the model to have followed it: beyond the usual range for longer
  // than anything this week was.
  const record = departure ? 0 : recordDirection(readings, usual, cadence);
  const outlasting = beyond || departure || record !== 0 ? 0 : outlastingDirection(readings, usual, cadence);
  if (!beyond && !departure && outlasting === 0 && record === 0) return habits;
  // A defrost warms the unit on purpose: followed once the detectors say it runs long, or once the
  // warm stretch outlasts the unit's usual defrost (the median of those detected this week) by a
  // reporting step (a door left ajar during a defrost, read every 15 min, looks like one until then),
  // or once it is clearly warmer than the unit's week has been.
  if (options.defrosting && !departure) {
    const edge = usualEdge(usual, 1);
    let since = last.ts;
    for (let i = readings.length - 1; i >= 0 && (readings[i] as Reading).value > edge; i -= 1) since = (readings[i] as Reading).ts;
    // Clearly warmer than anything the week before it held, it is no defrost of this unit's.
    let warmest = -Infinity;
    for (const reading of readings) if (reading.ts < since - HOUR) warmest = Math.max(warmest, reading.value);
    const warmer = last.value > warmest + Math.max(0.6, 0.2 * (usual.q90 - usual.q10));
    if (
      !warmer &&
      last.ts - since <= (options.usualDefrostMs ?? HOUR) + cadence &&
      !outgrowsPastExcursions(readings, edge, since, 1, cadence)
    )
      return habits;
  }
  // Beyond the interval: the departure began at the last reading within it, and goes the way the
  // readings went. When only the detectors say so: the window's readings, the way their trend goes.
  const trend = () =>
    theilSen(
      recent.map((reading) => reading.ts / HOUR),
      recent.map((reading) => reading.value),
    ).slope >= 0
      ? 1
      : -1;
  const direction: 1 | -1 = beyond ? side : record !== 0 ? record : outlasting !== 0 ? outlasting : trend();
  // The detectors alone are heard only once the readings have left the unit's usual range.
  if (!beyond && ((readings.at(-1) as Reading).value - usualEdge(usual, direction)) * direction <= 0) return habits;
  if (habitSince !== null) return habits;
  const onset = beyond ? readings.length - stretch - 1 : readings.length - recent.length;
  const points = readings.slice(Math.max(0, onset)).map((reading) => ({ hours: (reading.ts - start) / HOUR, value: reading.value }));
  const fit = fitRelaxation(points, direction, { ambient: cold ? SHOP_AIR : null, noise: jitterOf(readings.slice(0, Math.max(1, onset))) });
  // A departure worth following: moving away at least 0,3 unit an hour.
  if (!fit || Math.abs(fit.recent.slopePerHour) < MIN_DEPARTURE_SLOPE) return habits;
  const forecast = seasonal.map((point, index) => {
    const physical = relaxationAt(fit, (index * STEP_MS + STEP_MS / 2) / HOUR);
    return { ts: point.ts, value: physical.value, low: Math.min(physical.low, point.low), high: Math.max(physical.high, point.high) };
  });
  const basis = { readings: readings.length - Math.max(0, onset), since: (readings[Math.max(0, onset)] as Reading).ts };
  return { forecast, model: fit.kind, explanation: explainForecast(fit, unit, cold), basis, unavailable: null };
}

/** The furthest value in `direction` the unit reached around this time of day (± 20 min) on each of the previous seven days. */
export function sameHourExtreme(readings: readonly Reading[], at: number, direction: 1 | -1): number {
  let extreme = direction > 0 ? -Infinity : Infinity;
  let i = readings.length - 1;
  for (let day = 1; day <= 7; day += 1) {
    const from = at - day * 86_400_000 - SAME_HOUR_MS;
    const to = at - day * 86_400_000 + SAME_HOUR_MS;
    while (i >= 0 && (readings[i] as Reading).ts > to) i -= 1;
    for (let j = i; j >= 0 && (readings[j] as Reading).ts >= from; j -= 1) {
      const value = (readings[j] as Reading).value;
      extreme = direction > 0 ? Math.max(extreme, value) : Math.min(extreme, value);
    }
  }
  return extreme;
}

/** The forecast alone (see `outlookFrom`). */
export function forecastFrom(
  readings: readonly Reading[],
  start: number,
  departure: boolean,
  options: { cold?: boolean; unit?: string } = {},
): Insights['forecast'] {
  return outlookFrom(readings, start, departure, options).forecast;
}

/**
 * The bucket the detectors read this measure at. A cold unit at the sensor's own reporting interval,
 * a minute at finest and fifteen at coarsest: a sensor that reports every ten minutes read a minute at a
 * time would be nine gaps in ten, and its same-phase profile would hold almost nothing. A door at a
 * minute (it reports its changes), anything else at five.
 */
export function detectorStepOf(profile: SignalProfile, readings: readonly Reading[]): number {
  if (profile === 'generic') return STEP_MS;
  if (profile === 'door') return MINUTE;
  const cadence = cadenceOf(readings);
  return Math.min(MAX_COLD_STEP_MS, Math.max(MINUTE, Math.floor(cadence / MINUTE) * MINUTE));
}

/** The predictive analysis (docs/api.md, Analyse prédictive) of one sensor's measure: pure computation, run in a worker thread. */
export function computeInsights(input: InsightsInput): InsightsResult {
  const { key, now, rules } = input;
  const readings = fromColumns(input.readings);
  // The forecast starts at the bucket in progress. The seasonal model learns from the buckets before
  // it. A sensor that reports every five minutes or less often is judged on every reading up to now:
  // the one in the bucket in progress may be the one that tells (sent a minute ago, the one before
  // it ten or fifteen minutes older); a faster one, on the buckets before it, a few minutes old at
  // most, where a gust of warm air just read does not yet weigh.
  const start = Math.floor(now / STEP_MS) * STEP_MS;
  const sparse = cadenceOf(readings) >= STEP_MS;
  const history = readings.filter((reading) => (sparse ? reading.ts <= now : reading.ts < start));

  // Anomalies and defrosts: the week replayed through the detectors, a minute per bucket for cold units and doors.
  const profile = profileOf(key, readings);
  const detectorStep = detectorStepOf(profile, readings);
  const detectorStart = Math.floor((now - HISTORY_MS) / detectorStep) * detectorStep;
  const detected = detectAnomalies(resample(readings, detectorStep, detectorStart, now), detectorStart, { stepMs: detectorStep, profile });
  // A door is open or shut: its state has no forecast, its anomalies say what matters.
  const outlook =
    profile === 'door'
      ? null
      : outlookFrom(history, start, departing(detected.anomalies, now), {
          cold: profile === 'cold',
          unit: UNITS.get(key) ?? '',
          defrosting: detected.defrosting,
          usualDefrostMs: medianOf(detected.defrosts.map((defrost) => defrost.to - defrost.from)),
        });
  const forecast = outlook?.forecast ?? [];
  const anomalies: Anomaly[] = detected.anomalies.map((anomaly) => ({
    from: iso(anomaly.from),
    to: iso(anomaly.to),
    score: Math.round(anomaly.score * 100) / 100,
    kind: anomaly.kind,
    explanation: anomaly.explanation,
  }));

  const found: Excursion[] = [];
  const seen = new Set<string>();
  for (const limit of limitsOf(rules, key, false)) {
    const id = `${limit.direction}${limit.threshold}`;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const excursion of excursions(readings, { threshold: limit.threshold, direction: limit.direction })) {
      found.push({
        ruleId: limit.ruleId,
        threshold: limit.threshold,
        from: iso(excursion.from),
        to: excursion.to === null ? null : iso(excursion.to),
        peak: excursion.peak,
        degreeHours: Math.round(excursion.degreeHours * 1000) / 1000,
      });
    }
  }
  found.sort((a, b) => Date.parse(a.from) - Date.parse(b.from));

  const breach = predictBreach(rules, key, forecast);
  const insights: Insights = {
    key,
    computedAt: iso(now),
    forecast,
    forecastModel:
      outlook && forecast.length > 0
        ? {
            kind: outlook.model,
            explanation: outlook.explanation,
            basis: outlook.basis ? { readings: outlook.basis.readings, since: iso(outlook.basis.since) } : null,
          }
        : null,
    forecastUnavailable: outlook?.unavailable ?? null,
    breach,
    anomalies,
    battery: batteryOutlook(fromColumns(input.battery), now),
    defrosts: detected.defrosts.map((defrost) => ({ from: iso(defrost.from), to: iso(defrost.to) })),
    excursions: found,
  };
  return { insights, urgency: urgencyOf(breach, anomalies, now) };
}
