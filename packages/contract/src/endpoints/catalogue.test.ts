import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROLES } from '../auth.ts';
import { can, endpointKey, ENDPOINTS, endpoints, pathOf } from './index.ts';
import { SCOPE_KINDS } from './define.ts';
import { renderRoutes, ROUTES_FILE } from './routes-source.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

describe('the endpoint catalogue', () => {
  it('declares each METHOD path once, under /api, with a French summary and a section', () => {
    const keys = ENDPOINTS.map(endpointKey);
    expect(new Set(keys).size).toBe(keys.length);
    for (const endpoint of ENDPOINTS) {
      expect(endpoint.path, endpointKey(endpoint)).toMatch(/^\/api\/[a-z0-9./:_-]+$/i);
      expect(endpoint.summary.length, endpointKey(endpoint)).toBeGreaterThan(5);
      expect(endpoint.tag.length).toBeGreaterThan(0);
      // French typography, and no code span (a summary is plain text): no plain apostrophe, no colon or semicolon glued to the word before.
      expect(endpoint.summary, endpointKey(endpoint)).not.toMatch(/[`']|\S[:;?!](?:\s|$)/);
    }
  });

  it('says why a role is refused wherever some role is', () => {
    for (const { access, ...endpoint } of ENDPOINTS) {
      if (access.kind !== 'members' || access.roles.length === ROLES.length) continue;
      expect(access.message, endpointKey({ ...endpoint })).toMatch(/^Seuls? un administrateur/);
    }
  });

  it('gives every member endpoint its scope rule, and a thing of one site its `:id`', () => {
    for (const endpoint of ENDPOINTS) {
      const { access } = endpoint;
      if (access.kind !== 'members') continue;
      expect(SCOPE_KINDS, endpointKey(endpoint)).toContain(access.scope.kind);
      if (access.scope.kind === 'resource') expect(endpoint.path, endpointKey(endpoint)).toMatch(/\/:id(?:\/|$)/);
      if (access.scope.kind === 'own') expect(endpoint.path, endpointKey(endpoint)).toMatch(/^\/api\/(?:user|auth)\//);
      if (access.scope.kind === 'shared') expect(endpoint.method, endpointKey(endpoint)).toBe('GET');
    }
    // The LoRaWAN devices of a scoped member are those of their sites; detected ones belong to no site.
    expect(endpoints.lorawan.devices.access).toMatchObject({ scope: { kind: 'sites' } });
    expect(endpoints.lorawan.dismiss.access).toMatchObject({ scope: { kind: 'organization' } });
  });

  it('fills a path with encoded parameters and a query without empty entries', () => {
    expect(pathOf(endpoints.sites.get, { id: 'a b/c' })).toBe('/api/sites/a%20b%2Fc');
    expect(pathOf(endpoints.sites.list, {}, { q: 'crème', none: undefined, nil: null, n: 2 })).toBe('/api/sites?q=cr%C3%A8me&n=2');
    expect(() => pathOf(endpoints.sites.get, {} as { id: string })).toThrow('« id »');
  });

  it('has its client view (routes.ts, no schemas) up to date: run `npm run endpoints:generate` after a change', () => {
    expect(readFileSync(path.join(root, ROUTES_FILE), 'utf8')).toBe(renderRoutes(endpoints));
  });

  it('answers what a role may call as the server enforces it', () => {
    expect(can('viewer', endpoints.sites.list)).toBe(true);
    expect(can('viewer', endpoints.sites.create)).toBe(false);
    expect(can('manager', endpoints.sites.create)).toBe(true);
    expect(can(null, endpoints.sites.list)).toBe(false);
    expect(can(null, endpoints.health.live)).toBe(true);
    // A manager who sees one shop may not create a site (the whole organization is needed).
    expect(can('manager', endpoints.sites.create, true)).toBe(false);
    expect(can('manager', endpoints.sites.update, true)).toBe(true);
  });
});

/** A regular expression matching the concrete paths of the catalogue (`/api/sites/3f…`, `/api/sites/${id}`). */
function routePattern(): RegExp {
  const alternatives = ENDPOINTS.map((endpoint) =>
    endpoint.path
      .split(/(:[A-Za-z0-9_]+)/)
      .map((part) => (part.startsWith(':') ? '[^/\'"`\\s?]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join(''),
  );
  return new RegExp(`(?:${alternatives.join('|')})(?![A-Za-z0-9_-])`);
}

/** The files that must name endpoints rather than spell their paths: the product's code, tests and the catalogue aside. */
function productFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-co', '--exclude-standard', 'apps', 'packages'], { cwd: root, encoding: 'utf8' });
  return (
    listed
      .split('\n')
      .filter((file) => /\.(?:ts|tsx|mjs|js)$/.test(file))
      .filter((file) => !/\.test\.tsx?$|\/test\/|\/e2e\/|\/dist\/|^packages\/contract\/src\/endpoints\//.test(file))
      // The service worker is served as written and cannot import the catalogue: its test holds its paths to it.
      .filter((file) => file !== 'apps/web/public/sw.js')
  );
}

describe('path strings of the API', () => {
  it('appear only in the catalogue, tests and docs', () => {
    const pattern = routePattern();
    const found = productFiles().flatMap((file) =>
      readFileSync(path.join(root, file), 'utf8')
        .split('\n')
        .flatMap((line, index) => (pattern.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });

  it('are found by the check when a file spells one', () => {
    const pattern = routePattern();
    expect(pattern.test('await fetch(`${base}/api/sensor/${id}/readings?limit=5`)')).toBe(true);
    expect(pattern.test("app.get('/api/alerts', handler)")).toBe(true);
    expect(pattern.test("import { useAlerts } from '@/features/alerts/api/get-alerts';")).toBe(false);
  });
});
