import { randomUUID } from 'node:crypto';
import type { Alert, Role, Rule, Site } from '@vigie/contract';
import { installationKey, provision, sendTelemetry } from './device-helpers.ts';
import { setRole, storedTokenHash } from './test-dal.ts';
import type { TestAccount, TestApp } from './test-app.ts';

/** The real objects of one organization that tests of every route aim at. */
export interface OrganizationObjects {
  sensorId: string;
  sensorToken: string;
  emitterId: string;
  trashedEmitterId: string;
  siteId: string;
  ruleId: string;
  alertId: string;
  viewerId: string;
  installationKey: string;
}

const ROLES: readonly Role[] = ['admin', 'manager', 'viewer'];

/**
 * An organization with an account of each role, a named sensor with an open alert and its rule,
 * an emitter, an emitter in the trash and a site.
 */
export async function seedOrganization(t: TestApp, name: string): Promise<{ accounts: Record<Role, TestAccount>; f: OrganizationObjects }> {
  const organization = `${name} ${randomUUID()}`;
  const accounts = {} as Record<Role, TestAccount>;
  for (const role of ROLES) {
    accounts[role] = await t.createAccount({ organization, name: `Compte ${role}` });
    await setRole(t, accounts[role].id, role);
  }
  const admin = accounts.admin;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: admin.auth, ...(payload === undefined ? {} : { payload }) });
  const sensor = await provision(t, admin, 'sensor');
  const emitter = await provision(t, admin, 'emitter');
  const trashed = await provision(t, admin, 'emitter');
  await call('PUT', `/api/sensor/${sensor.deviceId}`, { name: 'Vitrine crèmerie' });
  if ((await call('DELETE', `/api/emitter/${trashed.deviceId}`)).statusCode !== 204) throw new Error('Émetteur non mis à la corbeille.');
  const site = (await call('POST', '/api/sites', { name: 'Boutique Lyon', timezone: 'Europe/Paris' })).json<{ site: Site }>().site;
  const rule = (
    await call('POST', '/api/alert-rules', { name: 'Crèmerie', sensorId: sensor.deviceId, preset: 'chilled_very_perishable' })
  ).json<{ rule: Rule }>().rule;
  if ((await sendTelemetry(t, sensor.accessToken, { temperature: 12.5 })).statusCode !== 202) throw new Error('Lecture refusée.');
  await t.app.services.alerts.engine.idle();
  const [alert] = (await call('GET', `/api/alerts?sensorId=${sensor.deviceId}`)).json<{ alerts: Alert[] }>().alerts;
  if (!alert) throw new Error("La température hors limite n'a pas ouvert d'alerte.");
  return {
    accounts,
    f: {
      sensorId: sensor.deviceId,
      sensorToken: sensor.accessToken,
      emitterId: emitter.deviceId,
      trashedEmitterId: trashed.deviceId,
      siteId: site.id,
      ruleId: rule.id,
      alertId: alert.id,
      viewerId: accounts.viewer.id,
      installationKey: await installationKey(t, admin),
    },
  };
}

/** What changes a device's reading of itself without anyone acting: not compared. */
const VOLATILE = new Set(['status', 'lastSeenAt', 'latest', 'battery', 'updatedAt']);
const DEVICE_LISTS = new Set(['/api/sensor', '/api/emitter']);
const withoutVolatile = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(withoutVolatile)
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).flatMap(([key, inner]) => (VOLATILE.has(key) ? [] : [[key, withoutVolatile(inner)]])))
      : value;

/** The organization as its admin (`adminToken`) sees it, and its devices' stored tokens. */
export async function organizationSnapshot(t: TestApp, adminToken: string, f: OrganizationObjects): Promise<string> {
  const reads = [
    '/api/sensor',
    '/api/emitter',
    '/api/trash',
    '/api/sites',
    '/api/alert-rules',
    '/api/alerts',
    '/api/notification-policy',
    '/api/organization/installation-key',
    `/api/reports?siteId=${f.siteId}`,
    '/api/members',
    '/api/invitations',
    '/api/integrations',
    '/api/lorawan/devices',
    '/api/lorawan/pending',
    '/api/task-templates',
    '/api/tasks',
    '/api/processes',
  ];
  const seen = await Promise.all(
    reads.map(async (url) => {
      const response = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${adminToken}` } });
      const json: unknown = response.statusCode === 200 ? response.json() : null;
      return [url, response.statusCode, DEVICE_LISTS.has(url) ? withoutVolatile(json) : json];
    }),
  );
  const tokens = await Promise.all([f.sensorId, f.emitterId, f.trashedEmitterId].map((id) => storedTokenHash(t, id)));
  return JSON.stringify({ seen, tokens });
}
