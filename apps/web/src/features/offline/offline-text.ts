import { formatClock, formatRelativeDay } from '@/lib/clock-format';

/**
 * « Hors connexion — dernières valeurs de 14 h 02 », the day added when it is not today
 * (« d’hier à 14 h 02 », « du 12 mars à 14 h 02 »); « Hors connexion » when their age is unknown.
 */
export function offlineText(valuesAt: number | null, now: number, timeZone?: string): string {
  if (valuesAt === null || !Number.isFinite(valuesAt)) return 'Hors connexion';
  const clock = formatClock(valuesAt, timeZone);
  const day = formatRelativeDay(valuesAt, now, timeZone);
  const when = day === 'hier' ? `d’hier à ${clock}` : day.startsWith('le ') ? `du ${day.slice(3)} à ${clock}` : `de ${clock}`;
  return `Hors connexion — dernières valeurs ${when}`;
}
