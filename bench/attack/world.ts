/**
 * One database's world for the attack: the server, a real SMTP server, two organizations — A with
 * an admin, a manager and a viewer (invited through the API), B with its own admin — and in A one
 * of each resource, so that every route with an id has something real to aim at.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { SmtpCatcher } from '../../apps/server/src/test/smtp-catcher.ts';
import { call, createAccount, ok, pool, type Vigie, waitFor } from './support.ts';

export const PASSWORD = 'attaque-mot-de-passe-1';

export interface Account {
  email: string;
  token: string;
  id: string;
}

export interface Fixtures {
  siteId: string;
  sensorId: string;
  sensorToken: string;
  emitterId: string;
  ruleId: string;
  alertId: string;
  reportId: string;
  invitationId: string;
}

export interface World {
  database: string;
  server: Vigie;
  smtp: SmtpCatcher;
  adminA: Account;
  managerA: Account;
  viewerA: Account;
  adminB: Account;
  a: Fixtures;
  b: Fixtures;
  installationKeyA: string;
  /** A fresh session of the account (for the calls that end their own session). */
  login(email: string): Promise<string>;
}

export const ACCOUNTS = {
  adminA: 'admin-a@attaque.example',
  managerA: 'responsable-a@attaque.example',
  viewerA: 'lecteur-a@attaque.example',
  adminB: 'admin-b@attaque.example',
} as const;

/** The accounts the operator makes before the server starts. */
export function createAdmins(env: NodeJS.ProcessEnv): void {
  createAccount(env, ACCOUNTS.adminA, PASSWORD, 'Attaque A');
  createAccount(env, ACCOUNTS.adminB, PASSWORD, 'Attaque B');
}

async function signIn(base: string, email: string): Promise<string> {
  const { accessToken } = await ok<{ accessToken: string }>(base, 'POST', '/api/auth/login', { body: { email, password: PASSWORD } });
  return accessToken;
}

async function me(base: string, token: string): Promise<string> {
  return (await ok<{ user: { id: string } }>(base, 'GET', '/api/user/me', { token })).user.id;
}

async function invite(base: string, smtp: SmtpCatcher, adminToken: string, email: string, role: string): Promise<Account> {
  await ok(base, 'POST', '/api/invitations', { token: adminToken, body: { email, role } });
  let secret: string | undefined;
  await waitFor(
    `l'invitation de ${email}`,
    async () => {
      const mail = smtp.received.find((m) => m.text?.includes('/invitation#') && JSON.stringify(m.to).includes(email));
      secret = mail?.text?.match(/\/invitation#([A-Za-z0-9_-]+)/)?.[1];
      return secret !== undefined;
    },
    30_000,
  );
  if (!secret) throw new Error(`Aucun e-mail d'invitation pour ${email}`);
  const { accessToken } = await ok<{ accessToken: string }>(base, 'POST', '/api/invitations/accept', {
    body: { token: secret, name: role === 'viewer' ? 'Lecteur A' : 'Responsable A', password: PASSWORD },
  });
  return { email, token: accessToken, id: await me(base, accessToken) };
}

/** One of each resource in the organization of `token`, an alert opened by a real reading included. */
export async function seedResources(base: string, token: string, label: string): Promise<Fixtures> {
  const { site } = await ok<{ site: { id: string } }>(base, 'POST', '/api/sites', { token, body: { name: `Magasin ${label}` } });
  const { sensor } = await ok<{ sensor: { id: string } }>(base, 'POST', '/api/sensor', { token, body: { name: `Sonde ${label}` } });
  await ok(base, 'PUT', `/api/sensor/${sensor.id}`, { token, body: { siteId: site.id } });
  const { emitter } = await ok<{ emitter: { id: string } }>(base, 'POST', '/api/emitter', { token, body: { name: `Émetteur ${label}` } });
  const { accessToken: sensorToken } = await ok<{ accessToken: string }>(base, 'POST', `/api/sensor/${sensor.id}/token`, { token });
  const { rule } = await ok<{ rule: { id: string } }>(base, 'POST', '/api/alert-rules', {
    token,
    body: {
      name: `Règle ${label}`,
      sensorId: sensor.id,
      condition: { type: 'above', key: 'temperature', threshold: 8 },
      severity: 'warning',
    },
  });
  await ok(base, 'POST', '/api/devices/telemetry', {
    token: sensorToken,
    body: { id: randomUUID(), values: { temperature: 12 } },
  });
  let alertId = '';
  await waitFor(`l'alerte de ${label}`, async () => {
    const { alerts } = await ok<{ alerts: { id: string }[] }>(base, 'GET', `/api/alerts?sensorId=${sensor.id}`, { token });
    alertId = alerts[0]?.id ?? '';
    return alertId !== '';
  });
  if (!alertId) throw new Error(`Aucune alerte ouverte pour ${label}`);
  const month = new Date().toISOString().slice(0, 7);
  const { report } = await ok<{ report: { id: string } }>(base, 'POST', '/api/reports', { token, body: { siteId: site.id, month } });
  const invited = await call(base, 'POST', '/api/invitations', {
    token,
    body: { email: `invite-${label.toLowerCase()}-${randomUUID().slice(0, 6)}@attaque.example`, role: 'viewer' },
  });
  const invitationId = (invited.body as { invitation?: { id: string } } | undefined)?.invitation?.id ?? randomUUID();
  return {
    siteId: site.id,
    sensorId: sensor.id,
    sensorToken,
    emitterId: emitter.id,
    ruleId: rule.id,
    alertId,
    reportId: report.id,
    invitationId,
  };
}

export async function buildWorld(database: string, server: Vigie, smtp: SmtpCatcher): Promise<World> {
  const adminAToken = await signIn(server.base, ACCOUNTS.adminA);
  const adminBToken = await signIn(server.base, ACCOUNTS.adminB);
  const [managerA, viewerA] = await pool(
    [
      [ACCOUNTS.managerA, 'manager'],
      [ACCOUNTS.viewerA, 'viewer'],
    ] as const,
    1,
    ([email, role]) => invite(server.base, smtp, adminAToken, email, role),
  );
  const a = await seedResources(server.base, adminAToken, 'A');
  const b = await seedResources(server.base, adminBToken, 'B');
  const { installationKey } = await ok<{ installationKey: string }>(server.base, 'GET', '/api/organization/installation-key', {
    token: adminAToken,
  });
  // The invitation e-mails are sent; the alert e-mails of the fixtures may still be on their way.
  await delay(200);
  return {
    database,
    server,
    smtp,
    adminA: { email: ACCOUNTS.adminA, token: adminAToken, id: await me(server.base, adminAToken) },
    managerA: managerA as Account,
    viewerA: viewerA as Account,
    adminB: { email: ACCOUNTS.adminB, token: adminBToken, id: await me(server.base, adminBToken) },
    a,
    b,
    installationKeyA: installationKey,
    login: (email) => signIn(server.base, email),
  };
}
