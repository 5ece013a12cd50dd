/** French dates and times as a shop's clock reads them, in the site's zone: « 16 h 10 », « demain », « 1er avril ». */

import { clockText } from '@vigie/contract/clock';

const NBSP = '\u00A0';

export type Parts = { year: number; month: number; day: number; hour: number; minute: number };
const partFormats = new Map<string, Intl.DateTimeFormat>();
const monthFormats = new Map<string, Intl.DateTimeFormat>();

function cached(map: Map<string, Intl.DateTimeFormat>, timeZone: string | undefined, options: Intl.DateTimeFormatOptions) {
  const key = timeZone ?? '';
  let format = map.get(key);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('fr-FR', { ...options, timeZone });
    } catch {
      // An unknown zone name: the browser's own zone rather than no text at all.
      format = new Intl.DateTimeFormat('fr-FR', options);
    }
    map.set(key, format);
  }
  return format;
}

export function partsOf(ms: number, timeZone: string | undefined): Parts {
  const format = cached(partFormats, timeZone, {
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    hourCycle: 'h23',
  });
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(new Date(ms))) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return {
    year: parts['year'] ?? 0,
    month: parts['month'] ?? 1,
    day: parts['day'] ?? 1,
    hour: parts['hour'] ?? 0,
    minute: parts['minute'] ?? 0,
  };
}

/** Days since the epoch of the calendar day `ms` falls on in `timeZone`. */
export function dayNumber(ms: number, timeZone: string | undefined): number {
  const { year, month, day } = partsOf(ms, timeZone);
  return Date.UTC(year, month - 1, day) / 86_400_000;
}

/** « 16 h 10 », « 9 h », in the site's zone: the one form the app and the server's messages share. */
export function formatClock(ms: number, timeZone?: string): string {
  const { hour, minute } = partsOf(ms, timeZone);
  return clockText(hour, minute);
}

/** « 1er avril », « 12 mars 2027 » (the year when asked). */
export function formatDay(ms: number, timeZone?: string, withYear = false): string {
  const { year, day } = partsOf(ms, timeZone);
  const month = cached(monthFormats, timeZone, { month: 'long' }).format(new Date(ms));
  return `${day === 1 ? '1er' : day}${NBSP}${month}${withYear ? ` ${year}` : ''}`;
}

/** « aujourd’hui », « hier », « demain », or « le 12 mars » (with the year when it is not this one). */
export function formatRelativeDay(ms: number, now: number, timeZone?: string): string {
  const offset = dayNumber(ms, timeZone) - dayNumber(now, timeZone);
  if (offset === 0) return 'aujourd’hui';
  if (offset === -1) return 'hier';
  if (offset === 1) return 'demain';
  return `le ${formatDay(ms, timeZone, partsOf(ms, timeZone).year !== partsOf(now, timeZone).year)}`;
}

/** « 14 h 30 », or « demain 14 h 30 » when it is not today on the shop's clock: the end of something lasting a day at most (a pause). */
export function formatUntil(ms: number, timeZone?: string, now = Date.now()): string {
  const day = (at: number) => new Intl.DateTimeFormat('fr-FR', { timeZone, day: 'numeric', month: 'numeric' }).format(at);
  return `${day(ms) === day(now) ? '' : 'demain '}${formatClock(ms, timeZone)}`;
}
