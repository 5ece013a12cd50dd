import { minutesOfDay, type OpeningHours, type RuleSchedule, WEEKDAYS, type Weekday } from '@vigie/contract';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

const WEEKDAY_OF: Record<string, Weekday> = { Mon: 'mon', Tue: 'tue', Wed: 'wed', Thu: 'thu', Fri: 'fri', Sat: 'sat', Sun: 'sun' };

/** The weekday and minutes since midnight on the wall clock of `timeZone` at `instant` (daylight saving included). */
export function localTime(instant: Date, timeZone: string): { weekday: Weekday; minutes: number } {
  let weekday: Weekday = 'mon';
  let hours = 0;
  let minutes = 0;
  for (const part of formatterFor(timeZone).formatToParts(instant)) {
    if (part.type === 'weekday') weekday = WEEKDAY_OF[part.value] ?? 'mon';
    else if (part.type === 'hour') hours = Number(part.value);
    else if (part.type === 'minute') minutes = Number(part.value);
  }
  return { weekday, minutes: hours * 60 + minutes };
}

function previousDay(day: Weekday): Weekday {
  return WEEKDAYS[(WEEKDAYS.indexOf(day) + WEEKDAYS.length - 1) % WEEKDAYS.length] ?? 'sun';
}

/**
 * Whether a site is open at `instant`, read on its own wall clock. A window whose end is earlier
 * than its start runs past midnight: `["22:00", "06:00"]` on Friday covers Saturday until 06:00.
 */
export function isOpenAt(instant: Date, timeZone: string, openingHours: OpeningHours): boolean {
  const { weekday, minutes } = localTime(instant, timeZone);
  for (const [start, end] of openingHours[weekday]) {
    const from = minutesOfDay(start);
    const to = minutesOfDay(end);
    if (to > from ? minutes >= from && minutes < to : minutes >= from) return true;
  }
  for (const [start, end] of openingHours[previousDay(weekday)]) {
    const from = minutesOfDay(start);
    const to = minutesOfDay(end);
    if (to < from && minutes < to) return true;
  }
  return false;
}

/** Whether a rule with this schedule watches at `instant`. */
export function scheduleActiveAt(schedule: RuleSchedule, instant: Date, site: { timezone: string; openingHours: OpeningHours }): boolean {
  if (schedule === 'always') return true;
  const open = isOpenAt(instant, site.timezone, site.openingHours);
  return schedule === 'opening_hours' ? open : !open;
}
