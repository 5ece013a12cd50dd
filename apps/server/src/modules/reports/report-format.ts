import { formatDuration as formatFrenchDuration } from '@vigie/contract/duration';
import type { ReportExcursion } from './report-content.ts';
import { startOfLocalDay } from '../../lib/local-time.ts';

/** French typography: U+202F (narrow no-break space) groups thousands and precedes %, U+00A0 precedes units. */
export const NNBSP = '\u202f';
export const NBSP = '\u00a0';
/** The real minus sign, U+2212: the hyphen-minus is a typewriter stand-in. */
export const MINUS = '\u2212';
/** What a table shows where there is no value. */
export const NONE = '—';

const numberFormats = new Map<number, Intl.NumberFormat>();

function numberFormat(digits: number): Intl.NumberFormat {
  let format = numberFormats.get(digits);
  if (!format) {
    format = new Intl.NumberFormat('fr-FR', { minimumFractionDigits: digits, maximumFractionDigits: digits });
    numberFormats.set(digits, format);
  }
  return format;
}

/** « 1 234,5 », « −18,0 »: decimal comma, U+202F between thousands, U+2212 for negatives, never « −0,0 ». */
export function formatNumber(value: number, digits = 1): string {
  const text = numberFormat(digits).format(value);
  // Intl groups with U+202F in fr-FR but some ICU builds use U+00A0: normalize to U+202F.
  const grouped = text.replace(/[\u00a0\u0020]/g, NNBSP);
  if (/^-0(,0*)?$/.test(grouped)) return grouped.slice(1);
  return grouped.replace('-', MINUS);
}

/** « −18,0 °C », or « +4,0 °C » with `signed` (limits are read with their sign); « — » for null. */
export function formatTemperature(value: number | null, options: { signed?: boolean } = {}): string {
  if (value === null) return NONE;
  const text = formatNumber(value, 1);
  const sign = options.signed && !text.startsWith(MINUS) && text !== '0,0' ? '+' : '';
  return `${sign}${text}${NBSP}°C`;
}

/** « ≤ +4,0 °C », « ≥ −18,0 °C », « −25,0 °C à −18,0 °C » or « Aucune limite définie ». */
export function formatLimits(min: number | null, max: number | null): string {
  if (min !== null && max !== null) return `${formatTemperature(min, { signed: true })} à ${formatTemperature(max, { signed: true })}`;
  if (max !== null) return `≤${NBSP}${formatTemperature(max, { signed: true })}`;
  if (min !== null) return `≥${NBSP}${formatTemperature(min, { signed: true })}`;
  return 'Aucune limite définie';
}

/**
 * « 99,2 % », rounded DOWN to one decimal: a unit that was out of limits for a moment must not read
 * « 100,0 % ». « — » for null (no limits, no compliance figure).
 */
export function formatCompliance(percent: number | null): string {
  if (percent === null) return NONE;
  return `${formatNumber(truncateCompliance(percent), 1)}${NNBSP}%`;
}

/** The compliance figure as shown: one decimal, rounded down. */
export function truncateCompliance(percent: number): number {
  return Math.floor(percent * 10 + 1e-9) / 10;
}

/** « 40 s », « 45 min », « 2 h 05 min », « 3 j 4 h »; « 0 min » for nothing. */
export function formatDuration(seconds: number): string {
  return formatFrenchDuration(seconds, NBSP);
}

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

function dateTimeFormat(timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${timeZone}|${JSON.stringify(options)}`;
  let format = dateTimeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('fr-FR', { timeZone, ...options });
    dateTimeFormats.set(key, format);
  }
  return format;
}

function parts(instant: string | Date, timeZone: string, options: Intl.DateTimeFormatOptions): Record<string, string> {
  const date = typeof instant === 'string' ? new Date(instant) : instant;
  const result: Record<string, string> = {};
  for (const part of dateTimeFormat(timeZone, options).formatToParts(date)) result[part.type] = part.value;
  return result;
}

const DATE_TIME: Intl.DateTimeFormatOptions = {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
};

/** « 02/11/2026 14:05 » on the site's clock. */
export function formatDateTime(instant: string, timeZone: string): string {
  const p = parts(instant, timeZone, DATE_TIME);
  return `${p['day']}/${p['month']}/${p['year']} ${p['hour']}:${p['minute']}`;
}

/** « 02/11/2026 » on the site's clock. */
export function formatDate(instant: string, timeZone: string): string {
  return formatDateTime(instant, timeZone).slice(0, 10);
}

/** « lun. 02/11 » for a calendar day `YYYY-MM-DD`. */
export function formatDayLabel(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  const noon = new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, date ?? 1, 12));
  const weekday = dateTimeFormat('UTC', { weekday: 'short' }).format(noon);
  return `${weekday} ${day.slice(8, 10)}/${day.slice(5, 7)}`;
}

/** « 02/11/2026 » for a calendar day `YYYY-MM-DD`. */
export function formatDay(day: string): string {
  return `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;
}

/** « Novembre 2026 » for `YYYY-MM`. */
export function formatMonth(month: string): string {
  const [year, monthNumber] = month.split('-').map(Number);
  const text = dateTimeFormat('UTC', { month: 'long', year: 'numeric' }).format(
    new Date(Date.UTC(year ?? 1970, (monthNumber ?? 1) - 1, 15)),
  );
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The instant (epoch ms) at which the calendar day `YYYY-MM-DD` starts on the zone's clock. */
export function startOfDay(day: string, timeZone: string): number {
  const [year = 1970, month = 1, date = 1] = day.split('-').map(Number);
  return startOfLocalDay(year, month, date, timeZone);
}

export function directionLabel(direction: ReportExcursion['direction']): string {
  return direction === 'above' ? 'Au-dessus' : 'En dessous';
}

export function severityLabel(alert: ReportExcursion['alert']): string {
  if (!alert) return 'Sans alerte';
  return alert.severity === 'critical' ? 'Critique' : 'Avertissement';
}

/** How the excursion's alert ended, or where it stands when the report was made. */
export function resolutionLabel(alert: ReportExcursion['alert'], timeZone: string): string {
  if (!alert) return 'Aucune alerte levée';
  if (alert.status === 'open') return 'Ouverte';
  if (alert.status === 'acknowledged' || !alert.resolvedAt) return 'Acquittée, non résolue';
  const how = alert.resolution === 'manual' ? 'Clôturée manuellement' : 'Retour dans les limites';
  return `${how} le ${formatDateTime(alert.resolvedAt, timeZone)}`;
}

/** « Système » for what no person recorded. */
export function actorLabel(name: string | null): string {
  return name ?? 'Système';
}

/** Parts of a line, each ended by a full stop unless it ends with punctuation already. */
export function sentences(parts: readonly (string | null | undefined)[]): string {
  return parts
    .filter((part): part is string => Boolean(part))
    .map((part, index, all) => (index < all.length - 1 && !/[.!?…]$/.test(part) ? `${part}.` : part))
    .join(' ');
}
