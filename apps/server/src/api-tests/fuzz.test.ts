import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OrganizationObjects, organizationSnapshot, seedOrganization } from '../test/organization-fixture.ts';
import { createTestApp, databaseKind, type TestAccount, type TestApp } from '../test/test-app.ts';

/**
 * Every route that reads a JSON body, fed what a careless or hostile client sends: NUL, half
 * characters, numbers JSON can write but not hold, nesting that exhausts a naive parser, bodies of
 * the wrong shape or encoding. Each answer is a 4xx with a message in French, and the
 * organization is as it was.
 */

type Fixtures = OrganizationObjects;

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

interface BodyRoute {
  method: 'POST' | 'PUT';
  url: string;
  /** The secured ones are called as the admin; the public ones with no session (or a device's). */
  secured: boolean;
  body: (f: Fixtures) => { [key: string]: Json };
  path?: (f: Fixtures) => string;
  headers?: (f: Fixtures) => Record<string, string>;
  /** Bodies the route's contract accepts on purpose, with the reason in a comment at the route. */
  accepts?: (label: string) => boolean;
}

const ROUTES: BodyRoute[] = [
  { method: 'POST', url: '/api/auth/sso/discover', secured: false, body: () => ({ email: 'personne@exemple.fr' }) },
  { method: 'POST', url: '/api/auth/sso/exchange', secured: false, body: () => ({ code: 'un-code-inconnu' }) },
  {
    method: 'PUT',
    url: '/api/organization/sso',
    secured: true,
    body: () => ({ issuer: 'https://idp.exemple.fr', clientId: 'vigie', domains: ['exemple.fr'], defaultRole: 'viewer', enforced: false }),
  },
  { method: 'POST', url: '/api/emitter', secured: true, body: () => ({ name: 'Émetteur ajouté' }) },
  { method: 'POST', url: '/api/sensor', secured: true, body: () => ({ name: 'Sonde ajoutée' }) },
  {
    method: 'PUT',
    url: '/api/emitter/:id',
    secured: true,
    body: () => ({ name: 'Émetteur renommé' }),
    path: (f) => `/api/emitter/${f.emitterId}`,
  },
  {
    method: 'PUT',
    url: '/api/sensor/:id',
    secured: true,
    body: () => ({ name: 'Sonde renommée' }),
    path: (f) => `/api/sensor/${f.sensorId}`,
  },
  { method: 'POST', url: '/api/sites', secured: true, body: () => ({ name: 'Magasin ajouté', timezone: 'Europe/Paris' }) },
  { method: 'PUT', url: '/api/sites/:id', secured: true, body: () => ({ name: 'Magasin renommé' }), path: (f) => `/api/sites/${f.siteId}` },
  {
    method: 'POST',
    url: '/api/alert-rules',
    secured: true,
    body: (f) => ({ name: 'Règle ajoutée', sensorId: f.sensorId, preset: 'chilled_very_perishable', delaySeconds: 600, hysteresis: 0.5 }),
  },
  {
    method: 'PUT',
    url: '/api/alert-rules/:id',
    secured: true,
    body: () => ({ name: 'Règle renommée', enabled: false, delaySeconds: 600 }),
    path: (f) => `/api/alert-rules/${f.ruleId}`,
  },
  {
    method: 'POST',
    url: '/api/alerts/:id/acknowledge',
    secured: true,
    body: () => ({ comment: 'Je regarde' }),
    path: (f) => `/api/alerts/${f.alertId}/acknowledge`,
    // The comment is optional: a `null` body is no body, and acknowledges.
    accepts: (label) => label === 'null',
  },
  {
    method: 'POST',
    url: '/api/alerts/:id/actions',
    secured: true,
    body: () => ({ text: 'Porte refermée' }),
    path: (f) => `/api/alerts/${f.alertId}/actions`,
  },
  {
    method: 'POST',
    url: '/api/alerts/:id/resolve',
    secured: true,
    body: () => ({ text: 'Joint changé' }),
    path: (f) => `/api/alerts/${f.alertId}/resolve`,
  },
  {
    method: 'PUT',
    url: '/api/notification-policy',
    secured: true,
    body: () => ({ repeatMinutes: 45, reacknowledgeMinutes: 30, steps: [{ afterMinutes: 0, emails: null }] }),
  },
  { method: 'POST', url: '/api/reports', secured: true, body: (f) => ({ siteId: f.siteId, month: '2026-10' }) },
  {
    method: 'POST',
    url: '/api/reports/:id/sign',
    secured: true,
    body: () => ({ comment: 'Vu' }),
    path: () => `/api/reports/${randomUUID()}/sign`,
  },
  { method: 'POST', url: '/api/devices/claim', secured: true, body: () => ({ serial: 'SN-FUZZ-0001', claimCode: 'ABCD-EFGH-JKLM' }) },
  { method: 'PUT', url: '/api/members/:id', secured: true, body: () => ({ role: 'admin' }), path: (f) => `/api/members/${f.viewerId}` },
  { method: 'POST', url: '/api/invitations', secured: true, body: () => ({ email: 'invite-fuzz@example.fr', role: 'admin' }) },
  {
    method: 'PUT',
    url: '/api/user/password',
    secured: true,
    body: () => ({ currentPassword: 'mot de passe actuel', newPassword: 'Un nouveau mot de passe solide 42' }),
  },
  { method: 'POST', url: '/api/auth/login', secured: false, body: () => ({ email: 'fuzz@example.fr', password: 'un mot de passe' }) },
  { method: 'POST', url: '/api/auth/password-reset', secured: false, body: () => ({ email: 'fuzz@example.fr' }) },
  {
    method: 'POST',
    url: '/api/auth/password-reset/confirm',
    secured: false,
    body: () => ({ token: 'A'.repeat(43), password: 'Un nouveau mot de passe solide 42' }),
  },
  { method: 'POST', url: '/api/invitations/preview', secured: false, body: () => ({ token: 'A'.repeat(43) }) },
  {
    method: 'POST',
    url: '/api/invitations/accept',
    secured: false,
    body: () => ({ token: 'A'.repeat(43), name: 'Nouvelle venue', password: 'Un nouveau mot de passe solide 42' }),
  },
  {
    method: 'POST',
    url: '/api/devices/provision',
    secured: false,
    body: (f) => ({ installationKey: f.installationKey, serial: 'SN-FUZZ-0002', kind: 'sensor', inactivityTimeoutSeconds: 600 }),
  },
  {
    method: 'POST',
    url: '/api/devices/provision (claim code)',
    secured: false,
    body: () => ({ serial: 'SN-FUZZ-0003', claimCode: 'ABCD-EFGH-JKLM', inactivityTimeoutSeconds: 600 }),
    path: () => '/api/devices/provision',
  },
  {
    method: 'POST',
    url: '/api/devices/telemetry',
    secured: false,
    body: () => ({ temperature: 4.5, battery: 90 }),
    headers: (f) => ({ authorization: `Bearer ${f.sensorToken}` }),
    // A list is a batch of readings (device protocol); any finite number is a measure: see the
    // it.fails below for magnitudes no sensor reads.
    accepts: (label) => label === 'a JSON array' || label.endsWith(`= ${String(2 ** 60).slice(0, 12)}`),
  },
  {
    method: 'POST',
    url: '/api/task-templates',
    secured: true,
    body: (f) => ({
      name: 'Ouverture',
      kind: 'checklist',
      siteIds: [f.siteId],
      items: [{ label: 'Chambre froide à 4 °C ou moins', type: 'number', unit: '°C', min: 0, max: 4 }],
      schedule: { frequency: 'daily', times: ['08:00'], windowMinutes: 60, graceMinutes: 30 },
    }),
  },
  {
    method: 'POST',
    url: '/api/processes',
    secured: true,
    body: (f) => ({ kind: 'cooling', siteId: f.siteId, product: 'Rôti', temperature: 70 }),
  },
  {
    method: 'POST',
    url: '/api/tasks/:id/complete',
    secured: true,
    body: () => ({ answers: [{ itemId: randomUUID(), value: 3 }] }),
    path: () => `/api/tasks/${randomUUID()}/complete`,
  },
];

/**
 * A number as raw JSON text: what JSON.stringify cannot write. `-0` is left out: it is 0, and a
 * field that accepts 0 rightly accepts it (delaySeconds, hysteresis, afterMinutes do, storing 0).
 */
const NUMBERS = ['1e309', String(2 ** 60), `9${'8'.repeat(399)}`];
const STRINGS = ['a\u0000b', '\ud800x', 'x'.repeat(1024 * 1024)];
const ADDED_NUMBER_FIELDS = ['threshold', 'value', 'inactivityTimeoutSeconds', 'temperature', 'repeatMinutes'];
const PLACEHOLDER = '"__NOMBRE_BRUT__"';

interface Attempt {
  label: string;
  payload: string;
  contentType: string;
}

type Path = (string | number)[];

/** Every leaf of a body, with its path. */
function leaves(value: Json, path: Path = []): { path: Path; value: Json }[] {
  if (Array.isArray(value)) return value.flatMap((inner, i) => leaves(inner, [...path, i]));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([key, inner]) => leaves(inner, [...path, key]));
  return [{ path, value }];
}

function replaced(body: Json, path: Path, by: Json): Json {
  const [head, ...rest] = path;
  if (head === undefined) return by;
  if (Array.isArray(body)) return body.map((inner, i) => (i === head ? replaced(inner, rest, by) : inner));
  if (body !== null && typeof body === 'object') return { ...body, [head]: replaced(body[String(head)] ?? null, rest, by) };
  return body;
}

const JSON_TYPE = 'application/json';

function attempts(body: { [key: string]: Json }): Attempt[] {
  const list: Attempt[] = [];
  const raw = (label: string, payload: string, contentType = JSON_TYPE) => list.push({ label, payload, contentType });
  for (const { path, value } of leaves(body)) {
    const where = path.join('.');
    if (typeof value === 'string') {
      for (const text of STRINGS)
        raw(`${where} = ${JSON.stringify(text.slice(0, 8))}…(${text.length})`, JSON.stringify(replaced(body, path, text)));
    }
    if (typeof value === 'number') {
      for (const number of NUMBERS) {
        raw(`${where} = ${number.slice(0, 12)}`, JSON.stringify(replaced(body, path, '__NOMBRE_BRUT__')).replace(PLACEHOLDER, number));
      }
    }
  }
  for (const field of ADDED_NUMBER_FIELDS.filter((name) => !(name in body))) {
    for (const number of NUMBERS) {
      raw(`+${field} = ${number.slice(0, 12)}`, JSON.stringify({ ...body, [field]: '__NOMBRE_BRUT__' }).replace(PLACEHOLDER, number));
    }
  }
  const depth = 10_000;
  raw('nesting 10 000 deep', `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`);
  raw('a JSON array', JSON.stringify([body]));
  raw('a JSON string', JSON.stringify('Émetteur'));
  raw('null', 'null');
  raw('invalid JSON', '{"name":');
  raw('text/plain', JSON.stringify(body), 'text/plain');
  raw('charset=utf-16', JSON.stringify(body), 'application/json; charset=utf-16');
  return list;
}

/** What a message in English, or an internal one, looks like. */
const ENGLISH =
  /\b(expected|must|invalid input|unexpected|body|is required|undefined|received|should|string|number|object|array|too (big|small|long|short)|unrecognized|keys?|error|failed|cannot|not allowed|unsupported|request)\b/i;

function problemWith(response: LightMyRequestResponse): string | null {
  if (response.statusCode < 400 || response.statusCode >= 500) return `${response.statusCode} ${response.body.slice(0, 200)}`;
  let parsed: unknown;
  try {
    parsed = response.json();
  } catch {
    return `${response.statusCode}, not JSON: ${response.body.slice(0, 200)}`;
  }
  const message = parsed !== null && typeof parsed === 'object' && 'message' in parsed ? parsed.message : undefined;
  if (typeof message !== 'string' || message.trim() === '') return `${response.statusCode}, no message: ${response.body.slice(0, 200)}`;
  if (Object.keys(parsed as object).length !== 1) return `${response.statusCode}, more than {message}: ${response.body.slice(0, 200)}`;
  if (ENGLISH.test(message)) return `${response.statusCode}, English: ${message}`;
  return null;
}

describe(`fuzzing every JSON route (${databaseKind})`, { timeout: 120_000 }, () => {
  let t: TestApp;
  let admin: TestAccount;
  let f: Fixtures;

  const call = (method: string, url: string, payload?: object): Promise<LightMyRequestResponse> =>
    t.app.inject({ method: method as 'GET', url, headers: admin.auth, ...(payload === undefined ? {} : { payload }) });

  const snapshot = () => organizationSnapshot(t, admin.token, f);

  beforeAll(async () => {
    t = await createTestApp();
    const seeded = await seedOrganization(t, 'Épicerie du fuzz');
    admin = seeded.accounts.admin;
    f = seeded.f;
  });
  afterAll(() => t?.close());

  for (const route of ROUTES) {
    it(`answers ${route.method} ${route.url} with a 4xx in French for every malformed body, and changes nothing`, async () => {
      const before = await snapshot();
      const problems: string[] = [];
      const list = attempts(route.body(f));
      for (const attempt of list.filter(({ label }) => !route.accepts?.(label))) {
        const response = await t.app.inject({
          method: route.method,
          url: route.path?.(f) ?? route.url,
          headers: { ...(route.secured ? admin.auth : {}), ...route.headers?.(f), 'content-type': attempt.contentType },
          payload: attempt.payload,
        });
        const problem = problemWith(response);
        if (problem) problems.push(`${attempt.label} → ${problem}`);
      }
      await t.app.services.alerts.engine.idle();
      expect(problems).toEqual([]);
      expect(await snapshot()).toBe(before);
      expect(list.length).toBeGreaterThan(10);
    });
  }

  // Each measure has a physical range (docs/protocole-appareils.md, Mesures : noms et plages).
  it('refuses a reading no sensor can make (2^60)', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/devices/telemetry',
      headers: { authorization: `Bearer ${f.sensorToken}`, 'content-type': JSON_TYPE },
      payload: `{"temperature":${String(2 ** 60)}}`,
    });
    expect(problemWith(response)).toBeNull();
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toContain('hors de sa plage physique');
  });

  it('answers a query string with NUL or half a character with a 4xx in French', async () => {
    const problems: string[] = [];
    for (const value of ['a%00b', '%ED%A0%80x', 'a\u0000b', encodeURIComponent('x') + '%ud800']) {
      for (const url of [
        `/api/alerts?sensorId=${value}`,
        `/api/reports?siteId=${value}`,
        `/api/sensor/${f.sensorId}/readings?from=${value}`,
      ]) {
        const problem = problemWith(await call('GET', url));
        if (problem) problems.push(`GET ${url} → ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
