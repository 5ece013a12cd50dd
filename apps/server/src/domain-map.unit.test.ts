import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { endpoints } from '@vigie/contract';
import { describe, expect, it } from 'vitest';

/**
 * The map of the domain (docs/domain-map.md) holds for the three trees: every area of the endpoint
 * catalogue has one row, naming a server module and a web feature that exist, and says why when
 * their names differ; every module and feature folder appears in it.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const map = fs.readFileSync(path.join(root, 'docs/domain-map.md'), 'utf8');

/** The rows of the table under `heading`, each as its cells. */
function table(heading: string): string[][] {
  const section = map.split(/^## /m).find((part) => part.startsWith(heading));
  if (!section) throw new Error(`docs/domain-map.md : section « ${heading} » introuvable`);
  return section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2)
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
}

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
const names = (cell: string) => (cell === '—' ? [] : cell.split(',').map((name) => name.trim()));
const folders = (dir: string) =>
  fs
    .readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

const rows = table('Zones du catalogue').map(([area = '', modules = '', features = '', why = '']) => ({
  area,
  modules: names(modules),
  features: names(features),
  why,
}));
const outside = table('Hors catalogue').map(([folder = '']) => folder);
const modules = folders('apps/server/src/modules');
const features = folders('apps/web/src/features');

describe('the map of the domain (docs/domain-map.md)', () => {
  it('has one row per area of the endpoint catalogue, and none for an area that does not exist', () => {
    const areas = rows.map((row) => row.area);
    expect([...areas].sort()).toEqual(Object.keys(endpoints).sort());
    expect(new Set(areas).size).toBe(areas.length);
  });

  it('names server modules and web features that exist', () => {
    for (const row of rows) {
      for (const module of row.modules) expect(modules, `${row.area} : module ${module}`).toContain(module);
      for (const feature of row.features) expect(features, `${row.area} : fonctionnalité ${feature}`).toContain(feature);
    }
  });

  it('says why whenever a module or a feature does not bear the area’s name', () => {
    for (const row of rows) {
      const same =
        [...row.modules, ...row.features].length === 2 && [...row.modules, ...row.features].every((name) => name === kebab(row.area));
      if (!same) expect(row.why.length, `${row.area} : pourquoi les noms diffèrent`).toBeGreaterThan(20);
    }
  });

  it('places every module and every feature folder', () => {
    const placed = new Set([
      ...rows.flatMap((row) => row.modules.map((module) => `modules/${module}`)),
      ...rows.flatMap((row) => row.features.map((feature) => `features/${feature}`)),
      ...outside,
    ]);
    for (const module of modules) expect(placed, `apps/server/src/modules/${module}`).toContain(`modules/${module}`);
    for (const feature of features) expect(placed, `apps/web/src/features/${feature}`).toContain(`features/${feature}`);
  });
});
