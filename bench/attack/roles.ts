/**
 * Family 1 — every authenticated route the server registers (its permission table, the one that
 * stops it at start when a route lacks an entry), called as anonymous, with a device's token,
 * as viewer, manager and admin of organization A, and as the admin of organization B aiming at
 * A's ids. A role the table forbids must get 403 before anything happens (a valid body is sent,
 * so a missing check would act), anonymous 401, another organization 404/403 and never a line of
 * A's data; no call may answer 5xx.
 */
import { randomUUID } from 'node:crypto';
import { ENDPOINTS, endpointKey, ROLES } from '@vigie/contract';
import { type Permission, PERMISSIONS } from '../../apps/server/src/plugins/permissions.ts';
import { type Answer, call, describe, Tally } from './support.ts';
import { PASSWORD, type Fixtures, type World } from './world.ts';

/** A path's parameters after `:id` (a verification's id…): ids of nothing, so the answer is the 404 of another organization's. */
const otherParams = (path: string) => path.replace(/:[A-Za-z]+/g, () => randomUUID());

type Route = { method: string; url: string; permission: Pick<Permission, 'roles' | 'message'> };

export const SECURED_ROUTES: Route[] = Object.entries(PERMISSIONS).map(([key, permission]) => {
  const [method, url] = key.split(' ') as [string, string];
  return { method, url, permission };
});

/** The routes reachable without a user session (devices, sign-in, invitations, health, the API reference), from the catalogue. */
export const PUBLIC_ROUTES = ENDPOINTS.filter((endpoint) => endpoint.access.kind === 'public' || endpoint.access.kind === 'device').map(
  endpointKey,
);

/** The `:id` of a route: which fixture it names. */
function idFor(url: string, f: Fixtures, w: World): string {
  if (url.startsWith('/api/emitter/')) return f.emitterId;
  if (url.startsWith('/api/sensor/')) return f.sensorId;
  if (url.startsWith('/api/sites/')) return f.siteId;
  if (url.startsWith('/api/alert-rules/')) return f.ruleId;
  if (url.startsWith('/api/alerts/')) return f.alertId;
  if (url.startsWith('/api/reports/')) return f.reportId;
  if (url.startsWith('/api/invitations/')) return f.invitationId;
  if (url.startsWith('/api/members/')) return w.viewerA.id;
  return randomUUID();
}

/** A template of the food-safety plan for one site: its opening round. */
const openingRound = (siteId: string) => ({
  name: 'Ouverture de l’attaque',
  kind: 'checklist',
  siteIds: [siteId],
  items: [{ label: 'Chambre froide à 4 °C ou moins', type: 'boolean', expected: true }],
  schedule: { frequency: 'daily', times: ['08:00'], windowMinutes: 60, graceMinutes: 30 },
});

/** A body the route accepts: a role refused must be refused for its role, not for its body. */
export function validBody(method: string, url: string, f: Fixtures): unknown {
  if (method === 'GET' || method === 'DELETE') return undefined;
  const bodies: Record<string, unknown> = {
    'PUT /api/organization/security': { requireTotpForAdmins: false },
    'POST /api/devices/claim': { serial: 'ATTAQUE-INCONNU', claimCode: 'ABCD-EFGH' },
    'POST /api/devices/claim/check': { serial: 'ATTAQUE-INCONNU', claimCode: 'ABCD-EFGH' },
    'POST /api/emitter': { name: 'Émetteur de l’attaque' },
    'PUT /api/emitter/:id': { name: 'Émetteur renommé par l’attaque' },
    'POST /api/sensor': { name: 'Sonde de l’attaque' },
    'PUT /api/sensor/:id': { name: 'Sonde renommée par l’attaque' },
    'POST /api/sites': { name: 'Magasin de l’attaque' },
    'PUT /api/sites/:id': { name: 'Magasin renommé par l’attaque' },
    'POST /api/regions': { name: `Région de l’attaque ${randomUUID().slice(0, 8)}` },
    'PUT /api/regions/:id': { name: 'Région renommée par l’attaque' },
    'POST /api/alert-rules': {
      name: 'Règle de l’attaque',
      sensorId: f.sensorId,
      condition: { type: 'above', key: 'temperature', threshold: 1000 },
      severity: 'warning',
    },
    'PUT /api/alert-rules/:id': { name: 'Règle renommée par l’attaque' },
    'POST /api/rule-templates': { name: 'Modèle de l’attaque', preset: 'chilled_very_perishable', siteIds: [randomUUID()] },
    'PUT /api/rule-templates/:id': { name: 'Modèle renommé par l’attaque' },
    'POST /api/alerts/:id/acknowledge': { comment: 'Vu' },
    'POST /api/alerts/:id/actions': { text: 'Porte refermée' },
    'POST /api/alerts/:id/resolve': { text: 'Réglé' },
    'PUT /api/notification-policy': { emailEnabled: true },
    'POST /api/checks': { siteId: f.siteId, kind: 'product', product: 'Produit de l’attaque', temperature: 3 },
    'POST /api/pauses': { sensorId: f.sensorId, reason: 'Pause de l’attaque', minutes: 30 },
    'POST /api/sensor/:id/calibrations': { verifiedAt: new Date().toISOString(), method: 'Sonde de l’attaque', offset: 0 },
    'PUT /api/sites/:id/on-call': { slots: [], ladder: { smsAfterMinutes: 5, callAfterMinutes: 10, nextAfterMinutes: 15 } },
    'PUT /api/user/phone': { phone: '06 12 34 56 78' },
    'PUT /api/user/digest': { enabled: false },
    'POST /api/user/phone/verify': { code: '123456' },
    'PUT /api/user/quiet-hours': { quietHours: null },
    'POST /api/reports': { siteId: f.siteId, month: new Date().toISOString().slice(0, 7) },
    'POST /api/reports/:id/sign': { comment: 'Signé' },
    'PUT /api/members/:id': { role: 'admin' },
    'POST /api/members/:id/two-factor/reset': { password: PASSWORD },
    'POST /api/invitations': { email: `attaque-${randomUUID().slice(0, 8)}@attaque.example`, role: 'admin' },
    'PUT /api/user/password': { currentPassword: 'pas-le-bon-mot-de-passe', newPassword: 'un-autre-mot-de-passe' },
    'POST /api/user/totp/enable': { code: '000000' },
    'POST /api/user/totp/disable': { password: 'pas-le-bon-mot-de-passe' },
    'POST /api/task-templates': openingRound(f.siteId),
    'PUT /api/task-templates/:id': openingRound(f.siteId),
    'POST /api/tasks/:id/complete': { answers: [] },
    'POST /api/processes': { kind: 'hot_holding', siteId: f.siteId, product: 'Gratin de l’attaque', temperature: 70 },
    'POST /api/processes/:id/readings': { temperature: 70 },
  };
  return bodies[`${method} ${url}`] ?? {};
}

/** GET /api/stream never ends: its status is all that is read. */
async function probe(w: World, method: string, path: string, token: string | undefined, body: unknown): Promise<Answer> {
  if (path.startsWith('/api/stream')) {
    const controller = new AbortController();
    const started = performance.now();
    try {
      const response = await fetch(`${w.server.base}${path}`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
        signal: controller.signal,
      });
      const type = response.headers.get('content-type') ?? '';
      const text = type.includes('json') ? await response.text() : '';
      return { status: response.status, text, type, ms: performance.now() - started, body: text ? JSON.parse(text) : undefined };
    } finally {
      controller.abort();
    }
  }
  return call(w.server.base, method, path, { token, body });
}

const SESSION_ENDING = new Set(['POST /api/auth/logout', 'POST /api/auth/logout-all']);

export async function roleMatrix(w: World): Promise<Tally> {
  const tally = new Tally();
  const actors = { viewer: w.viewerA, manager: w.managerA, admin: w.adminA };
  // Forbidden first, destructive last: a refused call must leave the fixtures for the next.
  const routes = [...SECURED_ROUTES].sort((x, y) => Number(x.method === 'DELETE') - Number(y.method === 'DELETE'));
  for (const route of routes) {
    const key = `${route.method} ${route.url}`;
    const realPath = otherParams(route.url.replace(':id', idFor(route.url, w.a, w)));
    const body = validBody(route.method, route.url, w.a);

    for (const [label, token] of [
      ['anonyme', undefined],
      ['jeton invalide', 'pas.un.jeton'],
      ['jeton d’appareil', w.a.sensorToken],
    ] as const) {
      const answer = await probe(w, route.method, realPath, token, body);
      tally.check(answer.status === 401, () => `${label} : ${describe(route.method, realPath, answer)} (401 attendu)`);
    }

    for (const role of ROLES) {
      const actor = actors[role];
      const allowed = route.permission.roles.includes(role);
      if (!allowed) {
        const answer = await probe(w, route.method, realPath, actor.token, body);
        tally.check(answer.status === 403, () => `${role} : ${describe(route.method, realPath, answer)} (403 attendu)`);
        continue;
      }
      // Allowed: reads aim at the real resource, changes at an unknown id (404), so the fixtures stay.
      const path = route.method === 'GET' ? realPath : otherParams(route.url.replace(':id', randomUUID()));
      const token = SESSION_ENDING.has(key) ? await w.login(actor.email) : actor.token;
      const answer = await probe(w, route.method, path, token, body);
      // Signing out of every device ends the session the matrix uses too: a new one replaces it.
      if (key === 'POST /api/auth/logout-all') actor.token = await w.login(actor.email);
      tally.check(
        answer.status !== 0 && answer.status < 500 && answer.status !== 401 && answer.status !== 403,
        () => `${role} (autorisé) : ${describe(route.method, path, answer)}`,
      );
    }
  }
  return tally;
}

/** Organization B's admin aims at every id of A: 404 or 403, never A's data, never a change. */
export async function crossOrganization(w: World): Promise<Tally> {
  const tally = new Tally();
  const aIds = Object.values(w.a).filter((value) => /^[0-9a-f-]{36}$/.test(value));
  const routes = [...SECURED_ROUTES]
    .filter((route) => route.url.includes(':id'))
    .sort((x, y) => Number(x.method === 'DELETE') - Number(y.method === 'DELETE'));
  for (const route of routes) {
    const path = otherParams(route.url.replace(':id', idFor(route.url, w.a, w)));
    const body = validBody(route.method, route.url, w.b);
    const answer = await probe(w, route.method, path, w.adminB.token, body);
    tally.check(answer.status === 404 || answer.status === 403, () => `organisation B : ${describe(route.method, path, answer)}`);
  }
  // Filters and lists: B asks with A's ids and must see none of A.
  const lists = [
    `/api/sensor?siteId=${w.a.siteId}`,
    `/api/emitter?siteId=${w.a.siteId}`,
    `/api/alert-rules?sensorId=${w.a.sensorId}`,
    `/api/alert-rules?siteId=${w.a.siteId}`,
    `/api/alerts?sensorId=${w.a.sensorId}`,
    `/api/alerts?siteId=${w.a.siteId}`,
    `/api/reports?siteId=${w.a.siteId}`,
    `/api/insights/watch?siteId=${w.a.siteId}`,
    `/api/sensor`,
    `/api/emitter`,
    `/api/sites`,
    `/api/alerts`,
    `/api/alert-rules`,
    `/api/reports`,
    `/api/members`,
    `/api/invitations`,
    `/api/trash`,
    `/api/audit?limit=500`,
    `/api/audit.csv`,
    `/api/audit?actorId=${w.adminA.id}`,
    `/api/tasks?siteId=${w.a.siteId}`,
    `/api/processes?siteId=${w.a.siteId}`,
    `/api/tasks`,
    `/api/processes`,
    `/api/task-templates`,
  ];
  for (const path of lists) {
    const answer = await call(w.server.base, 'GET', path, { token: w.adminB.token });
    const leaked = aIds.filter((id) => answer.text.includes(id)).concat(answer.text.includes(w.adminA.email) ? [w.adminA.email] : []);
    tally.check(
      answer.status > 0 && answer.status < 500 && leaked.length === 0,
      () => `organisation B : GET ${path} → ${answer.status}${leaked.length ? `, montre ${leaked.join(', ')} de A` : ''}`,
    );
  }
  // A device token of B cannot write as, or for, a device of A.
  const foreign = await call(w.server.base, 'POST', '/api/devices/telemetry', {
    token: w.b.sensorToken,
    body: [{ sensor: w.a.sensorId, values: { temperature: 99 } }],
  });
  tally.check(
    foreign.status >= 400 && foreign.status < 500,
    () => `capteur de B écrivant pour A : ${describe('POST', '/api/devices/telemetry', foreign)}`,
  );
  // And A's fixtures are all still there, unchanged by B.
  for (const path of [
    `/api/sensor/${w.a.sensorId}`,
    `/api/sites/${w.a.siteId}`,
    `/api/alert-rules/${w.a.ruleId}`,
    `/api/emitter/${w.a.emitterId}`,
  ]) {
    const answer = await call(w.server.base, 'GET', path, { token: w.adminA.token });
    tally.check(
      answer.status === 200 && !answer.text.includes('par l’attaque'),
      () => `après les essais de B : ${describe('GET', path, answer)}`,
    );
  }
  return tally;
}
