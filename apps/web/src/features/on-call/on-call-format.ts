import type { Ladder, Member, OnCallDay, OnCallResponse } from '@vigie/contract';
import { formatHhmm } from '@vigie/contract/clock';

/** The days of a slot as its toggles name them, in the contract's order. */
export const DAY_LABELS: Record<OnCallDay, string> = {
  mon: 'Lun',
  tue: 'Mar',
  wed: 'Mer',
  thu: 'Jeu',
  fri: 'Ven',
  sat: 'Sam',
  sun: 'Dim',
  holiday: 'Jours fériés',
};

/** The ladder's fields, as their inputs and messages name them. */
export const LADDER_LABELS: Record<keyof Ladder, string> = {
  smsAfterMinutes: 'SMS après (min)',
  callAfterMinutes: 'Appel après (min)',
  nextAfterMinutes: 'Personne suivante après (min)',
};

/** How a member is named: their name, else their address. */
export function memberLabel(member: Pick<Member, 'name' | 'email'>): string {
  return member.name?.trim() || member.email;
}

/** « Marie Dupont, puis Paul Martin »: the people of a slot, in the order they are woken. */
export const orderText = (names: readonly string[]) => names.join(', puis ');

/** « de 20 h à 7 h le lendemain », « de 8 h à 18 h 30 », or « toute la journée » (start equals end). */
export function hoursText(from: string, to: string): string {
  if (from === to) return 'toute la journée';
  const text = `de ${formatHhmm(from)} à ${formatHhmm(to)}`;
  return to < from ? `${text} le lendemain` : text;
}

/** « Lun, Mar, Jours fériés », in the contract’s order. */
export const daysText = (days: readonly OnCallDay[]) =>
  (Object.keys(DAY_LABELS) as OnCallDay[])
    .filter((day) => days.includes(day))
    .map((day) => DAY_LABELS[day])
    .join(', ');

/**
 * « En ce moment : Marie Dupont (notification seulement), puis Paul Martin », with the public
 * holiday when there is one, or « Personne d’astreinte en ce moment. »
 */
export function nowText(now: OnCallResponse['now']): string {
  const holiday = now.holiday ? ` (jour férié\u202F: ${now.holiday})` : '';
  if (now.people.length === 0) return `Personne d’astreinte en ce moment${holiday}.`;
  const people = now.people.map((person) => (person.phone ? person.name : `${person.name} (notification seulement)`));
  return `En ce moment${holiday}\u202F: ${orderText(people)}`;
}

/** « SMS après 5 min, appel après 10 min, personne suivante après 15 min. » */
export function ladderText(ladder: Ladder): string {
  return `Notification aussitôt, SMS après ${ladder.smsAfterMinutes}\u202Fmin, appel après ${ladder.callAfterMinutes}\u202Fmin, personne suivante après ${ladder.nextAfterMinutes}\u202Fmin.`;
}
