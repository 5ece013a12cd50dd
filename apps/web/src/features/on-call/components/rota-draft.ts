import type { Ladder, OnCallSlot } from '@vigie/contract';
import { LADDER_LABELS } from '../on-call-format';

/** The contract's bounds, restated for the buttons that add: 20 slots a site, 10 people a slot. */
export const MAX_SLOTS = 20;
export const MAX_PEOPLE = 10;

export const LADDER_KEYS = Object.keys(LADDER_LABELS) as (keyof Ladder)[];

export type SlotDraft = OnCallSlot & { key: number };
export type LadderDraft = Record<keyof Ladder, string>;

/** Keys that follow a slot when it moves, so that its inputs keep their focus and text. */
let nextSlotKey = 0;
export const draftOf = (slot: OnCallSlot): SlotDraft => ({
  ...slot,
  days: [...slot.days],
  people: [...slot.people],
  key: (nextSlotKey += 1),
});

/** « Ajouter un créneau »: weekday nights, to be named and staffed. */
export const newSlot = (): SlotDraft =>
  draftOf({ name: 'Nuits de semaine', days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '20:00', to: '07:00', people: [] });

export const nameOf = (names: ReadonlyMap<string, string>, id: string) => names.get(id) ?? 'Personne inconnue';

/** The list with the item at `index` swapped with its neighbour before (-1) or after (1). */
export const move = <T>(list: readonly T[], index: number, by: -1 | 1): T[] => {
  const next = [...list];
  const target = index + by;
  if (target < 0 || target >= next.length) return next;
  [next[index], next[target]] = [next[target] as T, next[index] as T];
  return next;
};

/** What is sent, or the French reason it is not: each slot has a day, its hours and a person; the ladder whole minutes. */
export function readRota(slots: readonly SlotDraft[], ladder: LadderDraft): { slots: OnCallSlot[]; ladder: Ladder } | string {
  const read: OnCallSlot[] = [];
  for (const [index, slot] of slots.entries()) {
    const title = `Créneau ${index + 1}${slot.name.trim() ? ` (${slot.name.trim()})` : ''}`;
    if (slot.days.length === 0) return `${title}\u202F: cochez au moins un jour.`;
    if (!slot.from || !slot.to) return `${title}\u202F: indiquez l’heure de début et de fin.`;
    if (slot.people.length === 0) return `${title}\u202F: ajoutez au moins une personne.`;
    read.push({ name: slot.name.trim(), days: slot.days, from: slot.from, to: slot.to, people: slot.people });
  }
  const minutes: Partial<Ladder> = {};
  for (const key of LADDER_KEYS) {
    const text = ladder[key].trim();
    if (!/^\d+$/.test(text)) return `${LADDER_LABELS[key]}\u202F: un nombre entier de minutes est attendu.`;
    minutes[key] = Number(text);
  }
  return { slots: read, ladder: minutes as Ladder };
}
