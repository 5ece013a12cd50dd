import type { TaskSchedule } from '@vigie/contract';
import { wallClock } from '../../lib/local-time.ts';

const MINUTE = 60_000;
const DAY = 24 * 3600 * 1000;

/** One occurrence of a template in a site: when it falls due, when its window and its grace end. */
export interface Occurrence {
  dueAt: Date;
  windowEndsAt: Date;
  graceEndsAt: Date;
}

/**
 * The instant the wall clock of `timeZone` shows `hour:minute` on that date. In the hour skipped
 * when clocks go forward, the instant an hour later; in the hour repeated when they go back, the first.
 */
export function localInstant(year: number, month: number, day: number, hour: number, minute: number, timeZone: string): number {
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  const offset = (instant: number) => {
    const clock = wallClock(instant, timeZone);
    return Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second) - Math.floor(instant / 1000) * 1000;
  };
  // Offsets are tried from the earlier (the larger) to the later: the first that gives back the wall
  // clock asked for wins, so a repeated hour is read at its first pass.
  const candidates = [...new Set([offset(asUtc - DAY / 2), offset(asUtc), offset(asUtc + DAY / 2)])].sort((a, b) => b - a);
  for (const candidate of candidates) {
    const instant = asUtc - candidate;
    const clock = wallClock(instant, timeZone);
    if (clock.hour === hour && clock.minute === minute && clock.day === new Date(asUtc).getUTCDate()) return instant;
  }
  // A skipped time: the same wall-clock reading taken with the offset before the change.
  return asUtc - Math.min(...candidates);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** ISO weekday (1 Monday … 7 Sunday) of a calendar date. */
function isoWeekday(year: number, month: number, day: number): number {
  const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return weekday === 0 ? 7 : weekday;
}

function occurrence(dueAt: number, schedule: TaskSchedule): Occurrence {
  const windowEndsAt = dueAt + schedule.windowMinutes * MINUTE;
  return {
    dueAt: new Date(dueAt),
    windowEndsAt: new Date(windowEndsAt),
    graceEndsAt: new Date(windowEndsAt + schedule.graceMinutes * MINUTE),
  };
}

/**
 * The occurrences of `schedule` on the wall clock of `timeZone` whose due time falls in
 * [from, to), in order. A monthly day past the month's end (the 31st in April) is its last day.
 */
export function occurrences(schedule: TaskSchedule, timeZone: string, from: number, to: number): Occurrence[] {
  if (to <= from) return [];
  if (schedule.frequency === 'once') {
    const dueAt = schedule.dueAt ? Date.parse(schedule.dueAt) : Number.NaN;
    return dueAt >= from && dueAt < to ? [occurrence(dueAt, schedule)] : [];
  }
  const times = [...new Set(schedule.times ?? [])].sort().map((time) => time.split(':').map(Number) as [number, number]);
  const found: number[] = [];
  // Local days from the one before `from` to the one after `to`: a time zone moves a day's times by up to 14 h.
  const start = wallClock(from - DAY, timeZone);
  let cursor = Date.UTC(start.year, start.month - 1, start.day);
  const last = wallClock(to + DAY, timeZone);
  const end = Date.UTC(last.year, last.month - 1, last.day);
  for (; cursor <= end; cursor += DAY) {
    const date = new Date(cursor);
    const year = date.getUTCFullYear();
    const month = date.getUTCMonth() + 1;
    const day = date.getUTCDate();
    if (schedule.frequency === 'weekly' && !(schedule.weekdays ?? []).includes(isoWeekday(year, month, day))) continue;
    if (schedule.frequency === 'monthly' && day !== Math.min(schedule.dayOfMonth ?? 1, daysInMonth(year, month))) continue;
    for (const [hour, minute] of times) {
      const instant = localInstant(year, month, day, hour, minute, timeZone);
      if (instant >= from && instant < to) found.push(instant);
    }
  }
  return [...new Set(found)].sort((a, b) => a - b).map((dueAt) => occurrence(dueAt, schedule));
}
