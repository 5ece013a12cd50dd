import type { Pause, Rule, RuleCondition } from '@vigie/contract';
import { ruleWatches } from '@vigie/contract/values';
import { useAllRules } from '@/features/alerts/api/rules';
import { pauseOf as pauseOfSensor, usePauses } from '@/features/alerts/api/pause-queries';
import { limitWords } from '@/features/alerts/alert-curve-data';
import { conditionKey, conditionLimits } from '@/features/alerts/alert-format';
import type { Device } from '@/features/devices/device-kinds';
import { formatUntil } from '@/lib/clock-format';

/** What a card says of a sensor's limit: « ≤ +4,0 °C » on its measure, and the lines its curve draws. */
export type CardLimit = { key: string; words: string; limits: number[] };

const WATCHED = new Set<RuleCondition['type']>(['above', 'below', 'outside']);

/**
 * The limit a sensor is held to: its own enabled rule on a measured value first, then one of its
 * shop's on a measure it reports (a template's only on the units it aims at, by name). Forecast, offline and battery rules are not a limit of the value.
 */
export function limitOfSensor(rules: readonly Rule[], device: Pick<Device, 'id' | 'siteId' | 'latest' | 'name'>): CardLimit | null {
  const keys = Object.keys(device.latest ?? {});
  const measured = rules.filter((rule) => rule.enabled && WATCHED.has(rule.condition.type));
  const watched = { id: device.id, siteId: device.siteId ?? null, name: device.name };
  const rule =
    measured.find((candidate) => candidate.sensorId === device.id) ??
    measured.find(
      (candidate) => !candidate.sensorId && ruleWatches(candidate, watched) && keys.includes(conditionKey(candidate.condition) ?? ''),
    );
  const key = rule ? conditionKey(rule.condition) : null;
  const words = rule ? limitWords(rule.condition) : null;
  return rule && key && words ? { key, words, limits: conditionLimits(rule.condition) } : null;
}

/** « En pause jusqu’à 14 h 30 » (the sensor's own pause or its shop's), on the shop's clock. */
export function pauseLabel(
  pauses: readonly Pause[],
  device: Pick<Device, 'id' | 'siteId'>,
  timeZone?: string,
  now = Date.now(),
): string | null {
  const pause = pauseOfSensor(pauses, { id: device.id, siteId: device.siteId ?? null });
  if (!pause) return null;
  return `${pause.sensorId ? 'En pause' : 'Magasin en pause'} jusqu’à ${formatUntil(Date.parse(pause.until), timeZone, now)}`;
}

/** The dashboard's cards: each sensor's limit and pause, from the rules and pauses the person sees. */
export function useCardAnnotations(timeZoneOf: (siteId: string) => string | undefined) {
  const rules = useAllRules();
  const pauses = usePauses();
  return {
    limitOf: (device: Device) => limitOfSensor(rules.data ?? [], device),
    pauseOf: (device: Device) => pauseLabel(pauses.data ?? [], device, device.siteId ? timeZoneOf(device.siteId) : undefined),
  };
}
