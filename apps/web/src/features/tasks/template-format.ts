import type { TaskSchedule, TaskTemplate } from '@vigie/contract';
import { coverageText as coverageOf, type Named } from '@/lib/coverage-text';

/** The plan's templates in French: when they fall due, where, and for how long they stay open. */

const NNBSP = '\u202F';

/** ISO weekdays, 1 (Monday) to 7 (Sunday), as a checkbox names them. */
export const WEEKDAY_LABELS = ['Lundi', 'Mardi', 'Mercredi', 'Jeudi', 'Vendredi', 'Samedi', 'Dimanche'] as const;

const weekdayName = (day: number) => (WEEKDAY_LABELS[day - 1] ?? String(day)).toLowerCase();

/** « 8 h 00 », « 14 h 30 » for a wall-clock time written « HH:MM »; the text itself when it is not one. */
export function timeText(value: string): string {
  const match = /^(\d{1,2}):(\d{2})$/.exec(value);
  if (!match) return value;
  return `${Number(match[1])}${NNBSP}h${NNBSP}${match[2]}`;
}

/** « a », « a et b », « a, b et c ». */
export function listText(parts: readonly string[]): string {
  if (parts.length <= 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} et ${parts[parts.length - 1]}`;
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** « Le lundi et le jeudi », « Du lundi au vendredi », « Tous les jours ». */
function weekdaysText(weekdays: readonly number[]): string {
  const days = [...new Set(weekdays)].sort((a, b) => a - b);
  if (days.length === 7) return 'Tous les jours';
  const first = days[0];
  const last = days[days.length - 1];
  if (first !== undefined && last !== undefined && days.length >= 3 && last - first === days.length - 1)
    return `Du ${weekdayName(first)} au ${weekdayName(last)}`;
  return capitalize(listText(days.map((day) => `le ${weekdayName(day)}`)));
}

/** « Le 1er du mois », « Le 15 du mois », « Le dernier jour du mois » (31: the last day of every month). */
function dayOfMonthText(day: number): string {
  if (day === 1) return 'Le 1er du mois';
  if (day >= 31) return 'Le dernier jour du mois';
  // The server reads a day past the end of a month as its last day (the 30th in February).
  if (day >= 29) return `Le ${day} du mois, ou le dernier jour des mois plus courts,`;
  return `Le ${day} du mois`;
}

const formats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(timeZone: string | undefined, withYear: boolean): Intl.DateTimeFormat {
  const key = `${timeZone ?? ''}|${withYear}`;
  let cached = formats.get(key);
  if (!cached) {
    const options: Intl.DateTimeFormatOptions = {
      day: 'numeric',
      month: 'long',
      ...(withYear ? { year: 'numeric' } : {}),
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    };
    try {
      cached = new Intl.DateTimeFormat('fr-FR', { ...options, timeZone });
    } catch {
      cached = new Intl.DateTimeFormat('fr-FR', options);
    }
    formats.set(key, cached);
  }
  return cached;
}

/** « le 12 décembre à 10 h 00 », with the year when it is not the current one (`now`'s). */
function onceText(dueAt: string, timeZone: string | undefined, now: number): string {
  const at = new Date(dueAt);
  if (Number.isNaN(at.getTime())) return 'Une fois';
  const yearOf = (date: Date) =>
    dateFormat(timeZone, true)
      .formatToParts(date)
      .find((part) => part.type === 'year')?.value;
  const withYear = yearOf(at) !== yearOf(new Date(now));
  const parts: Record<string, string> = {};
  for (const part of dateFormat(timeZone, withYear).formatToParts(at)) parts[part.type] = part.value;
  const day = parts['day'] === '1' ? '1er' : parts['day'];
  const date = [day, parts['month'], parts['year']].filter(Boolean).join(' ');
  return `Une fois, le ${date} à ${timeText(`${parts['hour'] ?? '00'}:${parts['minute'] ?? '00'}`)}`;
}

/**
 * When a template falls due, in French: « Tous les jours à 8 h 00 et 14 h 00 », « Le lundi et le
 * jeudi à 9 h 00 », « Le 1er du mois à 9 h 00 », « Une fois, le 12 décembre à 10 h 00 ». The times
 * are the shops' own clocks; a single date is shown in `timeZone` (the browser's by default).
 */
export function scheduleText(
  schedule: Pick<TaskSchedule, 'frequency' | 'times' | 'weekdays' | 'dayOfMonth' | 'dueAt'>,
  { timeZone, now = Date.now() }: { timeZone?: string; now?: number } = {},
): string {
  if (schedule.frequency === 'once') return schedule.dueAt ? onceText(schedule.dueAt, timeZone, now) : 'Une fois';
  const times = [...new Set(schedule.times ?? [])].sort();
  const at = times.length > 0 ? ` à ${listText(times.map(timeText))}` : '';
  switch (schedule.frequency) {
    case 'daily':
      return `Tous les jours${at}`;
    case 'weekly':
      return `${weekdaysText(schedule.weekdays ?? [])}${at}`;
    case 'monthly':
      return `${dayOfMonthText(schedule.dayOfMonth ?? 1)}${at}`;
  }
}

/** « 45 min », « 1 h », « 1 h 30 », « 24 h ». */
export function minutesText(minutes: number): string {
  if (minutes < 60) return `${minutes}${NNBSP}min`;
  const rest = minutes % 60;
  return `${Math.floor(minutes / 60)}${NNBSP}h${rest ? `${NNBSP}${String(rest).padStart(2, '0')}` : ''}`;
}

/** « À faire dans l’heure (1 h), 30 min de grâce »: how long a task stays open, then late. */
export function timingText(schedule: Pick<TaskSchedule, 'windowMinutes' | 'graceMinutes'>): string {
  const grace = schedule.graceMinutes > 0 ? `, puis ${minutesText(schedule.graceMinutes)} de retard toléré` : ', sans retard toléré';
  return `À faire en ${minutesText(schedule.windowMinutes)}${grace}`;
}

/** Where a template applies: « Tous les sites », or « Région : Rhône-Alpes · Sites : Lyon, Lille ». */
export const coverageText = (template: Pick<TaskTemplate, 'siteIds' | 'regionIds'>, sites: readonly Named[], regions: readonly Named[]) =>
  coverageOf(template, sites, regions, { everywhere: 'Tous les sites', site: ['Site', 'Sites'] });

/** « 3 points de contrôle ». */
export const itemCountText = (count: number) => `${count} point${count > 1 ? 's' : ''} de contrôle`;
