import type { AlertPush, RuleCondition, Severity } from '@vigie/contract';
import { clockText, formatDateAt } from '@vigie/contract/clock';
import type { NotificationReason } from './notification-plan.ts';

/** What an alert message says beyond the alert itself. */
export interface AlertContext {
  sensorName: string;
  siteName: string | null;
  timezone: string;
  ruleName: string | null;
  condition: RuleCondition | null;
  /** Only for a « dépassement prévu »: the limit the forecast crosses, and when (null when not known). */
  forecast?: { threshold: number; eta: Date | null } | null;
  /** Only for a « dépassement prévu »: the sensor's latest reading of the measure, the value the message shows. */
  reading?: { value: number; at: Date } | null;
  /**
   * Only for a task of the food-safety plan or a timed process (then `sensorName` is its name): what
   * went wrong (« Tâche manquée ») and the alert's first line, which says how.
   */
  plan?: { what: string; detail: string } | null;
}

export interface MessageAlert {
  id: string;
  severity: Severity;
  /** The measure watched (null when offline); absent in older callers. */
  key?: string | null;
  openedAt: Date;
  resolvedAt: Date | null;
  peak: number | null;
  last: number | null;
}

/** A map: a measure named like an object's own property (`constructor`) has no unit, not a function. */
const UNITS: ReadonlyMap<string, string> = new Map([
  ['temperature', '°C'],
  ['humidity', '%'],
  ['battery', '%'],
  ['co2', 'ppm'],
]);
const NBSP = '\u00a0';
/** The narrow no-break space before « : » and inside « », as on the screens. */
const NNBSP = '\u202f';
const quoted = (text: string) => `«${NNBSP}${text}${NNBSP}»`;

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
  const unit = key ? UNITS.get(key) : undefined;
  return unit ? `${number}${NBSP}${unit}` : number;
}

/** A limit as rules are read: signed, without needless decimals (`+8 °C`, `−18 °C`, `+3,5 °C`). */
export function formatThreshold(key: string | null, value: number): string {
  const number = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format(value).replace('-', '−');
  const unit = key ? UNITS.get(key) : undefined;
  return unit ? `${number}${NBSP}${unit}` : number;
}

const clockFormats = new Map<string, Intl.DateTimeFormat>();

/** The hour, minute and calendar day of an instant in a zone. */
function clockParts(at: Date, timeZone: string): { day: string; hour: number; minute: number } {
  let format = clockFormats.get(timeZone);
  if (!format) {
    const options: Intl.DateTimeFormatOptions = {
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      hourCycle: 'h23',
    };
    try {
      format = new Intl.DateTimeFormat('fr-FR', { ...options, timeZone });
    } catch {
      format = new Intl.DateTimeFormat('fr-FR', { ...options, timeZone: 'Europe/Paris' });
    }
    clockFormats.set(timeZone, format);
  }
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(at)) parts[part.type] = part.value;
  return { day: `${parts['year']}-${parts['month']}-${parts['day']}`, hour: Number(parts['hour']), minute: Number(parts['minute']) };
}

/** `14 h 10`, `9 h`, in the site's zone, as a shop's clock reads (the web app's form, U+202F). */
export function formatClock(at: Date, timeZone: string): string {
  const { hour, minute } = clockParts(at, timeZone);
  return clockText(hour, minute);
}

/** `vers 14 h 10`, `demain vers 0 h 40`, `le 12/03 vers 9 h` (the forecast is no timetable). */
function formatAround(at: Date, now: Date, timeZone: string): string {
  const day = clockParts(at, timeZone).day;
  const today = clockParts(now, timeZone).day;
  const tomorrow = clockParts(new Date(now.getTime() + 86_400_000), timeZone).day;
  const when =
    day === today
      ? ''
      : day === tomorrow
        ? 'demain '
        : `le ${new Intl.DateTimeFormat('fr-FR', { timeZone, day: '2-digit', month: '2-digit' }).format(at)} `;
  return `${when}vers ${formatClock(at, timeZone)}`;
}

/**
 * What a « dépassement prévu » announces, labelled as a forecast: `prévu : +8 °C vers 14 h 10`;
 * `prévu : +8 °C dans les 120 min` when the time is not known.
 */
export function forecastText(
  key: string | null,
  forecast: { threshold: number; eta: Date | null },
  options: { now: Date; timeZone: string; withinMinutes?: number | undefined },
): string {
  const limit = formatThreshold(key, forecast.threshold);
  const when = forecast.eta
    ? ` ${formatAround(forecast.eta, options.now, options.timeZone)}`
    : options.withinMinutes
      ? ` dans les ${options.withinMinutes}${NBSP}min`
      : '';
  return `prévu${NNBSP}: ${limit}${when}`;
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

/** `12 min`, `2 h 05`, `3 j 4 h`; `moins d’une minute` under one. */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return 'moins d’une minute';
  const minutes = Math.round(ms / 60_000);
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

/**
 * How a message names an alert, as a person would say it: « Alerte critique », « Avertissement »
 * when it opens; « Rappel (alerte critique) », « Escalade (avertissement) » after.
 */
export function alertTitle(severity: Severity, reason: NotificationReason): string {
  if (reason === 'opened') return severity === 'critical' ? 'Alerte critique' : 'Avertissement';
  if (reason === 'resolved') return SUBJECT_PREFIX.resolved;
  return `${SUBJECT_PREFIX[reason]} (${severity === 'critical' ? 'alerte critique' : 'avertissement'})`;
}

/** `Depuis : 12 min (ouverte le 05/01/2026 à 11 h)`, `Durée : moins d’une minute (…)`. */
function sinceLine(alert: MessageAlert, end: Date, resolved: boolean, timeZone: string): string {
  return `${resolved ? 'Durée' : 'Depuis'}${NNBSP}: ${formatDuration(end.getTime() - alert.openedAt.getTime())} (ouverte le ${formatDateAt(alert.openedAt, timeZone, 'short')})`;
}

/**
 * The e-mail of a « dépassement prévu »: the reading is the value, the forecast is labelled as one,
 * never given as what the sensor measured.
 */
function predictedEmail(
  alert: MessageAlert,
  context: AlertContext,
  reason: NotificationReason,
  options: { now: Date; publicUrl: string },
): { subject: string; text: string } {
  const condition =
    context.condition?.type === 'predicted_above' || context.condition?.type === 'predicted_below' ? context.condition : null;
  const key = alert.key ?? keyOf(context.condition);
  const threshold = context.forecast?.threshold ?? condition?.threshold ?? null;
  const title = alertTitle(alert.severity, reason);
  const where = context.siteName ? ` (${context.siteName})` : '';
  const end = alert.resolvedAt ?? options.now;
  const resolved = reason === 'resolved';
  const measured = context.reading ? formatMeasure(key, context.reading.value) : null;
  const forecast =
    threshold === null
      ? 'prévu'
      : forecastText(
          key,
          { threshold, eta: resolved ? null : (context.forecast?.eta ?? null) },
          { now: options.now, timeZone: context.timezone, withinMinutes: resolved ? undefined : condition?.withinMinutes },
        );
  const highest = condition?.type === 'predicted_below' ? 'au plus bas' : 'au plus haut';
  // The reading first, as in every alert; the forecast after it, labelled « prévu ».
  const subject = resolved
    ? `[Vigie] ${title} – ${context.sensorName}${NNBSP}: plus de dépassement prévu${measured ? `, ${measured} mesurés` : ''}`
    : `[Vigie] ${title} – ${context.sensorName}${measured ? `${NNBSP}: ${measured} mesurés${NNBSP};` : ', dépassement'} ${forecast}`;
  const lines = [
    resolved
      ? `L’alerte de dépassement prévu sur ${quoted(context.sensorName)}${where} est terminée${NNBSP}: la prévision ne l’annonce plus.`
      : `${title} sur ${quoted(context.sensorName)}${where}${NNBSP}: un dépassement est prévu, il n’a pas été mesuré.`,
    '',
    `Mesuré${NNBSP}: ${measured ? `${measured}${context.reading ? ` à ${formatClock(context.reading.at, context.timezone)}` : ''}` : 'aucune mesure connue'}`,
    resolved
      ? `Prévision${NNBSP}: plus de dépassement${threshold === null ? '' : ` de ${formatThreshold(key, threshold)}`} annoncé`
      : `P${forecast.slice(1)} (une prévision, pas une mesure)`,
    ...(alert.peak !== null ? [`Prévision ${highest} pendant l’alerte${NNBSP}: ${formatMeasure(key, alert.peak)}`] : []),
    `Limite${NNBSP}: ${describeLimit(context.condition)}${context.ruleName ? ` — règle ${quoted(context.ruleName)}` : ''}`,
    sinceLine(alert, end, resolved, context.timezone),
    `Site${NNBSP}: ${context.siteName ?? 'non renseigné'}`,
    '',
    resolved
      ? `Consulter la chronologie et les actions correctives${NNBSP}: ${options.publicUrl}/dashboard/alertes/${alert.id}`
      : `Voir l’alerte, l’acquitter et noter l’action corrective${NNBSP}: ${options.publicUrl}/dashboard/alertes/${alert.id}`,
    '',
    '— Vigie',
  ];
  return { subject, text: lines.join('\n') };
}

/** The e-mail of a task missed or answered out of its limits, or of a failed process: what, where, since when, and a link. */
function planEmail(
  alert: MessageAlert,
  context: AlertContext,
  plan: { what: string; detail: string },
  reason: NotificationReason,
  options: { now: Date; publicUrl: string },
): { subject: string; text: string } {
  const title = alertTitle(alert.severity, reason);
  const where = context.siteName ? ` (${context.siteName})` : '';
  const end = alert.resolvedAt ?? options.now;
  const subject =
    reason === 'resolved'
      ? `[Vigie] ${title} – ${context.sensorName}${NNBSP}: alerte close`
      : `[Vigie] ${title} – ${context.sensorName}${NNBSP}: ${plan.what.toLocaleLowerCase('fr')}`;
  const lines = [
    reason === 'resolved'
      ? `L’alerte sur ${quoted(context.sensorName)}${where} est close.`
      : `${title} sur ${quoted(context.sensorName)}${where}.`,
    '',
    `${plan.what}${NNBSP}: ${plan.detail}`,
    sinceLine(alert, end, reason === 'resolved', context.timezone),
    `Site${NNBSP}: ${context.siteName ?? 'non renseigné'}`,
    '',
    reason === 'resolved'
      ? `Consulter la chronologie et les actions correctives${NNBSP}: ${options.publicUrl}/dashboard/alertes/${alert.id}`
      : `Voir l’alerte, l’acquitter et noter l’action corrective${NNBSP}: ${options.publicUrl}/dashboard/alertes/${alert.id}`,
    '',
    '— Vigie',
  ];
  return { subject, text: lines.join('\n') };
}

/** The French e-mail of an alert notification: the value, the limit, the duration, the site and a link. */
export function alertEmail(
  alert: MessageAlert,
  context: AlertContext,
  reason: NotificationReason,
  options: { now: Date; publicUrl: string },
): { subject: string; text: string } {
  if (context.plan) return planEmail(alert, context, context.plan, reason, options);
  if (context.forecast || context.condition?.type === 'predicted_above' || context.condition?.type === 'predicted_below') {
    return predictedEmail(alert, context, reason, options);
  }
  const key = keyOf(context.condition);
  const offline = context.condition?.type === 'offline';
  const title = alertTitle(alert.severity, reason);
  const value = offline ? 'aucun signal' : alert.last === null ? 'inconnue' : formatMeasure(key, alert.last);
  const where = context.siteName ? ` (${context.siteName})` : '';
  const end = alert.resolvedAt ?? options.now;
  const subject =
    reason === 'resolved'
      ? `[Vigie] ${title} – ${context.sensorName}${NNBSP}: retour à ${value}`
      : `[Vigie] ${title} – ${context.sensorName}${NNBSP}: ${offline ? 'hors ligne' : value} (limite ${describeLimit(context.condition)})`;
  const lines = [
    reason === 'resolved'
      ? `L’alerte sur ${quoted(context.sensorName)}${where} est terminée.`
      : `${title} sur ${quoted(context.sensorName)}${where}.`,
    '',
    offline
      ? `État${NNBSP}: hors ligne, aucun signal reçu`
      : `Valeur${NNBSP}: ${value}${alert.peak !== null && !offline ? ` (pic ${formatMeasure(key, alert.peak)})` : ''}`,
    `Limite${NNBSP}: ${describeLimit(context.condition)}${context.ruleName ? ` — règle ${quoted(context.ruleName)}` : ''}`,
    sinceLine(alert, end, reason === 'resolved', context.timezone),
    `Site${NNBSP}: ${context.siteName ?? 'non renseigné'}`,
    '',
    reason === 'resolved'
      ? `Consulter la chronologie et les actions correctives${NNBSP}: ${options.publicUrl}/dashboard/alertes/${alert.id}`
      : `Voir l’alerte, l’acquitter et noter l’action corrective${NNBSP}: ${options.publicUrl}/dashboard/alertes/${alert.id}`,
    '',
    '— Vigie',
  ];
  return { subject, text: lines.join('\n') };
}

/**
 * The push of an alert notification: the e-mail's subject as its title, and in its body the
 * sensor, its site and the value (a forecast labelled as one); it opens the alert's page.
 */
export function alertPush(
  alert: MessageAlert,
  context: AlertContext,
  reason: NotificationReason,
  options: { now: Date; publicUrl: string },
): AlertPush {
  const { subject, text } = alertEmail(alert, context, reason, options);
  const [headline = '', , detail = ''] = text.split('\n');
  return {
    title: subject.replace(/^\[Vigie\] /, ''),
    body: `${headline} ${detail}`.trim(),
    url: `${options.publicUrl}/dashboard/alertes/${alert.id}`,
    alertId: alert.id,
    tag: `alerte-${alert.id}`,
  };
}

/** Words a French text-to-speech reads well: signs and units spelled out, no quotes. */
export function spoken(text: string): string {
  return text
    .replace(/[−-](?=\d)/g, 'moins ')
    .replace(/\+(?=\d)/g, 'plus ')
    .replace(/\s?°C/g, ' degrés')
    .replace(/\s?%/g, ' pour cent')
    .replace(/\s?ppm/g, ' p p m')
    .replace(/[«»"]/g, '')
    .replace(/\u00a0|\u202f/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
}

/**
 * The SMS and the spoken message of the on-call ladder: the alert's headline (sensor, site), its
 * value (a forecast labelled as one), and for the SMS the alert's page.
 */
export function alertPhone(
  alert: MessageAlert,
  context: AlertContext,
  options: { now: Date; publicUrl: string },
): { sms: string; call: string } {
  const { text } = alertEmail(alert, context, 'opened', options);
  const [headline = '', , detail = '', second = ''] = text.split('\n');
  // A forecast's message says what was measured, then what is forecast: both belong in the call.
  const value = context.forecast ? `${detail} ${second}` : detail;
  return {
    sms: `Vigie – ${headline} ${value} ${options.publicUrl}/dashboard/alertes/${alert.id}`.replace(/ {2,}/g, ' '),
    call: spoken(`Alerte Vigie. ${headline} ${value}`),
  };
}
