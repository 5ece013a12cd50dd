import type { Insights, PredictedBreach, Rule } from '@vigie/contract';
import { candidatePeriods, fillShortGaps, fitHoltWinters, forecastHoltWinters, resample, type Reading } from './forecast.ts';

const STEP_MS = 5 * 60_000;
/** History the forecast learns from: a week holds several daily cycles and hundreds of compressor cycles. */
const HISTORY_MS = 7 * 86_400_000;
/** How far ahead: four hours, time enough to move the stock. */
const HORIZON_STEPS = 48;
const BATTERY_HISTORY_MS = 30 * 86_400_000;
/** The level at which a battery is taken as spent. */
const BATTERY_EMPTY = 5;
const CACHE_MS = 60_000;
const STALE_MS = 3600_000;

/** What the insights read of other modules, through their services. */
export interface InsightsSources {
  /** Throws the 404 of the devices module when the sensor is not this organization's. */
  sensor: (organizationId: string, sensorId: string) => Promise<{ id: string; siteId: string }>;
  rulesOf: (organizationId: string, sensorId: string, siteId: string) => Promise<Rule[]>;
  series: (sensorId: string, key: string, from: Date, to: Date) => Promise<Reading[]>;
  now: () => Date;
}

/** The first step where the forecast passes a limit of an enabled rule on this key, if any. */
export function predictBreach(rules: Rule[], key: string, forecast: Insights['forecast']): PredictedBreach | null {
  let best: PredictedBreach | null = null;
  for (const rule of rules) {
    const condition = rule.condition;
    if (!rule.enabled || !('key' in condition) || condition.key !== key) continue;
    const limits: { threshold: number; crossed: (value: number) => boolean }[] = [];
    if (condition.type === 'above') limits.push({ threshold: condition.threshold, crossed: (v) => v > condition.threshold });
    if (condition.type === 'below') limits.push({ threshold: condition.threshold, crossed: (v) => v < condition.threshold });
    if (condition.type === 'outside') {
      limits.push({ threshold: condition.max, crossed: (v) => v > condition.max });
      limits.push({ threshold: condition.min, crossed: (v) => v < condition.min });
    }
    for (const limit of limits) {
      const point = forecast.find((candidate) => limit.crossed(candidate.value));
      if (point && (!best || Date.parse(point.ts) < Date.parse(best.eta)))
        best = { ruleId: rule.id, threshold: limit.threshold, eta: point.ts };
    }
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
 * PRODUCT §11: a sensor's forecast, predicted breach and battery outlook, computed on request (never
 * on the ingestion path) and kept a minute. Anomaly detection is not built yet: its list is empty.
 */
export function createInsightsService(deps: InsightsSources) {
  const cache = new Map<string, { at: number; insights: Insights }>();

  async function compute(organizationId: string, sensorId: string, siteId: string, key: string, now: number): Promise<Insights> {
    // The forecast starts at the bucket in progress; the history ends where it begins.
    const start = Math.floor(now / STEP_MS) * STEP_MS;
    const readings = await deps.series(sensorId, key, new Date(start - HISTORY_MS), new Date(start));
    const series = fillShortGaps(resample(readings, STEP_MS, start - HISTORY_MS, start));
    // A sensor silent for the last hour has no present to forecast from.
    const fresh = (readings.at(-1)?.ts ?? -Infinity) >= start - STALE_MS;
    const model = fresh ? fitHoltWinters(series, { periods: candidatePeriods(series, STEP_MS), horizon: 24 }) : null;
    const forecast = model
      ? forecastHoltWinters(model, HORIZON_STEPS).map((point, index) => ({
          ts: new Date(start + index * STEP_MS).toISOString(),
          ...point,
        }))
      : [];
    const rules = await deps.rulesOf(organizationId, sensorId, siteId);
    const levels = await deps.series(sensorId, 'battery', new Date(now - BATTERY_HISTORY_MS), new Date(now));
    return {
      key,
      computedAt: new Date(now).toISOString(),
      forecast,
      breach: predictBreach(rules, key, forecast),
      anomalies: [],
      battery: batteryOutlook(levels, now),
      defrosts: [],
      excursions: [],
    };
  }

  return {
    async get(organizationId: string, sensorId: string, key: string): Promise<Insights> {
      const sensor = await deps.sensor(organizationId, sensorId);
      const now = deps.now().getTime();
      const cacheKey = `${sensor.id}|${key}`;
      const cached = cache.get(cacheKey);
      if (cached && now - cached.at < CACHE_MS && now >= cached.at) return cached.insights;
      const insights = await compute(organizationId, sensor.id, sensor.siteId, key, now);
      cache.set(cacheKey, { at: now, insights });
      // A bounded cache: the oldest entries go first.
      if (cache.size > 10_000) cache.delete(cache.keys().next().value ?? '');
      return insights;
    },
  };
}

export type InsightsService = ReturnType<typeof createInsightsService>;
