import type { Alert, AlertEventType, ProductFate, RuleCondition, RuleSchedule, Severity } from '@vigie/contract';
import { PRODUCT_FATE_LABELS } from '@vigie/contract/values';
import { formatMeasure, formatNumber, measureDigits, measureLabel, measureUnit } from '@/lib/measure-format';
import { quantityOf } from '@/lib/quantity-format';

export const STATUS_LABELS: Record<Alert['status'], string> = { open: 'À traiter', acknowledged: 'Acquittée', resolved: 'Résolue' };
export const SEVERITY_LABELS: Record<Severity, string> = { critical: 'Critique', warning: 'Avertissement' };
export const SCHEDULE_LABELS: Record<RuleSchedule, string> = {
  always: 'En permanence',
  opening_hours: 'Heures d’ouverture du site',
  closed_hours: 'Hors des heures d’ouverture',
};
export const EVENT_LABELS: Record<AlertEventType, string> = {
  opened: 'Alerte ouverte',
  acknowledged: 'Acquittée',
  action: 'Action corrective',
  notified: 'Notification envoyée',
  escalated: 'Escalade',
  resolved: 'Résolue',
  paused: 'Mise en pause',
  called: 'Astreinte',
};

const NNBSP = '\u202F';

/** A limit with its sign and unit: « +4,0 °C », « −18,0 °C ». */
export function formatLimit(key: string, value: number): string {
  const number = formatNumber(value, measureDigits(key), true);
  const signed = value > 0 ? `+${number}` : number;
  const unit = measureUnit(key);
  return unit ? `${signed}${NNBSP}${unit}` : signed;
}

/** What became of the products of an action: « Produits détruits : 12 kg de Yaourts nature ». */
export function fateText(fate: ProductFate): string {
  return `Produits ${PRODUCT_FATE_LABELS[fate.outcome].toLowerCase()}${NNBSP}: ${quantityOf(fate.quantity, fate.product)}`;
}

/** The measure a condition watches (`battery` for the battery level, none when offline). */
export function conditionKey(condition: RuleCondition): string | null {
  if (condition.type === 'offline') return null;
  if (condition.type === 'battery_below') return 'battery';
  return condition.key;
}

/** What stays within limits, in words: « Température ≤ +4,0 °C », « Signal reçu dans le délai ». */
export function describeCondition(condition: RuleCondition): string {
  switch (condition.type) {
    case 'above':
      return `${measureLabel(condition.key)} ≤ ${formatLimit(condition.key, condition.threshold)}`;
    case 'below':
      return `${measureLabel(condition.key)} ≥ ${formatLimit(condition.key, condition.threshold)}`;
    case 'outside':
      return `${measureLabel(condition.key)} entre ${formatLimit(condition.key, condition.min)} et ${formatLimit(condition.key, condition.max)}`;
    case 'battery_below':
      return `Batterie ≥ ${formatMeasure('battery', condition.threshold)}`;
    case 'offline':
      return 'Un signal avant la fin du délai d’inactivité';
    case 'predicted_above':
      return `Prévision${NNBSP}: ${measureLabel(condition.key)} ≤ ${formatLimit(condition.key, condition.threshold)} sur ${condition.withinMinutes}${NNBSP}min`;
    case 'predicted_below':
      return `Prévision${NNBSP}: ${measureLabel(condition.key)} ≥ ${formatLimit(condition.key, condition.threshold)} sur ${condition.withinMinutes}${NNBSP}min`;
  }
}

/** The limits a chart draws for a condition. */
export function conditionLimits(condition: RuleCondition): number[] {
  if (
    condition.type === 'above' ||
    condition.type === 'below' ||
    condition.type === 'predicted_above' ||
    condition.type === 'predicted_below'
  )
    return [condition.threshold];
  if (condition.type === 'outside') return [condition.min, condition.max];
  return [];
}

export { formatDuration } from '@/lib/duration-format';

/** When a rule alerts once out of limits: « aussitôt », « après 5 min », « après 45 s ». */
export function delayText(seconds: number): string {
  if (seconds === 0) return 'aussitôt';
  return seconds % 60 === 0 ? `après ${seconds / 60}${NNBSP}min` : `après ${seconds}${NNBSP}s`;
}

/** « 1 magasin », « 2 magasins », « 0 magasin ». */
export function shopCount(count: number): string {
  return `${formatNumber(count, 0)} magasin${count > 1 ? 's' : ''}`;
}

/** « 2 alertes en cours », « 1 alerte en cours ». */
export function alertCount(count: number, what = 'en cours'): string {
  return `${formatNumber(count, 0)} alerte${count > 1 ? 's' : ''} ${what}`;
}

/**
 * The banner's count, forecasts named as such: « 2 alertes en cours, dont 1 dépassement prévu »,
 * « 1 alerte en cours : dépassement prévu » when none was measured.
 */
export function activeAlertsText(count: number, predicted: number): string {
  if (predicted <= 0) return alertCount(count);
  const plural = predicted > 1 ? 's' : '';
  if (predicted >= count) return `${alertCount(count)}${NNBSP}: dépassement${plural} prévu${plural}`;
  return `${alertCount(count)}, dont ${formatNumber(predicted, 0)} dépassement${plural} prévu${plural}`;
}
