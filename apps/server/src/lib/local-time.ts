/**
 * Calendar arithmetic on a site's wall clock, for every module that reads or writes a shop's local
 * time (reports, exports, tasks, rotas, the journal): where its days and months begin, daylight
 * saving included (a day of 23 or 25 hours, a month of 743 or 745).
 */

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** The fields of an instant on the wall clocks of `timeZone`, 24-hour; one formatter per zone (they are slow to make). */
export function wallClockFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = offsetFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    offsetFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock date and time of `instant` in `timeZone`. */
export function wallClock(instant: number, timeZone: string) {
  const values: Record<string, number> = {};
  for (const part of wallClockFormatter(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') values[part.type] = Number(part.value);
  }
  return {
    year: values.year ?? 1970,
    month: values.month ?? 1,
    day: values.day ?? 1,
    hour: values.hour ?? 0,
    minute: values.minute ?? 0,
    second: values.second ?? 0,
  };
}

/** How far `timeZone`'s wall clock is ahead of UTC at `instant`, in milliseconds. */
export function offsetAt(instant: number, timeZone: string): number {
  const clock = wallClock(instant, timeZone);
  const asUtc = Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The instant the wall clock of `timeZone` shows 00:00 on that date (months and days may overflow, as in Date.UTC). */
export function startOfLocalDay(year: number, month: number, day: number, timeZone: string): number {
  const guess = Date.UTC(year, month - 1, day);
  let instant = guess - offsetAt(guess, timeZone);
  // The offset at the answer may differ from the one at the guess when a change falls between.
  instant = guess - offsetAt(instant, timeZone);
  return instant;
}

/** `YYYY-MM-DD` of `instant` on the wall clock of `timeZone`. */
export function localDate(instant: number, timeZone: string): string {
  const clock = wallClock(instant, timeZone);
  return `${clock.year}-${String(clock.month).padStart(2, '0')}-${String(clock.day).padStart(2, '0')}`;
}

/** `YYYY-MM` of `instant` on the wall clock of `timeZone`. */
export function localMonth(instant: number, timeZone: string): string {
  return localDate(instant, timeZone).slice(0, 7);
}

/** The month before `YYYY-MM`. */
export function previousMonth(month: string): string {
  const [year = 1970, number = 1] = month.split('-').map(Number);
  return number === 1 ? `${year - 1}-12` : `${year}-${String(number - 1).padStart(2, '0')}`;
}

export interface LocalDay {
  date: string;
  from: number;
  to: number;
}

/** The month's bounds on the site's clock, and each of its days. */
export function monthOf(month: string, timeZone: string): { from: number; to: number; days: LocalDay[] } {
  const [year = 1970, number = 1] = month.split('-').map(Number);
  const days: LocalDay[] = [];
  const length = new Date(Date.UTC(year, number, 0)).getUTCDate();
  for (let day = 1; day <= length; day++) {
    days.push({
      date: `${month}-${String(day).padStart(2, '0')}`,
      from: startOfLocalDay(year, number, day, timeZone),
      to: startOfLocalDay(year, number, day + 1, timeZone),
    });
  }
  return { from: startOfLocalDay(year, number, 1, timeZone), to: startOfLocalDay(year, number + 1, 1, timeZone), days };
}
