import type { Alert, PredictedAlert, Rule } from '@vigie/contract';
import { isPredicted } from './components/alert-value';

/**
 * Where a measure stands against its limits now, measured and not forecast: its latest value past a
 * limit of an enabled rule (`beyond`), or an alert still running on it (within a delay or a
 * hysteresis, the value may already be back). Null when neither holds.
 */
export type MeasuredBreach = { value: number | null; limit: number | null; beyond: boolean };

/** The limit a value passes, for a rule watching this measure; null when within it. */
function limitPassed(rule: Rule, key: string, value: number): number | null {
  const { condition } = rule;
  if (!rule.enabled || !('key' in condition) || condition.key !== key) return null;
  if (condition.type === 'above' && value > condition.threshold) return condition.threshold;
  if (condition.type === 'below' && value < condition.threshold) return condition.threshold;
  if (condition.type === 'outside') {
    if (value > condition.max) return condition.max;
    if (value < condition.min) return condition.min;
  }
  return null;
}

/** The limit a measured (not forecast) rule sets on this measure, for an alert of it. */
function limitOf(rule: Rule | undefined, value: number | null): number | null {
  const condition = rule?.condition;
  if (!condition) return null;
  if (condition.type === 'above' || condition.type === 'below') return condition.threshold;
  if (condition.type === 'outside') return value !== null && value < condition.min ? condition.min : condition.max;
  return null;
}

export function measuredBreach(rules: Rule[], alerts: Alert[], key: string, value: number | null): MeasuredBreach | null {
  if (value !== null) {
    for (const rule of rules) {
      const limit = limitPassed(rule, key, value);
      if (limit !== null) return { value, limit, beyond: true };
    }
  }
  const running = alerts.find((alert) => alert.status !== 'resolved' && alert.key === key && !isPredicted(alert));
  if (!running) return null;
  return {
    value,
    limit: limitOf(
      rules.find((rule) => rule.id === running.ruleId),
      value,
    ),
    beyond: false,
  };
}

/** What an active « dépassement prévu » alert on this measure forecasts, the soonest first; null when none runs. */
export function activeForecast(alerts: Alert[], key: string): PredictedAlert | null {
  let soonest: PredictedAlert | null = null;
  for (const alert of alerts) {
    if (alert.status === 'resolved' || alert.key !== key || !isPredicted(alert)) continue;
    const eta = alert.forecast.eta === null ? Infinity : Date.parse(alert.forecast.eta);
    const best = soonest?.eta ? Date.parse(soonest.eta) : Infinity;
    if (!soonest || eta < best) soonest = alert.forecast;
  }
  return soonest;
}
