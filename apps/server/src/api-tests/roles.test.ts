import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { Role } from '@vigie/contract';
import Fastify, { type LightMyRequestResponse } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../db/database.ts';
import { registerErrorHandler } from '../plugins/error-handler.ts';
import type * as PermissionsModule from '../plugins/permissions.ts';
import { enforcePermissions, type PermissionTable, registeredRoutes } from '../plugins/permissions.ts';
import { openStream } from '../test/sse-client.ts';
import { type OrganizationObjects, organizationSnapshot, seedOrganization } from '../test/organization-fixture.ts';
import {
  createTestApp,
  databaseKind,
  memoryTemplate,
  TEST_JWT_SECRET,
  testConfig,
  type TestAccount,
  type TestApp,
} from '../test/test-app.ts';

const EVERYONE: Role[] = ['admin', 'manager', 'viewer'];
const MANAGERS: Role[] = ['admin', 'manager'];
const ADMINS: Role[] = ['admin'];

/**
 * The roles of docs/api.md (Rôles) written out on their own, not read from the permission table, so that a wrong entry
 * in the table fails here: a viewer reads everything but the installation key, acknowledges
 * alerts, follows the live stream, and manages their own sessions, password and push subscriptions; members and invitations are an admin's; every other change is an admin's or
 * a manager's.
 */
function expectedRoles(method: string, url: string): Role[] {
  if (url.startsWith('/api/invitations')) return ADMINS;
  // API keys act for the organization: an admin's.
  if (url.startsWith('/api/api-keys')) return ADMINS;
  // The SCIM token lets an identity provider add and remove members: an admin's.
  if (url === '/api/organization/scim-token') return ADMINS;
  // Who did what: the audit trail is read by admins only.
  if (url.startsWith('/api/audit')) return ADMINS;
  // Single sign-on decides who enters the organization and with which role: an admin's, read and written.
  if (url === '/api/organization/sso') return ADMINS;
  // Requiring two-factor authentication of admins is an admin's decision.
  if (url === '/api/organization/security') return method === 'GET' ? EVERYONE : ADMINS;
  if (url.startsWith('/api/members')) return method === 'GET' ? EVERYONE : ADMINS;
  // Regions shape the members' scopes: an admin's.
  if (url.startsWith('/api/regions')) return method === 'GET' ? EVERYONE : ADMINS;
  // Organization-wide rule templates: an admin's.
  if (url.startsWith('/api/rule-templates')) return method === 'GET' ? EVERYONE : ADMINS;
  // The installation key adds devices to the organization: a change in all but name.
  if (url === '/api/organization/installation-key') return MANAGERS;
  // The food-safety plan's templates are the quality manager's, read and written.
  if (url.startsWith('/api/task-templates')) return MANAGERS;
  // An integration's health (its refused messages, the DevEUIs it heard): read by those who manage integrations.
  if (url === '/api/integrations/:id/health') return MANAGERS;
  if (method === 'GET') return EVERYONE;
  // One's own sessions and password.
  if (['/api/auth/logout', '/api/auth/logout-all', '/api/user/password'].includes(url)) return EVERYONE;
  if (url.startsWith('/api/user/totp/')) return EVERYONE;
  // The browsers where one receives one's own alerts.
  if (url === '/api/user/push-subscriptions') return EVERYONE;
  // One's own phone and quiet hours (a site's rota is a manager's).
  if (url.startsWith('/api/user/phone') || url === '/api/user/quiet-hours') return EVERYONE;
  // One's own morning digest.
  if (url === '/api/user/digest') return EVERYONE;
  if (/^\/api\/alerts\/:id\/acknowledge$/.test(url)) return EVERYONE;
  // A temperature taken by hand is noted by whoever took it (the clerk at the back door).
  if (url === '/api/checks') return EVERYONE;
  return MANAGERS;
}

/** Bodies a permitted caller could really send; a refused one must change nothing with them. */
const PAYLOADS: Record<string, (f: Fixtures) => unknown> = {
  'POST /api/emitter': () => ({ name: 'Émetteur ajouté' }),
  'POST /api/sensor': () => ({ name: 'Sonde ajoutée' }),
  'PUT /api/emitter/:id': () => ({ name: 'Émetteur renommé' }),
  'PUT /api/sensor/:id': () => ({ name: 'Sonde renommée' }),
  'POST /api/sites': () => ({ name: 'Magasin ajouté', timezone: 'Europe/Paris' }),
  'PUT /api/sites/:id': () => ({ name: 'Magasin renommé' }),
  'POST /api/alert-rules': (f) => ({ name: 'Règle ajoutée', sensorId: f.sensorId, preset: 'chilled_very_perishable' }),
  'PUT /api/alert-rules/:id': () => ({ name: 'Règle renommée', enabled: false }),
  'POST /api/rule-templates': () => ({ name: 'Modèle des rôles', preset: 'chilled_very_perishable', siteIds: [randomUUID()] }),
  'PUT /api/rule-templates/:id': () => ({ name: 'Modèle renommé' }),
  'POST /api/alerts/:id/acknowledge': () => ({ comment: 'Je regarde' }),
  'POST /api/alerts/:id/actions': () => ({ text: 'Porte refermée' }),
  'POST /api/alerts/:id/resolve': () => ({ text: 'Joint changé' }),
  'PUT /api/notification-policy': () => ({ repeatMinutes: 45 }),
  'POST /api/checks': (f) => ({ siteId: f.siteId, kind: 'product', product: 'Jambon blanc', temperature: 3.2 }),
  'POST /api/sensor/:id/calibrations': () => ({ verifiedAt: new Date().toISOString(), method: 'Sonde étalon des rôles', offset: 0 }),
  'POST /api/pauses': (f) => ({ sensorId: f.sensorId, reason: 'Nettoyage', minutes: 30 }),
  // A push service the test app refuses (loopback): the call is judged on its role, then its address.
  'POST /api/user/push-subscriptions': () => ({
    endpoint: 'http://127.0.0.1:9/push/roles',
    keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) },
  }),
  'DELETE /api/user/push-subscriptions': () => ({ endpoint: 'https://push.example.fr/roles' }),
  // No SMS provider in the test app: a permitted caller is told so (400), after the role check.
  'PUT /api/user/phone': () => ({ phone: '06 12 34 56 78' }),
  'POST /api/user/phone/verify': () => ({ code: '123456' }),
  'PUT /api/user/quiet-hours': () => ({ quietHours: { from: '22:00', to: '07:00' } }),
  'PUT /api/user/digest': () => ({ enabled: false }),
  'PUT /api/sites/:id/on-call': () => ({ slots: [], ladder: { smsAfterMinutes: 5, callAfterMinutes: 10, nextAfterMinutes: 15 } }),
  // A site of no one: a permitted caller gets a 404 rather than a report rendered for nothing.
  'POST /api/reports': () => ({ siteId: randomUUID(), month: '2026-10' }),
  'POST /api/reports/:id/sign': () => ({ comment: 'Vu' }),
  'POST /api/devices/claim': () => ({ serial: 'SN-ROLES-0001', claimCode: 'ABCD-EFGH-JKLM' }),
  'POST /api/devices/claim/check': () => ({ serial: 'SN-ROLES-0001', claimCode: 'ABCD-EFGH-JKLM' }),
  'PUT /api/members/:id': () => ({ role: 'admin' }),
  'POST /api/regions': () => ({ name: `Région ${randomUUID().slice(0, 8)}` }),
  'PUT /api/regions/:id': () => ({ name: 'Région renommée' }),
  'POST /api/integrations': () => ({ type: 'chirpstack', name: 'ChirpStack des rôles' }),
  'POST /api/lorawan/codecs/test': () => ({ source: 'function decodeUplink(i) { return { data: { x: i.bytes[0] } }; }', payloadHex: '01' }),
  'POST /api/lorawan/codecs': () => ({
    name: 'Décodeur des rôles',
    source: 'function decodeUplink(i) { return { data: { x: i.bytes[0] } }; }',
    payloadHex: '01',
  }),
  'POST /api/lorawan/devices': () => ({ devEui: randomUUID().replaceAll('-', '').slice(0, 16), codec: 'cayenne-lpp' }),
  'POST /api/members/:id/two-factor/reset': () => ({ password: 'mot de passe de l’administrateur' }),
  'POST /api/invitations': () => ({ email: `invite-${randomUUID()}@example.fr`, role: 'admin' }),
  'POST /api/api-keys': () => ({ name: 'Clé des rôles', role: 'viewer' }),
  'POST /api/task-templates': (f) => ({
    name: 'Ouverture des rôles',
    kind: 'checklist',
    siteIds: [f.siteId],
    items: [{ label: 'Chambre froide à 4 °C ou moins', type: 'boolean', expected: true }],
    schedule: { frequency: 'daily', times: ['08:00'], windowMinutes: 60, graceMinutes: 30 },
  }),
  'PUT /api/task-templates/:id': (f) => ({
    name: 'Ouverture renommée',
    kind: 'checklist',
    siteIds: [f.siteId],
    items: [{ label: 'Chambre froide à 4 °C ou moins', type: 'boolean', expected: true }],
    schedule: { frequency: 'daily', times: ['08:00'], windowMinutes: 60, graceMinutes: 30 },
  }),
  'POST /api/tasks/:id/complete': () => ({ answers: [] }),
  'POST /api/processes': (f) => ({ kind: 'hot_holding', siteId: f.siteId, product: 'Gratin des rôles', temperature: 70 }),
  'POST /api/processes/:id/readings': () => ({ temperature: 70 }),
};

type Fixtures = OrganizationObjects;

/**
 * The id a call names: a real object of the organization, so that a refusal is seen to leave it
 * alone; a permitted deletion (and a permitted change of members) aims at no one, so that the
 * objects stay for the next calls.
 */
function idFor(method: string, url: string, allowed: boolean, f: Fixtures): string {
  if (allowed && (method === 'DELETE' || url.startsWith('/api/members') || url.startsWith('/api/invitations'))) return randomUUID();
  if (url.startsWith('/api/sensor/')) return f.sensorId;
  if (url.startsWith('/api/emitter/')) return url.endsWith('/restore') ? f.trashedEmitterId : f.emitterId;
  if (url.startsWith('/api/sites/')) return f.siteId;
  if (url.startsWith('/api/alert-rules/')) return f.ruleId;
  if (url.startsWith('/api/alerts/')) return f.alertId;
  if (url.startsWith('/api/members/')) return f.viewerId;
  return randomUUID();
}

describe(`roles on every authenticated route (${databaseKind})`, { timeout: 180_000 }, () => {
  let t: TestApp;
  let baseUrl: string;
  let accounts: Record<Role, TestAccount>;
  let f: Fixtures;

  const call = (token: string, method: string, url: string, payload?: unknown): Promise<LightMyRequestResponse> =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  const snapshot = () => organizationSnapshot(t, accounts.admin.token, f);

  beforeAll(async () => {
    t = await createTestApp();
    ({ baseUrl } = await t.listen());
    ({ accounts, f } = await seedOrganization(t, 'Épicerie des rôles'));
  });
  afterAll(() => t?.close());

  it('knows what each role may do on every route the app has registered', () => {
    const routes = registeredRoutes(t.app);
    // The core of the API is there; routes still to come (members) join the matrix when registered.
    expect(routes.length).toBeGreaterThanOrEqual(50);
    const wrong = routes
      .filter(({ method, url, permission }) => expectedRoles(method, url).join() !== [...permission.roles].sort().join())
      .map(({ method, url, permission }) => `${method} ${url}: ${permission.roles.join(', ')}`);
    expect(wrong).toEqual([]);
  });

  it('asks for a session on every one of them', async () => {
    const open = [];
    for (const { method, url } of registeredRoutes(t.app)) {
      const response = await t.app.inject({ method, url: url.replace(':id', randomUUID()) });
      if (response.statusCode !== 401) open.push(`${method} ${url} → ${response.statusCode}`);
    }
    expect(open).toEqual([]);
  });

  // The viewer first: every refusal is tried on objects no permitted call has touched yet.
  for (const role of ['viewer', 'manager', 'admin'] as const) {
    it(`lets the ${role} do exactly what docs/api.md (Rôles) allows, and refuses the rest with a 403 that changes nothing`, async () => {
      const problems: string[] = [];
      const routes = registeredRoutes(t.app);
      expect(routes.length).toBeGreaterThan(0);
      for (const { method, url } of routes) {
        const key = `${method} ${url}`;
        const allowed = expectedRoles(method, url).includes(role);
        const path = url.replace(':id', idFor(method, url, allowed, f));
        const payload = PAYLOADS[key]?.(f);

        if (url === '/api/stream') {
          const stream = await openStream(baseUrl, accounts[role].token);
          const status = stream.response.status;
          await stream.close();
          if (allowed ? status === 403 : status !== 403) problems.push(`${key} → ${status}`);
          continue;
        }
        // Logging out ends the session it is called with: a session of its own.
        const token =
          url === '/api/auth/logout'
            ? (
                await t.app.inject({
                  method: 'POST',
                  url: '/api/auth/login',
                  payload: { email: accounts[role].email, password: accounts[role].password },
                })
              ).json<{ accessToken: string }>().accessToken
            : accounts[role].token;

        const before = allowed ? '' : await snapshot();
        const response = await call(token, method, path, payload);
        // Logging out everywhere ended the account's own session too: it signs in again.
        if (url === '/api/auth/logout-all' && response.statusCode === 204) {
          const again = await t.app.inject({
            method: 'POST',
            url: '/api/auth/login',
            payload: { email: accounts[role].email, password: accounts[role].password },
          });
          const accessToken = again.json<{ accessToken: string }>().accessToken;
          accounts[role] = { ...accounts[role], token: accessToken, auth: { authorization: `Bearer ${accessToken}` } };
        }
        if (allowed) {
          if (response.statusCode === 403) problems.push(`${key} refused: ${response.body}`);
          continue;
        }
        if (response.statusCode !== 403) {
          problems.push(`${key} → ${response.statusCode}, 403 expected`);
          continue;
        }
        const { message } = response.json<{ message?: unknown }>();
        if (typeof message !== 'string' || !/^Seuls? un administrateur .+\.$/.test(message)) problems.push(`${key}: message ${message}`);
        if ((await snapshot()) !== before) problems.push(`${key} refused, yet something changed`);
      }
      expect(problems).toEqual([]);
    });
  }

  it('refuses before reading the body, and after asking who is calling', async () => {
    const url = `/api/sensor/${f.sensorId}`;
    const headers = { 'content-type': 'application/json' };
    const garbled = await t.app.inject({ method: 'PUT', url, headers: { ...headers, ...accounts.viewer.auth }, payload: '{"name":' });
    expect(garbled.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'PUT', url, headers, payload: '{"name":"Volé"}' })).statusCode).toBe(401);
    expect((await call(accounts.viewer.token, 'GET', '/api/user/me')).json<{ user: { role: Role } }>().user.role).toBe('viewer');
  });
});

describe('the permission table', () => {
  const table = {
    'GET /api/things': { roles: EVERYONE, message: '', scope: { kind: 'sites' } },
    'POST /api/things': { roles: ADMINS, message: 'Seul un administrateur peut ajouter une chose.', scope: { kind: 'sites' } },
    'DELETE /api/things/:id': { roles: ADMINS, message: 'Seul un administrateur peut retirer une chose.', scope: { kind: 'sites' } },
  } satisfies PermissionTable;

  async function appWith(routes: (scope: ReturnType<typeof Fastify>) => void, role: Role = 'viewer') {
    const app = Fastify();
    registerErrorHandler(app);
    app.decorateRequest('user', null);
    await app.register(
      async (api) => {
        api.addHook('onRequest', async (request) => {
          request.user = { id: randomUUID(), name: null, email: 'a@example.fr', role, organization: { id: randomUUID(), name: 'Org' } };
        });
        enforcePermissions(api, table);
        routes(api);
      },
      { prefix: '/api' },
    );
    return app;
  }

  it('stops the app when a secured route has no entry, naming it', async () => {
    await expect(
      appWith((api) => {
        api.get('/things', async () => ({}));
        api.put('/things/:id', async () => ({}));
      }),
    ).rejects.toThrow('« PUT /api/things/:id »');
  });

  it('lets entries wait for routes not registered yet, and says which ones exist', async () => {
    const app = await appWith((api) => {
      api.get('/things', async () => ({ things: [] }));
      api.post('/things', async () => ({}));
    });
    await app.ready();
    expect(registeredRoutes(app, table).map(({ method, url }) => `${method} ${url}`)).toEqual(['GET /api/things', 'POST /api/things']);
    expect((await app.inject({ method: 'GET', url: '/api/things' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'HEAD', url: '/api/things' })).statusCode).toBe(200);
    const refused = await app.inject({ method: 'POST', url: '/api/things' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'Seul un administrateur peut ajouter une chose.' });
    await app.close();
  });

  it('keeps the real app from starting when a secured route is forgotten', async () => {
    vi.resetModules();
    vi.doMock('../plugins/permissions.ts', async (importOriginal) => {
      const actual = await importOriginal<typeof PermissionsModule>();
      return {
        ...actual,
        PERMISSIONS: Object.fromEntries(Object.entries(actual.PERMISSIONS).filter(([key]) => key !== 'PUT /api/sensor/:id')),
      };
    });
    const config = testConfig();
    const logger = pino({ level: 'silent' });
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      inMemory: !config.databaseUrl,
      memoryTemplate: memoryTemplate(),
      logger,
    });
    try {
      const { buildApp } = await import('../app.ts');
      await expect(buildApp({ config, database, jwtSecret: TEST_JWT_SECRET, logger })).rejects.toThrow('« PUT /api/sensor/:id »');
    } finally {
      vi.doUnmock('../plugins/permissions.ts');
      vi.resetModules();
      await database.close();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    }
  });
});
