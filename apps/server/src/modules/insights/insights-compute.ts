import type { Anomaly, Excursion, Insights, PredictedBreach, Rule } from '@vigie/contract';
import { detectAnomalies, excursions, theilSen, type SignalProfile } from './anomalies.ts';
import { candidatePeriods, fillShortGaps, fitHoltWinters, forecastHoltWinters, resample, type Reading } from './forecast.ts';

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
/** The departure’s trend is read over the last half hour: a failing unit’s rise steepens. */
const TREND_WINDOW_MS = 30 * 60_000;
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

/** The first step where the forecast passes a limit of an enabled rule on this key, if any. */
export function predictBreach(rules: Rule[], key: string, forecast: Insights['forecast']): PredictedBreach | null {
  let best: PredictedBreach | null = null;
  for (const limit of limitsOf(rules, key, true)) {
    const point = forecast.find((candidate) =>
      limit.direction === 'above' ? candidate.value > limit.threshold : candidate.value < limit.threshold,
    );
    if (point && (!best || Date.parse(point.ts) < Date.parse(best.eta)))
      best = { ruleId: limit.ruleId, threshold: limit.threshold, eta: point.ts };
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

/** True when one of these anomalies says the unit is leaving its normal right now. */
export function departing(anomalies: readonly { kind: Anomaly['kind']; to: number }[], now: number): boolean {
  return anomalies.some((anomaly) => DEPARTURES.has(anomaly.kind) && anomaly.to >= now - DEPARTURE_RECENT_MS);
}

/**
 * The next four hours from `readings` (minute means, before `start`, in time order): Holt-Winters on
 * five-minute buckets, the unit's normal with its cycles. While the unit is leaving its normal
 * (`departure`), a seasonal model would pull it back to its habits; the forecast then also follows
 * the last half hour’s robust trend (Theil–Sen), whichever goes further, with an interval widened by the
 * trend's spread. Empty without a recent reading or with less than half a day of history.
 */
export function forecastFrom(readings: readonly Reading[], start: number, departure: boolean): Insights['forecast'] {
  const first = readings[0]?.ts ?? Infinity;
  const fresh = (readings.at(-1)?.ts ?? -Infinity) >= start - STALE_MS;
  if (!fresh || start - first < MIN_FORECAST_HISTORY_MS) return [];
  const series = fillShortGaps(resample(readings as Reading[], STEP_MS, start - HISTORY_MS, start));
  const model = fitHoltWinters(series, { periods: candidatePeriods(series, STEP_MS), horizon: 24 });
  if (!model) return [];
  const forecast = forecastHoltWinters(model, HORIZON_STEPS).map((point, index) => ({ ts: iso(start + index * STEP_MS), ...point }));
  if (!departure) return forecast;
  const recent = readings.filter((reading) => reading.ts >= start - TREND_WINDOW_MS);
  if (recent.length < 20) return forecast;
  const hours = recent.map((reading) => (reading.ts - start) / 3600_000);
  const { slope, concordance } = theilSen(
    hours,
    recent.map((reading) => reading.value),
  );
  // A trend worth following: steady (most pairs agree) and at least 0,3 unit an hour.
  if (!(concordance >= 0.7 && Math.abs(slope) >= 0.3)) return forecast;
  const residuals = recent.map((reading, index) => reading.value - slope * (hours[index] ?? 0));
  const level = [...residuals].sort((a, b) => a - b)[Math.floor(residuals.length / 2)] ?? 0;
  const spread = Math.max(...residuals.map((r) => Math.abs(r - level)));
  return forecast.map((point, index) => {
    const ahead = (index * STEP_MS + STEP_MS / 2) / 3600_000;
    const trend = level + slope * ahead;
    const further = slope > 0 ? trend > point.value : trend < point.value;
    if (!further) return point;
    const width = spread + Math.abs(slope) * ahead * 0.25;
    return { ...point, value: trend, low: Math.min(point.low, trend - width), high: Math.max(point.high, trend + width) };
  });
}

/** The predictive analysis (docs/api.md, Analyse prédictive) of one sensor's measure: pure computation, run in a worker thread. */
export function computeInsights(input: InsightsInput): InsightsResult {
  const { key, now, rules } = input;
  const readings = fromColumns(input.readings);
  // The forecast starts at the bucket in progress; the history ends where it begins.
  const start = Math.floor(now / STEP_MS) * STEP_MS;
  const history = readings.filter((reading) => reading.ts < start);

  // Anomalies and defrosts: the week replayed through the detectors, a minute per bucket for cold units and doors.
  const profile = profileOf(key, readings);
  const detectorStep = profile === 'generic' ? STEP_MS : 60_000;
  const detectorStart = Math.floor((now - HISTORY_MS) / detectorStep) * detectorStep;
  const detected = detectAnomalies(resample(readings, detectorStep, detectorStart, now), detectorStart, { stepMs: detectorStep, profile });
  // A door is open or shut: its state has no forecast, its anomalies say what matters.
  const forecast = profile === 'door' ? [] : forecastFrom(history, start, departing(detected.anomalies, now));
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
    breach,
    anomalies,
    battery: batteryOutlook(fromColumns(input.battery), now),
    defrosts: detected.defrosts.map((defrost) => ({ from: iso(defrost.from), to: iso(defrost.to) })),
    excursions: found,
  };
  return { insights, urgency: urgencyOf(breach, anomalies, now) };
}
