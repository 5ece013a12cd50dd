import { randomUUID } from 'node:crypto';
import type { Alert, Integration, NotificationPolicy, Site } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devEui, ttsUplink } from '../test/lorawan-uplinks.ts';
import { installationKey, provision, sendTelemetry } from '../test/device-helpers.ts';
import { openStream } from '../test/sse-client.ts';
import { setRole } from '../test/test-dal.ts';
import { createTestApp, databaseKind, type TestAccount, type TestApp } from '../test/test-app.ts';

/**
 * What a member who sees one shop must never learn of another (docs/api.md, Régions et portées):
 * the LoRaWAN devices of the other shops and the devices detected (which no site owns), the
 * webhook's signing secret, and the live stream's events of every kind for a device of another shop.
 */
describe(`scope leaks (${databaseKind})`, { timeout: 60_000 }, () => {
  let t: TestApp;
  let baseUrl: string;
  let admin: TestAccount;
  let manager: TestAccount;
  let viewer: TestAccount;
  let scopedAdmin: TestAccount;
  const sites: Record<'lyon' | 'lille', Site> = {} as never;

  const call = (account: TestAccount, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: account.auth, ...(payload === undefined ? {} : { payload }) });

  beforeAll(async () => {
    t = await createTestApp();
    ({ baseUrl } = await t.listen());
    const organization = `Chaîne ${randomUUID()}`;
    admin = await t.createAccount({ organization, name: 'Directrice qualité' });
    manager = await t.createAccount({ organization, name: 'Responsable Lyon' });
    viewer = await t.createAccount({ organization, name: 'Vendeur Lyon' });
    scopedAdmin = await t.createAccount({ organization, name: 'Administrateur Lyon' });
    await setRole(t, manager.id, 'manager');
    await setRole(t, viewer.id, 'viewer');
    // The organization's first site, where a device that names none is installed: neither shop.
    expect((await call(admin, 'GET', '/api/sites')).statusCode).toBe(200);
    for (const city of ['lyon', 'lille'] as const) {
      sites[city] = (await call(admin, 'POST', '/api/sites', { name: `Magasin ${city}` })).json<{ site: Site }>().site;
    }
    for (const member of [manager, viewer, scopedAdmin]) {
      const scoped = await call(admin, 'PUT', `/api/members/${member.id}`, { scope: { siteIds: [sites.lyon.id] } });
      expect(scoped.statusCode, scoped.body).toBe(200);
    }
  });
  afterAll(() => t.close());

  it('lists a scoped member the LoRaWAN devices of their shop only, no device detected, and refuses them its dismissal', async () => {
    const integration = (await call(admin, 'POST', '/api/integrations', { type: 'tts', name: 'Réseau' })).json<{
      integration: Integration & { secret: string };
    }>().integration;
    const registered: Record<'lyon' | 'lille', string> = {} as never;
    for (const city of ['lyon', 'lille'] as const) {
      const eui = devEui();
      const response = await call(admin, 'POST', '/api/lorawan/devices', {
        devEui: eui,
        codec: 'milesight-em300-th',
        siteId: sites[city].id,
      });
      expect(response.statusCode, response.body).toBe(201);
      registered[city] = eui;
      const uplink = await t.app.inject({
        method: 'POST',
        url: `/api/integrations/${integration.id}/events`,
        headers: { authorization: `Bearer ${integration.secret}` },
        payload: ttsUplink(eui),
      });
      expect(uplink.statusCode).toBe(200);
    }
    const stranger = devEui();
    await t.app.inject({
      method: 'POST',
      url: `/api/integrations/${integration.id}/events`,
      headers: { authorization: `Bearer ${integration.secret}` },
      payload: ttsUplink(stranger),
    });

    const everything = (await call(admin, 'GET', '/api/lorawan/devices')).json<{ devices: { devEui: string }[] }>().devices;
    expect(everything.map((device) => device.devEui).sort()).toEqual([registered.lyon, registered.lille].sort());
    expect(
      (await call(admin, 'GET', '/api/lorawan/pending')).json<{ devices: { devEui: string }[] }>().devices.map((d) => d.devEui),
    ).toEqual([stranger]);
    for (const member of [manager, viewer, scopedAdmin]) {
      const listed = await call(member, 'GET', '/api/lorawan/devices');
      expect(listed.statusCode).toBe(200);
      expect(listed.json<{ devices: { devEui: string }[] }>().devices.map((device) => device.devEui)).toEqual([registered.lyon]);
      expect(listed.body).not.toContain(registered.lille);
      const pending = await call(member, 'GET', '/api/lorawan/pending');
      expect(pending.statusCode).toBe(200);
      expect(pending.json()).toEqual({ devices: [] });
    }
    for (const member of [manager, scopedAdmin]) {
      const dismissed = await call(member, 'DELETE', `/api/lorawan/pending/${stranger}`);
      expect(dismissed.statusCode).toBe(403);
      expect(dismissed.json<{ message: string }>().message).toMatch(/^Seul un membre qui voit toute l’organisation peut /);
    }
    // Still there for whoever sees the whole organization.
    expect((await call(admin, 'GET', '/api/lorawan/pending')).json<{ devices: object[] }>().devices).toHaveLength(1);
  });

  it('answers a thing of another shop exactly as another organization’s, the route’s own 404 included', async () => {
    const lille = await provision(t, admin, 'sensor');
    expect((await call(admin, 'PUT', `/api/sensor/${lille.deviceId}`, { siteId: sites.lille.id })).statusCode).toBe(200);
    const stranger = await t.createAccount({ name: 'Autre organisation' });
    for (const url of [`/api/sensor/${lille.deviceId}/restore`, `/api/sensor/${lille.deviceId}/calibrations/${randomUUID()}/certificate`]) {
      const method = url.endsWith('/restore') ? 'POST' : 'GET';
      const elsewhere = await call(stranger, method, url, method === 'POST' ? {} : undefined);
      const scoped = await call(manager, method, url, method === 'POST' ? {} : undefined);
      expect(elsewhere.statusCode, url).toBe(404);
      expect({ status: scoped.statusCode, body: scoped.json() }, url).toEqual({ status: 404, body: elsewhere.json() });
    }
  });

  it('gives the webhook’s signing secret to admins who see the whole organization only', async () => {
    const saved = await call(admin, 'PUT', '/api/notification-policy', {
      steps: [{ afterMinutes: 0, emails: null }],
      webhookUrl: 'https://vigie:motdepasse@93.184.215.14/hooks/vigie',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const secret = saved.json<{ policy: NotificationPolicy }>().policy.webhookSecret;
    expect(secret).toEqual(expect.any(String));
    expect((await call(admin, 'GET', '/api/notification-policy')).json<{ policy: NotificationPolicy }>().policy.webhookSecret).toBe(secret);
    for (const member of [manager, viewer, scopedAdmin]) {
      const read = await call(member, 'GET', '/api/notification-policy');
      expect(read.statusCode).toBe(200);
      expect(read.json<{ policy: NotificationPolicy }>().policy.webhookSecret).toBeNull();
      expect(read.body).not.toContain(String(secret));
      expect(read.body).not.toContain('motdepasse');
    }
  });

  it('tells a scoped member’s stream nothing, of any kind, about a device of another shop, and what leaves or enters their shop as such', async () => {
    const stream = await openStream(baseUrl, manager.token);
    const watcher = await openStream(baseUrl, admin.token);
    // Created in Lille by the admin (provisioned into the shop named), then renamed, read, alerted, reported on.
    const lille = await provision(t, admin, 'sensor');
    expect((await call(admin, 'PUT', `/api/sensor/${lille.deviceId}`, { siteId: sites.lille.id, name: 'Vitrine Lille' })).statusCode).toBe(
      200,
    );
    expect((await call(admin, 'PUT', `/api/sensor/${lille.deviceId}`, { name: 'Vitrine Lille 2' })).statusCode).toBe(200);
    expect(
      (await call(admin, 'POST', '/api/alert-rules', { name: 'Froid Lille', sensorId: lille.deviceId, preset: 'chilled_very_perishable' }))
        .statusCode,
    ).toBe(201);
    expect((await sendTelemetry(t, lille.accessToken, { temperature: 12.5 })).statusCode).toBe(202);
    await t.app.services.alerts.engine.idle();
    const [alert] = (await call(admin, 'GET', `/api/alerts?sensorId=${lille.deviceId}`)).json<{ alerts: Alert[] }>().alerts;
    expect(alert).toBeDefined();
    expect((await call(admin, 'POST', `/api/alerts/${alert?.id}/acknowledge`, {})).statusCode).toBe(200);
    expect((await call(admin, 'POST', '/api/reports', { siteId: sites.lille.id, month: '2026-01' })).statusCode).toBeLessThan(300);
    // Deleted, then restored from the trash, then deleted again.
    expect((await call(admin, 'DELETE', `/api/sensor/${lille.deviceId}`)).statusCode).toBe(204);
    expect((await call(admin, 'POST', `/api/sensor/${lille.deviceId}/restore`, {})).statusCode).toBe(200);
    expect((await call(admin, 'DELETE', `/api/sensor/${lille.deviceId}`)).statusCode).toBe(204);
    // A second sensor, provisioned straight into Lille by name.
    const named = await t.app.inject({
      method: 'POST',
      url: '/api/devices/provision',
      payload: {
        installationKey: await installationKey(t, admin),
        serial: `SN-${randomUUID().slice(0, 8)}`,
        kind: 'sensor',
        site: sites.lille.id,
      },
    });
    expect(named.statusCode, named.body).toBe(201);
    const second = named.json<{ deviceId: string }>().deviceId;
    expect((await call(admin, 'DELETE', `/api/sensor/${second}`)).statusCode).toBe(204);

    // A sensor of Lyon moved to Lille: seen as deleted; moved back: seen as created again.
    const lyon = await provision(t, admin, 'sensor');
    expect((await call(admin, 'PUT', `/api/sensor/${lyon.deviceId}`, { siteId: sites.lyon.id, name: 'Vitrine Lyon' })).statusCode).toBe(
      200,
    );
    expect((await call(admin, 'PUT', `/api/sensor/${lyon.deviceId}`, { siteId: sites.lille.id })).statusCode).toBe(200);
    expect((await sendTelemetry(t, lyon.accessToken, { temperature: 3.1 })).statusCode).toBe(202);
    expect((await call(admin, 'PUT', `/api/sensor/${lyon.deviceId}`, { siteId: sites.lyon.id })).statusCode).toBe(200);
    expect((await sendTelemetry(t, lyon.accessToken, { temperature: 3.2 })).statusCode).toBe(202);

    // The admin's stream saw all of it; the manager's is up to date once Lyon's last reading arrived.
    await watcher.waitFor((e) => e.event === 'device' && e.data.includes(second) && e.data.includes('deleted'));
    await stream.waitFor((e) => e.event === 'reading' && e.data.includes(lyon.deviceId) && e.data.includes('3.2'));
    const aboutLille = stream.events.filter(
      (e) => e.data.includes(lille.deviceId) || e.data.includes(second) || e.data.includes(lille.serial) || e.data.includes(sites.lille.id),
    );
    expect(aboutLille).toEqual([]);
    expect(watcher.events.filter((e) => e.data.includes(lille.deviceId)).map((e) => e.event)).toEqual(
      expect.arrayContaining(['device', 'reading', 'alert']),
    );
    // Lyon's sensor: its reading in Lille is not shown; it left (deleted) and came back (created or updated, in Lyon).
    const aboutLyon = stream.events.filter((e) => e.data.includes(lyon.deviceId));
    expect(aboutLyon.filter((e) => e.event === 'reading').map((e) => JSON.parse(e.data) as { values: object })).toHaveLength(1);
    const moves = aboutLyon
      .filter((e) => e.event === 'device')
      .map((e) => JSON.parse(e.data) as { action: string; device?: { siteId: string } });
    expect(moves.map((move) => move.action)).toContain('deleted');
    expect(moves.at(-1)).toMatchObject({ device: { siteId: sites.lyon.id } });
    expect(moves.every((move) => move.action === 'deleted' || move.device?.siteId === sites.lyon.id)).toBe(true);

    // A sensor installed in Lyon then moved to Lille, before a new stream opens: the stream's first
    // seconds replayed tell nothing of it, for it is in Lille when they are delivered.
    const hopper = await provision(t, admin, 'sensor');
    expect(
      (await call(admin, 'PUT', `/api/sensor/${hopper.deviceId}`, { siteId: sites.lyon.id, name: 'Vitrine volante' })).statusCode,
    ).toBe(200);
    expect((await sendTelemetry(t, hopper.accessToken, { temperature: 3.3 })).statusCode).toBe(202);
    expect((await call(admin, 'PUT', `/api/sensor/${hopper.deviceId}`, { siteId: sites.lille.id })).statusCode).toBe(200);
    expect((await call(admin, 'DELETE', `/api/sensor/${hopper.deviceId}`)).statusCode).toBe(204);
    await stream.waitFor((e) => e.event === 'device' && e.data.includes(hopper.deviceId) && e.data.includes('deleted'));
    const late = await openStream(baseUrl, manager.token);
    expect((await sendTelemetry(t, lyon.accessToken, { temperature: 3.4 })).statusCode).toBe(202);
    await late.waitFor((e) => e.event === 'reading' && e.data.includes(lyon.deviceId) && e.data.includes('3.4'));
    expect(late.events.filter((e) => e.data.includes(hopper.deviceId) || e.data.includes(hopper.serial))).toEqual([]);
    expect(late.events.filter((e) => e.data.includes(lille.deviceId) || e.data.includes(second))).toEqual([]);
    // What is in Lyon at delivery is replayed: the Lyon sensor's last move back, and its readings.
    expect(late.events.some((e) => e.event === 'device' && e.data.includes(lyon.deviceId) && e.data.includes(sites.lyon.id))).toBe(true);
    await late.close();
    await stream.close();
    await watcher.close();
  });
});
