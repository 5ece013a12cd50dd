import { TASK_LIBRARY } from '@vigie/contract/values';
import { describe, expect, it } from 'vitest';
import { draftOf, readDraft } from './template-draft';
import { coverageText, scheduleText, timeText, timingText } from './template-format';

const plain = (text: string) => text.replace(/[\u202F\u00A0]/g, ' ');
const timing = { windowMinutes: 60, graceMinutes: 30 };
const NOW = Date.parse('2026-11-23T07:10:00.000Z');

describe('a template’s schedule in French', () => {
  it('says the times of a daily one, in order, with their minutes', () => {
    expect(plain(scheduleText({ frequency: 'daily', times: ['14:00', '08:00'], ...timing }))).toBe('Tous les jours à 8 h 00 et 14 h 00');
    expect(plain(scheduleText({ frequency: 'daily', times: ['07:30', '12:00', '18:45'], ...timing }))).toBe(
      'Tous les jours à 7 h 30, 12 h 00 et 18 h 45',
    );
    // Narrow no-break spaces: « 8 h 00 » never breaks across two lines.
    expect(timeText('08:00')).toBe('8\u202Fh\u202F00');
  });

  it('names the days of a weekly one, Monday first, and a run of days as such', () => {
    expect(plain(scheduleText({ frequency: 'weekly', times: ['09:00'], weekdays: [4, 1], ...timing }))).toBe(
      'Le lundi et le jeudi à 9 h 00',
    );
    expect(plain(scheduleText({ frequency: 'weekly', times: ['15:00'], weekdays: [7], ...timing }))).toBe('Le dimanche à 15 h 00');
    expect(plain(scheduleText({ frequency: 'weekly', times: ['06:30'], weekdays: [1, 2, 3, 4, 5], ...timing }))).toBe(
      'Du lundi au vendredi à 6 h 30',
    );
    expect(plain(scheduleText({ frequency: 'weekly', times: ['06:30'], weekdays: [1, 3, 5], ...timing }))).toBe(
      'Le lundi, le mercredi et le vendredi à 6 h 30',
    );
    expect(plain(scheduleText({ frequency: 'weekly', times: ['06:30'], weekdays: [1, 2, 3, 4, 5, 6, 7], ...timing }))).toBe(
      'Tous les jours à 6 h 30',
    );
  });

  it('says the day of a monthly one, the 31st being the last day of every month', () => {
    expect(plain(scheduleText({ frequency: 'monthly', times: ['09:00'], dayOfMonth: 1, ...timing }))).toBe('Le 1er du mois à 9 h 00');
    expect(plain(scheduleText({ frequency: 'monthly', times: ['09:00'], dayOfMonth: 15, ...timing }))).toBe('Le 15 du mois à 9 h 00');
    expect(plain(scheduleText({ frequency: 'monthly', times: ['09:00'], dayOfMonth: 30, ...timing }))).toBe(
      'Le 30 du mois, ou le dernier jour des mois plus courts, à 9 h 00',
    );
    expect(plain(scheduleText({ frequency: 'monthly', times: ['09:00'], dayOfMonth: 31, ...timing }))).toBe(
      'Le dernier jour du mois à 9 h 00',
    );
  });

  it('dates a single one, with its year when it is not this year’s', () => {
    const once = { frequency: 'once' as const, dueAt: '2026-12-12T09:00:00.000Z', ...timing };
    expect(plain(scheduleText(once, { timeZone: 'Europe/Paris', now: NOW }))).toBe('Une fois, le 12 décembre à 10 h 00');
    expect(plain(scheduleText({ ...once, dueAt: '2027-02-01T08:30:00.000Z' }, { timeZone: 'Europe/Paris', now: NOW }))).toBe(
      'Une fois, le 1er février 2027 à 9 h 30',
    );
  });

  it('says how long a task stays open, and where a template applies', () => {
    expect(plain(timingText({ windowMinutes: 60, graceMinutes: 30 }))).toBe('À faire en 1 h, puis 30 min de retard toléré');
    expect(plain(timingText({ windowMinutes: 90, graceMinutes: 0 }))).toBe('À faire en 1 h 30, sans retard toléré');
    const sites = [
      { id: 's1', name: 'Lyon Part-Dieu' },
      { id: 's2', name: 'Lille Europe' },
    ];
    const regions = [{ id: 'r1', name: 'Rhône-Alpes' }];
    expect(coverageText({ siteIds: [], regionIds: [] }, sites, regions)).toBe('Tous les sites');
    expect(plain(coverageText({ siteIds: ['s1', 's2', 's9'], regionIds: ['r1'] }, sites, regions))).toBe(
      'Région : Rhône-Alpes · Sites : Lyon Part-Dieu, Lille Europe, 1 autre',
    );
  });
});

describe('the editor’s draft', () => {
  it('gives back every starter of the library as it is, once opened in the editor and saved unchanged', () => {
    for (const entry of TASK_LIBRARY) {
      const read = readDraft(draftOf(entry.request), { scoped: false, mayLock: true });
      expect(read, entry.id).toEqual({ request: { ...entry.request, siteIds: [], regionIds: [] } });
    }
  });

  it('says what to fix first, and which field', () => {
    const draft = draftOf(TASK_LIBRARY.find((entry) => entry.id === 'huile-friture')?.request);
    const oil = draft.items[0];
    if (!oil) throw new Error('no item');
    expect(readDraft({ ...draft, name: '  ' }, { scoped: false, mayLock: false })).toEqual({
      error: 'Donnez un nom au modèle.',
      field: 'name',
    });
    expect(readDraft({ ...draft, items: [{ ...oil, min: '30', max: '25' }] }, { scoped: false, mayLock: false })).toMatchObject({
      field: `item-${oil.key}-min`,
    });
    // A member who sees some shops only names theirs.
    expect(readDraft(draft, { scoped: true, mayLock: false })).toEqual({ error: 'Cochez au moins un de vos sites.', field: 'coverage' });
    // Locking is not theirs to ask for.
    const read = readDraft({ ...draft, locked: true, items: [{ ...oil, max: '24,5' }] }, { scoped: false, mayLock: false });
    expect(read).toMatchObject({ request: { locked: false, items: [{ label: 'Composés polaires', max: 24.5 }] } });
  });
});
