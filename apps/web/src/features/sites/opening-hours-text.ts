import type { OpeningHours, OpeningWindow } from '@vigie/contract';

export const DAYS: { key: keyof OpeningHours; label: string }[] = [
  { key: 'mon', label: 'Lundi' },
  { key: 'tue', label: 'Mardi' },
  { key: 'wed', label: 'Mercredi' },
  { key: 'thu', label: 'Jeudi' },
  { key: 'fri', label: 'Vendredi' },
  { key: 'sat', label: 'Samedi' },
  { key: 'sun', label: 'Dimanche' },
];

/** « 09:00–12:30, 14:00–19:00 », or « fermé ». */
export function windowsText(windows: OpeningWindow[]): string {
  return windows.length === 0 ? 'fermé' : windows.map(([from, to]) => `${from}–${to}`).join(', ');
}

const TIME = /^(?:[01]?\d|2[0-3])[:h][0-5]\d$|^24[:h]00$/;
const normalize = (time: string) => {
  const [hours = '0', minutes = '00'] = time.replace('h', ':').split(':');
  return `${hours.padStart(2, '0')}:${minutes}`;
};

/**
 * Reads what a person types for a day: « 9:00-19:00 », « 09h00–12h30, 14h00–19h00 », « fermé » or
 * nothing. Returns the windows, or a French reason.
 */
export function parseWindows(text: string): OpeningWindow[] | string {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === '' || trimmed === 'fermé' || trimmed === 'ferme') return [];
  const windows: OpeningWindow[] = [];
  for (const part of trimmed.split(/[,;]/)) {
    const [from, to, extra] = part.split(/[-–—]/).map((value) => value.trim());
    if (!from || !to || extra !== undefined || !TIME.test(from) || !TIME.test(to)) {
      return `«\u202F${part.trim()}\u202F»\u202F: écrivez une plage comme 09:00–19:00, ou «\u202Ffermé\u202F».`;
    }
    if (normalize(from) === normalize(to))
      return `«\u202F${part.trim()}\u202F»\u202F: une plage ne peut pas commencer et finir à la même heure.`;
    windows.push([normalize(from), normalize(to)]);
  }
  return windows;
}
