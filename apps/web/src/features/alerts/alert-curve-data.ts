import type { Alert, ReadingBucket, RuleCondition } from '@vigie/contract';
import { dayNumber, formatClock, formatDay } from '@/lib/clock-format';
import { formatMeasure } from '@/lib/measure-format';
import { conditionLimits, formatLimit } from './alert-format';
import { isPredicted } from './components/alert-value';

const NNBSP = '\u202F';

/** Which way an alert went out of its limit: its peak is then its highest value, or its lowest. */
export type PeakDirection = 'above' | 'below';

/**
 * The way out of the limit, from the rule's condition; for a range, the side the peak is on.
 * Without the rule (deleted, not loaded yet), the peak against the latest value; null when unknown.
 */
export function peakDirection(alert: Pick<Alert, 'peak' | 'last'>, condition: RuleCondition | null | undefined): PeakDirection | null {
  switch (condition?.type) {
    case 'above':
    case 'predicted_above':
      return 'above';
    case 'below':
    case 'predicted_below':
    case 'battery_below':
      return 'below';
    case 'outside':
      if (alert.peak === null) return null;
      return alert.peak > condition.max ? 'above' : alert.peak < condition.min ? 'below' : null;
    default:
      if (alert.peak === null || alert.last === null || alert.peak === alert.last) return null;
      return alert.peak > alert.last ? 'above' : 'below';
  }
}

/** The name of an alert's worst value: « Au plus haut », « Au plus bas », « Pic » when the way is unknown. */
export function peakLabel(direction: PeakDirection | null): string {
  return direction === 'above' ? 'Au plus haut' : direction === 'below' ? 'Au plus bas' : 'Pic';
}

/** A value as limits are written, signed (« +11,3 °C », « −18,0 °C »); the battery as a plain percentage. */
export function signedValue(key: string, value: number): string {
  return key === 'battery' ? formatMeasure(key, value) : formatLimit(key, value);
}

/** A limit in words, without the measure: « ≤ +8,0 °C », « ≥ −18,0 °C », « entre +2,0 °C et +8,0 °C »; null offline. */
export function limitWords(condition: RuleCondition): string | null {
  switch (condition.type) {
    case 'above':
    case 'predicted_above':
      return `≤ ${formatLimit(condition.key, condition.threshold)}`;
    case 'below':
    case 'predicted_below':
      return `≥ ${formatLimit(condition.key, condition.threshold)}`;
    case 'outside':
      return `entre ${formatLimit(condition.key, condition.min)} et ${formatLimit(condition.key, condition.max)}`;
    case 'battery_below':
      return `≥ ${formatMeasure('battery', condition.threshold)}`;
    case 'offline':
      return null;
  }
}

/** The limits the curve draws: the rule's, the battery's threshold included. */
export function curveLimits(condition: RuleCondition): number[] {
  return condition.type === 'battery_below' ? [condition.threshold] : conditionLimits(condition);
}

/**
 * The alert's worst value and where the curve marks it (epoch ms): `ts`, the start of the interval
 * it was read in; `at`, when it was read as near as the intervals tell (their middle, within the alert).
 */
export type CurvePeak = { ts: number; at: number; value: number };

/**
 * The interval of the alert's period whose readings come nearest to its peak (they hold it, as a
 * rule), the first one if several do. None for a « dépassement prévu », whose peak is a forecast,
 * for an offline alert, or without readings in the period.
 */
export function findPeak(
  readings: ReadingBucket[],
  alert: Pick<Alert, 'key' | 'peak' | 'openedAt' | 'resolvedAt' | 'forecast'>,
  bucketMs: number,
  now: number,
): CurvePeak | null {
  const peak = alert.peak;
  if (peak === null || alert.key === null || isPredicted(alert)) return null;
  // An interval that began before the opening may hold its first values.
  const from = Date.parse(alert.openedAt) - bucketMs;
  const to = alert.resolvedAt ? Date.parse(alert.resolvedAt) : now;
  let best: { ts: number; distance: number } | null = null;
  for (const bucket of readings) {
    const ts = Date.parse(bucket.ts);
    if (ts < from || ts > to) continue;
    const distance = peak > bucket.max ? peak - bucket.max : peak < bucket.min ? bucket.min - peak : 0;
    if (!best || distance < best.distance) best = { ts, distance };
  }
  if (!best) return null;
  const at = Math.min(Math.max(best.ts + bucketMs / 2, Date.parse(alert.openedAt)), to);
  return { ts: best.ts, at, value: peak };
}

/**
 * The curve in words, its text alternative: « Courbe de 13 h 10 à 16 h 40 : pic +11,3 °C à 14 h 55,
 * limite ≤ +8,0 °C », in the site's zone; the days when it spans more than one.
 */
export function curveText({
  key,
  from,
  to,
  readings,
  peak,
  direction,
  limit,
  timeZone,
}: {
  key: string;
  from: number;
  to: number;
  readings: ReadingBucket[];
  peak: CurvePeak | null;
  direction: PeakDirection | null;
  limit: string | null;
  timeZone?: string | undefined;
}): string {
  const oneDay = dayNumber(from, timeZone) === dayNumber(to, timeZone);
  const at = (ms: number) => (oneDay ? `à ${formatClock(ms, timeZone)}` : `le ${formatDay(ms, timeZone)} à ${formatClock(ms, timeZone)}`);
  const period = oneDay
    ? `de ${formatClock(from, timeZone)} à ${formatClock(to, timeZone)}`
    : `du ${formatDay(from, timeZone)} à ${formatClock(from, timeZone)} au ${formatDay(to, timeZone)} à ${formatClock(to, timeZone)}`;
  const parts: string[] = [];
  if (peak) {
    parts.push(`${direction === 'below' ? 'au plus bas' : 'pic'} ${signedValue(key, peak.value)} ${at(peak.at)}`);
  } else if (readings.length > 0) {
    const low = Math.min(...readings.map((bucket) => bucket.min));
    const high = Math.max(...readings.map((bucket) => bucket.max));
    parts.push(`mesures de ${signedValue(key, low)} à ${signedValue(key, high)}`);
  } else {
    parts.push('aucune mesure');
  }
  if (limit) parts.push(`limite ${limit}`);
  return `Courbe ${period}${NNBSP}: ${parts.join(', ')}`;
}
