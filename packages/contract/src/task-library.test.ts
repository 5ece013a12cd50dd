import { describe, expect, it } from 'vitest';
import { TASK_LIBRARY } from './task-library.ts';
import { createTaskTemplateRequestSchema } from './tasks.ts';

/** The sentences a person reads of an entry: its description, name, items' labels and options. */
function shownTexts(entry: (typeof TASK_LIBRARY)[number]): string[] {
  const { request } = entry;
  return [entry.description, request.name, ...request.items.flatMap((item) => [item.label, ...(item.options ?? [])])];
}

describe('the starter library of the food-safety plan', () => {
  it('is made of valid create requests, each parsed as it is', () => {
    expect(TASK_LIBRARY.length).toBeGreaterThanOrEqual(8);
    for (const entry of TASK_LIBRARY) {
      const parsed = createTaskTemplateRequestSchema.safeParse(entry.request);
      expect(parsed.error?.issues, entry.id).toBeUndefined();
      // Nothing left to a default: what the editor shows is what is saved.
      expect(parsed.data, entry.id).toEqual(entry.request);
    }
  });

  it('names each entry with a unique, stable slug and a unique name', () => {
    const ids = TASK_LIBRARY.map((entry) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    const names = TASK_LIBRARY.map((entry) => entry.request.name);
    expect(new Set(names).size).toBe(names.length);
    expect(ids).toEqual(
      expect.arrayContaining([
        'ouverture',
        'fermeture',
        'nettoyage-preparation',
        'controle-nuisibles',
        'huile-friture',
        'etalonnage-thermometres',
        'refroidissement-rapide',
        'maintien-au-chaud',
      ]),
    );
  });

  it('covers every site until sites are chosen, and locks nothing', () => {
    for (const { id, request } of TASK_LIBRARY) {
      expect(request.siteIds, id).toBeUndefined();
      expect(request.regionIds, id).toBeUndefined();
      expect(request.locked, id).toBe(false);
    }
  });

  it('keeps the regulation’s limits', () => {
    const item = (id: string, label: RegExp) =>
      TASK_LIBRARY.find((entry) => entry.id === id)?.request.items.find((candidate) => label.test(candidate.label));
    expect(item('ouverture', /^Vitrine réfrigérée/)).toMatchObject({ type: 'number', unit: '°C', min: 0, max: 4 });
    expect(item('ouverture', /^Chambre froide négative/)).toMatchObject({ type: 'number', unit: '°C', max: -18 });
    expect(item('ouverture', /^Lave-mains/)).toMatchObject({ type: 'boolean', expected: true });
    expect(item('huile-friture', /^Composés polaires/)).toMatchObject({ type: 'number', unit: '%', max: 25 });
    expect(item('huile-friture', /^Huile changée/)).toMatchObject({ type: 'choice' });
    expect(item('etalonnage-thermometres', /^Point de glace/)).toMatchObject({ min: -0.5, max: 0.5 });
    expect(item('etalonnage-thermometres', /^Eau bouillante/)).toMatchObject({ required: false });
    expect(item('controle-nuisibles', /^Traces de nuisibles/)?.failing).not.toContain('Aucune');
  });

  it('writes French typography: ’ for the apostrophe, a no-break space before « ? : ; ! % », a space before « °C »', () => {
    for (const entry of TASK_LIBRARY) {
      for (const text of shownTexts(entry)) {
        expect(text, entry.id).not.toMatch(/'/);
        expect(text, entry.id).not.toMatch(/(?:^|[^\u202F\u00A0])[?:;!%]/);
        expect(text, entry.id).not.toMatch(/\S°C/);
        expect(text, entry.id).not.toMatch(/ {2}|^\s|\s$/);
      }
      for (const item of entry.request.items) if (item.unit) expect(['°C', '%'], entry.id).toContain(item.unit);
    }
  });
});
