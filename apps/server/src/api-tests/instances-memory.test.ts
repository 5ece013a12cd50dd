import type { Sensor, SensorListResponse } from '@vigie/contract';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEvent } from '../modules/events/live-event.ts';
import { provision, sendTelemetry } from '../test/device-helpers.ts';
import { createTestApp, databaseKind, isolatedDatabase, type TestAccount, type TestApp } from '../test/test-app.ts';

/**
 * Two instances on one PostgreSQL, each answering accounts and device lists from memory: what one
 * changes, the other stops answering from memory as soon as the bus tells it, and while its bus is
 * down it reads the database on every request. (The embedded database has a single instance.)
 */
describe.skipIf(databaseKind !== 'PostgreSQL')('memory shared by instances (PostgreSQL)', { timeout: 120_000 }, () => {
  let isolated: Awaited<ReturnType<typeof isolatedDatabase>>;
  let a: TestApp;
  let b: TestApp;
  let owner: TestAccount;
  const listen = `vigie-memory-b-${process.pid}`;

  /** Resolves once `app` has heard an event of this type (its own services heard it first). */
  function heard(app: TestApp, type: LiveEvent['type'], matches: (event: LiveEvent) => boolean = () => true): Promise<void> {
    return new Promise((resolve) => {
      const stop = app.app.services.events.subscribeAll((event) => {
        if (event.type !== type || !matches(event)) return;
        stop();
        resolve();
      });
    });
  }
  const sensorsSeenBy = async (app: TestApp, account: TestAccount) => {
    const response = await app.app.inject({ url: '/api/sensor', headers: account.auth });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<SensorListResponse>().sensors;
  };

  beforeAll(async () => {
    isolated = await isolatedDatabase();
    if (!isolated) throw new Error('PostgreSQL attendu');
    a = await createTestApp({ env: { DATABASE_URL: isolated.url }, rateLimitScope: 'memory' });
    b = await createTestApp({ env: { DATABASE_URL: isolated.url }, rateLimitScope: 'memory', applicationName: listen });
    owner = await a.createAccount();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await isolated?.drop();
  });

  it('lists on one instance the sensor created on the other, and its newest reading', async () => {
    await expect.poll(() => b.database.pubsub.live() && a.database.pubsub.live()).toBe(true);
    expect(await sensorsSeenBy(b, owner)).toEqual([]);
    const changed = heard(b, 'devices-changed');
    const sensor = await provision(a, owner, 'sensor');
    await changed;
    expect((await sensorsSeenBy(b, owner)).map((listed: Sensor) => listed.id)).toEqual([sensor.deviceId]);

    const reading = heard(b, 'reading', (event) => event.type === 'reading' && event.data.deviceId === sensor.deviceId);
    expect((await sendTelemetry(a, sensor.accessToken, { temperature: 3.5, battery: 88 })).statusCode).toBeLessThan(300);
    await reading;
    const [listed] = await sensorsSeenBy(b, owner);
    expect(listed?.latest['temperature']?.value).toBe(3.5);
    expect(listed?.battery).toBe(88);
    expect(listed?.status).toBe('online');

    const renamed = heard(b, 'devices-changed');
    const response = await a.app.inject({
      method: 'PUT',
      url: `/api/sensor/${sensor.deviceId}`,
      headers: owner.auth,
      payload: { name: 'Vitrine' },
    });
    expect(response.statusCode, response.body).toBe(200);
    await renamed;
    expect((await sensorsSeenBy(b, owner))[0]?.name).toBe('Vitrine');
  });

  it('refuses on one instance a session ended on the other', async () => {
    const account = await a.createAccount();
    expect((await b.app.inject({ url: '/api/sensor', headers: account.auth })).statusCode).toBe(200);
    const ended = heard(b, 'session-ended');
    expect((await a.app.inject({ method: 'POST', url: '/api/auth/logout', headers: account.auth })).statusCode).toBeLessThan(300);
    await ended;
    expect((await b.app.inject({ url: '/api/sensor', headers: account.auth })).statusCode).toBe(401);
  });

  it('applies on one instance a role changed on the other', async () => {
    const organization = `Org ${crypto.randomUUID()}`;
    const admin = await a.createAccount({ organization, name: 'Admin' });
    const member = await a.createAccount({ organization, name: 'Bea' });
    const role = async () =>
      (await b.app.inject({ url: '/api/user/me', headers: member.auth })).json<{ user: { role: string } }>().user.role;
    expect(await role()).not.toBe('viewer');
    const changed = heard(b, 'account-changed');
    const response = await a.app.inject({
      method: 'PUT',
      url: `/api/members/${member.id}`,
      headers: admin.auth,
      payload: { role: 'viewer' },
    });
    expect(response.statusCode, response.body).toBe(200);
    await changed;
    expect(await role()).toBe('viewer');
    const refused = await b.app.inject({ method: 'POST', url: '/api/sensor', headers: member.auth, payload: { name: 'Interdit' } });
    expect(refused.statusCode).toBe(403);
  });

  it('reads the database on every request while its bus is down, and trusts memory again once it is back', async () => {
    expect(await sensorsSeenBy(b, owner)).toHaveLength(1);
    const admin = new pg.Client({ connectionString: isolated?.url });
    await admin.connect();
    try {
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [`${listen}-listen`]);
      await expect.poll(() => b.database.pubsub.live()).toBe(false);
      // What a changes now, b never hears: it reads it.
      const second = await provision(a, owner, 'sensor');
      expect((await sensorsSeenBy(b, owner)).map((listed) => listed.id)).toContain(second.deviceId);
      const other = await a.createAccount();
      expect((await b.app.inject({ url: '/api/sensor', headers: other.auth })).statusCode).toBe(200);
      expect((await a.app.inject({ method: 'POST', url: '/api/auth/logout', headers: other.auth })).statusCode).toBeLessThan(300);
      expect((await b.app.inject({ url: '/api/sensor', headers: other.auth })).statusCode).toBe(401);
      await expect.poll(() => b.database.pubsub.live(), { timeout: 10_000 }).toBe(true);
      expect(await sensorsSeenBy(b, owner)).toHaveLength(2);
    } finally {
      await admin.end();
    }
  });
});
