import { clockText } from '@vigie/contract/clock';
import { formatDuration } from '@vigie/contract/duration';
import type { Report } from '@vigie/contract';
import { formatNumber } from '@/lib/measure-format';

/** French typography: a narrow no-break space before %, units and between thousands. */
const NNBSP = '\u202F';
/** What a figure shows when there is none. */
export const NONE = '—';

const monthFormat = new Intl.DateTimeFormat('fr-FR', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** « novembre 2026 » for `2026-11`; the text itself when it is not a month. */
export function formatReportMonth(month: string): string {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  if (!match) return month;
  // Mid-month at noon UTC: no time zone can move it to a neighbouring month.
  return monthFormat.format(Date.UTC(Number(match[1]), Number(match[2]) - 1, 15, 12));
}

/** « 99,2 % », rounded down (a unit out of its limits for a moment never reads « 100,0 % »); « — » without limits. */
export function formatCompliance(percent: number | null): string {
  if (percent === null) return NONE;
  const truncated = Math.floor(percent * 10 + 1e-9) / 10;
  return `${formatNumber(truncated, 1, true)}${NNBSP}%`;
}

/** « 0 min », « 40 s », « 45 min », « 2 h », « 2 h 05 min », « 3 j 4 h ». */
export const formatSeconds = (seconds: number): string => formatDuration(seconds);

/** « 1 excursion », « 10 000 excursions »; French singular for 0 and 1. */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${formatNumber(count, 0)} ${count < 2 ? singular : plural}`;
}

/** « 2 non signés », « 1 non signé ». */
export function unsignedLabel(count: number): string {
  return countOf(count, 'non signé', 'non signés');
}

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

function dateTimeFormat(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let format = dateTimeFormats.get(key);
  if (!format) {
    const options: Intl.DateTimeFormatOptions = {
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    };
    try {
      format = new Intl.DateTimeFormat('fr-FR', { ...options, timeZone });
    } catch {
      // An unknown zone name: the browser's own clock rather than nothing.
      format = new Intl.DateTimeFormat('fr-FR', options);
    }
    dateTimeFormats.set(key, format);
  }
  return format;
}

/** `{date: « 02/11/2026 », time: « 14 h 05 »}` on the site's clock. */
export function siteDateTime(iso: string, timeZone?: string): { date: string; time: string } {
  const parts: Record<string, string> = {};
  for (const part of dateTimeFormat(timeZone).formatToParts(new Date(iso))) parts[part.type] = part.value;
  return {
    date: `${parts['day']}/${parts['month']}/${parts['year']}`,
    time: clockText(Number(parts['hour']) % 24, Number(parts['minute'])),
  };
}

/** « 02/11/2026 à 14 h 05 » on the site's clock. */
export function formatSiteDateTime(iso: string, timeZone?: string): string {
  const { date, time } = siteDateTime(iso, timeZone);
  return `${date} à ${time}`;
}

/** « le 02/11/2026 à 14 h 05 ». */
export function onDateAt(iso: string, timeZone?: string): string {
  const { date, time } = siteDateTime(iso, timeZone);
  return `le ${date} à ${time}`;
}

/** A temperature limit with its sign: « +4,0 °C », « −18,0 °C ». */
function formatLimit(value: number): string {
  const number = formatNumber(value, 1, true);
  return `${value > 0 ? '+' : ''}${number}${NNBSP}°C`;
}

/** « ≤ +4,0 °C », « ≥ −18,0 °C », « +2,0 °C à +8,0 °C », or « Aucune limite ». */
export function formatLimits(min: number | null, max: number | null): string {
  if (min !== null && max !== null) return `${formatLimit(min)} à ${formatLimit(max)}`;
  if (max !== null) return `≤ ${formatLimit(max)}`;
  if (min !== null) return `≥ ${formatLimit(min)}`;
  return 'Aucune limite';
}

/** « 3f2a1b0c…9d8e7f6a »: enough to compare with the PDF's footer by eye. */
export function shortHash(sha256: string): string {
  return sha256.length > 20 ? `${sha256.slice(0, 8)}…${sha256.slice(-8)}` : sha256;
}

/** The month `YYYY-MM` of `now` on a clock (the browser's when no zone is given). */
export function currentMonth(now: Date = new Date(), timeZone?: string): string {
  let year = now.getFullYear();
  let month = now.getMonth() + 1;
  if (timeZone) {
    try {
      const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit' }).formatToParts(now);
      year = Number(parts.find((part) => part.type === 'year')?.value ?? year);
      month = Number(parts.find((part) => part.type === 'month')?.value ?? month);
    } catch {
      // Unknown zone: the browser's clock.
    }
  }
  return `${year}-${String(month).padStart(2, '0')}`;
}

/**
 * The month `YYYY-MM` and the `finished` months before it, newest first: `2026-11`, `2026-10`, …
 * Empty when `month` is not a month.
 */
export function recentMonths(month: string, finished = 12): string[] {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  if (!match) return [];
  const index = Number(match[1]) * 12 + Number(match[2]) - 1;
  return Array.from({ length: finished + 1 }, (_, back) => {
    const each = index - back;
    return `${Math.floor(each / 12)}-${String((each % 12) + 1).padStart(2, '0')}`;
  });
}

/** All the reports of one site and month: the newest first, older versions after it. */
export type ReportGroup = { key: string; siteId: string; month: string; versions: Report[] };

/**
 * The list per site and month: the latest months first, then by site name; within a month, every
 * version made (the history of what was signed stays visible), newest first.
 */
export function groupReports(reports: Report[], siteName: (siteId: string) => string): ReportGroup[] {
  const groups = new Map<string, ReportGroup>();
  for (const report of reports) {
    const key = `${report.siteId}|${report.month}`;
    const group = groups.get(key) ?? { key, siteId: report.siteId, month: report.month, versions: [] };
    group.versions.push(report);
    groups.set(key, group);
  }
  const byNewest = (a: Report, b: Report) => Date.parse(b.createdAt) - Date.parse(a.createdAt);
  return [...groups.values()]
    .map((group) => ({ ...group, versions: group.versions.sort(byNewest) }))
    .sort((a, b) => b.month.localeCompare(a.month) || siteName(a.siteId).localeCompare(siteName(b.siteId), 'fr'));
}

/**
 * Reports waiting for a signature: the latest version of each site and month that nobody signed.
 * An older version replaced by a newer one is not counted (nobody is expected to sign it any more).
 */
export function awaitingSignature(reports: Report[]): number {
  const latest = new Map<string, Report>();
  for (const report of reports) {
    const key = `${report.siteId}|${report.month}`;
    const known = latest.get(key);
    if (!known || Date.parse(report.createdAt) > Date.parse(known.createdAt)) latest.set(key, report);
  }
  return [...latest.values()].filter((report) => !report.signedAt).length;
}
