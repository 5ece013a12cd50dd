/**
 * French times as a shop's clock reads them, one form for the web app and the server's messages,
 * without zod so that the web app can import it alone (`@vigie/contract/clock`): « 21 h 32 », « 9 h »,
 * « 01/12/2026 à 21 h 32 », « 1 déc. 2026 à 21 h 32 », « 1 décembre 2026 à 21 h 32 ». The spaces
 * are narrow no-break spaces (U+202F).
 */

const NNBSP = '\u202f';

const formats = new Map<string, Intl.DateTimeFormat>();

function format(timeZone: string | undefined, style: 'parts' | DateStyle): Intl.DateTimeFormat {
  const key = `${style}|${timeZone ?? ''}`;
  let cached = formats.get(key);
  if (!cached) {
    const options: Intl.DateTimeFormatOptions =
      style === 'parts'
        ? { hour: 'numeric', minute: 'numeric', hourCycle: 'h23' }
        : style === 'short'
          ? { day: '2-digit', month: '2-digit', year: 'numeric' }
          : { day: 'numeric', month: style === 'medium' ? 'short' : 'long', year: 'numeric' };
    try {
      cached = new Intl.DateTimeFormat('fr-FR', { ...options, timeZone });
    } catch {
      // An unknown zone name: the machine's own clock rather than no text at all.
      cached = new Intl.DateTimeFormat('fr-FR', options);
    }
    formats.set(key, cached);
  }
  return cached;
}

export type DateStyle = 'short' | 'medium' | 'long';

const toDate = (at: Date | number | string) => (at instanceof Date ? at : new Date(at));

/** « 21 h 32 », « 9 h » from an hour and a minute. */
export function clockText(hour: number, minute: number): string {
  return minute === 0 ? `${hour}${NNBSP}h` : `${hour}${NNBSP}h${NNBSP}${String(minute).padStart(2, '0')}`;
}

/** « 21 h 32 », « 9 h », in `timeZone` (the machine's zone without one). */
export function formatClock(at: Date | number | string, timeZone?: string): string {
  const parts: Record<string, string> = {};
  for (const part of format(timeZone, 'parts').formatToParts(toDate(at))) parts[part.type] = part.value;
  return clockText(Number(parts['hour'] ?? 0) % 24, Number(parts['minute'] ?? 0));
}

/** « 20 h », « 7 h 30 » for a wall-clock time written `HH:MM` (an on-call slot, opening hours). */
export function formatHhmm(value: string): string {
  const [hours, minutes] = value.split(':').map(Number);
  if (hours === undefined || minutes === undefined || Number.isNaN(hours) || Number.isNaN(minutes)) return value;
  return clockText(hours, minutes);
}

/** The date alone: « 01/12/2026 » (short), « 1 déc. 2026 » (medium), « 1 décembre 2026 » (long). */
export function formatDate(at: Date | number | string, timeZone?: string, style: DateStyle = 'long'): string {
  const text = format(timeZone, style).format(toDate(at));
  return style === 'short' ? text : text.replace(/^1 /, '1er ');
}

/** « 01/12/2026 à 21 h 32 », « 1 déc. 2026 à 21 h 32 », « 1er décembre 2026 à 21 h 32 ». */
export function formatDateAt(at: Date | number | string, timeZone?: string, style: DateStyle = 'long'): string {
  return `${formatDate(at, timeZone, style)} à ${formatClock(at, timeZone)}`;
}
