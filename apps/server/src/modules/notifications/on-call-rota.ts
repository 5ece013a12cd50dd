import { minutesOfDay, type OnCallDay, type OnCallSlot, WEEKDAYS } from '@vigie/contract';
import { wallClock } from '../../lib/local-time.ts';

/** A calendar day, as `YYYY-MM-DD`. */
type Day = string;

const DAY_MS = 86_400_000;

function dayOf(utcMidnight: number): Day {
  return new Date(utcMidnight).toISOString().slice(0, 10);
}

/** Easter Sunday of a Gregorian year (the anonymous algorithm, Meeus/Jones/Butcher), as a UTC midnight. */
export function easterSunday(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return Date.UTC(year, month - 1, day);
}

const holidayCache = new Map<number, Map<Day, string>>();

/**
 * The eleven public holidays of metropolitan France in a year, by day: the fixed ones, and
 * Easter Monday, Ascension and Whit Monday from Easter. (Alsace-Moselle's Good Friday and
 * 26 December are not among them.)
 */
export function frenchHolidays(year: number): Map<Day, string> {
  const known = holidayCache.get(year);
  if (known) return known;
  const easter = easterSunday(year);
  const fixed = (month: number, day: number) => dayOf(Date.UTC(year, month - 1, day));
  const holidays = new Map<Day, string>([
    [fixed(1, 1), 'Jour de l’An'],
    [dayOf(easter + DAY_MS), 'Lundi de Pâques'],
    [fixed(5, 1), 'Fête du Travail'],
    [fixed(5, 8), 'Victoire 1945'],
    [dayOf(easter + 39 * DAY_MS), 'Ascension'],
    [dayOf(easter + 50 * DAY_MS), 'Lundi de Pentecôte'],
    [fixed(7, 14), 'Fête nationale'],
    [fixed(8, 15), 'Assomption'],
    [fixed(11, 1), 'Toussaint'],
    [fixed(11, 11), 'Armistice 1918'],
    [fixed(12, 25), 'Noël'],
  ]);
  holidayCache.set(year, holidays);
  return holidays;
}

/** The name of the French public holiday on this calendar day, or null. */
export function holidayOn(day: Day): string | null {
  return frenchHolidays(Number(day.slice(0, 4))).get(day) ?? null;
}

/** The calendar day and the minutes since midnight of an instant, on the wall clocks of a time zone. */
export function localTime(at: Date, timeZone: string): { day: Day; minutes: number } {
  const clock = wallClock(at.getTime(), timeZone);
  const pad = (value: number, length = 2) => String(value).padStart(length, '0');
  return { day: `${pad(clock.year, 4)}-${pad(clock.month)}-${pad(clock.day)}`, minutes: clock.hour * 60 + clock.minute };
}

function previousDay(day: Day): Day {
  return dayOf(Date.parse(`${day}T00:00:00Z`) - DAY_MS);
}

/** Whether a slot's days include this calendar day: by its weekday, or as a public holiday. */
function covers(days: readonly OnCallDay[], day: Day): boolean {
  const weekday = WEEKDAYS[(new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7];
  return (weekday !== undefined && days.includes(weekday)) || (days.includes('holiday') && holidayOn(day) !== null);
}

/**
 * The slot on call at an instant, read on the site's wall clock: the first of the list that covers
 * it. A slot whose end is before its start runs into the next morning and belongs to the day it
 * started (Friday's night covers Saturday 03:00); equal ends cover the whole day. A slot naming
 * `holiday` covers French public holidays, whatever their weekday.
 */
export function slotAt(
  slots: readonly OnCallSlot[],
  at: Date,
  timeZone: string,
): { index: number; slot: OnCallSlot; holiday: string | null } | null {
  const { day, minutes } = localTime(at, timeZone);
  const yesterday = previousDay(day);
  for (const [index, slot] of slots.entries()) {
    const from = minutesOfDay(slot.from);
    const to = minutesOfDay(slot.to);
    let startedOn: Day | null = null;
    if (from === to) startedOn = covers(slot.days, day) ? day : null;
    else if (from < to) startedOn = minutes >= from && minutes < to && covers(slot.days, day) ? day : null;
    else if (minutes >= from && covers(slot.days, day)) startedOn = day;
    else if (minutes < to && covers(slot.days, yesterday)) startedOn = yesterday;
    if (startedOn) return { index, slot, holiday: holidayOn(startedOn) };
  }
  return null;
}
