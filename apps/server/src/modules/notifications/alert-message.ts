import type { RuleCondition, Severity } from '@vigie/contract';
import type { NotificationReason } from './notification-plan.ts';

/** What an alert message says beyond the alert itself. */
export interface AlertContext {
  sensorName: string;
  siteName: string | null;
  timezone: string;
  ruleName: string | null;
  condition: RuleCondition | null;
}

export interface MessageAlert {
  id: string;
  severity: Severity;
  openedAt: Date;
  resolvedAt: Date | null;
  peak: number | null;
  last: number | null;
}

const UNITS: Record<string, string> = { temperature: '°C', humidity: '%', battery: '%', co2: 'ppm' };
const NBSP = '\u00a0';

/** A value as a French reader writes it: `7,9 °C`, `−18 °C` (minus sign), `1 200 ppm`. */
export function formatMeasure(key: string | null, value: number, signed = false): string {
  // Temperatures always show their tenth, as the cards do: « 9,0 °C », « +4,0 °C ».
  const tenths = key === 'temperature' ? 1 : 0;
  const number = new Intl.NumberFormat('fr-FR', {
    minimumFractionDigits: tenths,
    maximumFractionDigits: 1,
    signDisplay: signed ? 'exceptZero' : 'auto',
  })
    .format(value)
    .replace('-', '−');
  const unit = key ? UNITS[key] : undefined;
  return unit ? `${number}${NBSP}${unit}` : number;
}

function keyOf(condition: RuleCondition | null): string | null {
  if (!condition) return null;
  if (condition.type === 'battery_below') return 'battery';
  return 'key' in condition ? condition.key : null;
}

/** The limit in words: `≤ +4 °C`, `entre 2 °C et 8 °C`, `silence de plus que le délai d’inactivité`. */
export function describeLimit(condition: RuleCondition | null): string {
  if (!condition) return 'règle supprimée';
  const key = keyOf(condition);
  switch (condition.type) {
    case 'above':
      return `≤${NBSP}${formatMeasure(key, condition.threshold, true)}`;
    case 'below':
      return `≥${NBSP}${formatMeasure(key, condition.threshold, true)}`;
    case 'outside':
      return `entre ${formatMeasure(key, condition.min)} et ${formatMeasure(key, condition.max)}`;
    case 'battery_below':
      return `batterie ≥${NBSP}${formatMeasure('battery', condition.threshold)}`;
    case 'offline':
      return 'un signal avant la fin du délai d’inactivité';
    case 'predicted_above':
      return `≤${NBSP}${formatMeasure(key, condition.threshold, true)} dans les ${condition.withinMinutes}${NBSP}min à venir (prévision)`;
    case 'predicted_below':
      return `≥${NBSP}${formatMeasure(key, condition.threshold, true)} dans les ${condition.withinMinutes}${NBSP}min à venir (prévision)`;
  }
}

/** `12 min`, `2 h 05`, `3 j 4 h`. */
export function formatDuration(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  if (minutes < 60) return `${minutes}${NBSP}min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours}${NBSP}h` : `${hours}${NBSP}h${NBSP}${String(minutes % 60).padStart(2, '0')}`;
  return `${Math.floor(hours / 24)}${NBSP}j${NBSP}${hours % 24}${NBSP}h`;
}

const SUBJECT_PREFIX: Record<NotificationReason, string> = {
  opened: 'Alerte',
  escalated: 'Escalade',
  repeat: 'Rappel',
  reminder: 'Toujours active',
  resolved: 'Fin d’alerte',
};

/** The French e-mail of an alert notification: the value, the limit, the duration, the site and a link. */
export function alertEmail(
  alert: MessageAlert,
  context: AlertContext,
  reason: NotificationReason,
  options: { now: Date; publicUrl: string },
): { subject: string; text: string } {
  const key = keyOf(context.condition);
  const offline = context.condition?.type === 'offline';
  const severity = alert.severity === 'critical' ? 'critique' : 'avertissement';
  const value = offline ? 'aucun signal' : alert.last === null ? 'inconnue' : formatMeasure(key, alert.last);
  const where = context.siteName ? ` (${context.siteName})` : '';
  const local = new Intl.DateTimeFormat('fr-FR', { timeZone: context.timezone, dateStyle: 'short', timeStyle: 'short' });
  const end = alert.resolvedAt ?? options.now;
  const subject =
    reason === 'resolved'
      ? `[Vigie] ${SUBJECT_PREFIX[reason]} – ${context.sensorName} : retour à ${value}`
      : `[Vigie] ${SUBJECT_PREFIX[reason]} ${severity} – ${context.sensorName} : ${offline ? 'hors ligne' : value} (limite ${describeLimit(context.condition)})`;
  const lines = [
    reason === 'resolved'
      ? `L’alerte sur « ${context.sensorName} »${where} est terminée.`
      : `${reason === 'opened' ? 'Alerte' : SUBJECT_PREFIX[reason]} ${severity} sur « ${context.sensorName} »${where}.`,
    '',
    offline
      ? `État : hors ligne, aucun signal reçu`
      : `Valeur : ${value}${alert.peak !== null && !offline ? ` (pic ${formatMeasure(key, alert.peak)})` : ''}`,
    `Limite : ${describeLimit(context.condition)}${context.ruleName ? ` — règle « ${context.ruleName} »` : ''}`,
    `${reason === 'resolved' ? 'Durée' : 'Depuis'} : ${formatDuration(end.getTime() - alert.openedAt.getTime())} (ouverte le ${local.format(alert.openedAt)})`,
    `Site : ${context.siteName ?? 'non renseigné'}`,
    '',
    reason === 'resolved'
      ? `Consulter la chronologie et les actions correctives : ${options.publicUrl}/dashboard/alertes/${alert.id}`
      : `Voir l’alerte, l’acquitter et noter l’action corrective : ${options.publicUrl}/dashboard/alertes/${alert.id}`,
    '',
    '— Vigie',
  ];
  return { subject, text: lines.join('\n') };
}
