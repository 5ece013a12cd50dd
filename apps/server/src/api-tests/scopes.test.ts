import { randomUUID } from 'node:crypto';
import type { Alert, Member, OverviewSite, Region, Sensor, Site } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provision, sendTelemetry } from '../test/device-helpers.ts';
import { openStream, type SseEvent } from '../test/sse-client.ts';
import { setRole } from '../test/test-dal.ts';
import { createTestApp, databaseKind, type TestAccount, type TestApp } from '../test/test-app.ts';

/**
 * Regions and members scoped to some sites (docs/api.md, Régions et portées): a store manager
 * sees and acts on their shop only, and everything else answers as another organization's would.
 */
describe(`regions and scoped members (${databaseKind})`, () => {
  let t: TestApp;
  let baseUrl: string;
  let admin: TestAccount;
  let manager: TestAccount;
  let organization: string;
  const sites: Record<'lyon' | 'lille', Site> = {} as never;
  const sensors: Record<'lyon' | 'lille', { deviceId: string; accessToken: string }> = {} as never;
  const alerts: Record<'lyon' | 'lille', Alert> = {} as never;

  const call = (account: TestAccount, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: account.auth, ...(payload === undefined ? {} : { payload }) });

  beforeAll(async () => {
    t = await createTestApp();
    ({ baseUrl } = await t.listen());
    organization = `Chaîne ${randomUUID()}`;
    admin = await t.createAccount({ organization, name: 'Directrice qualité' });
    manager = await t.createAccount({ organization, name: 'Responsable Lyon' });
    await setRole(t, manager.id, 'manager');
    for (const city of ['lyon', 'lille'] as const) {
      sites[city] = (await call(admin, 'POST', '/api/sites', { name: `Magasin ${city}` })).json<{ site: Site }>().site;
      const sensor = await provision(t, admin, 'sensor');
      expect(
        (await call(admin, 'PUT', `/api/sensor/${sensor.deviceId}`, { name: `Vitrine ${city}`, siteId: sites[city].id })).statusCode,
      ).toBe(200);
      sensors[city] = sensor;
      const rule = await call(admin, 'POST', '/api/alert-rules', {
        name: `Froid ${city}`,
        sensorId: sensor.deviceId,
        preset: 'chilled_very_perishable',
      });
      expect(rule.statusCode).toBe(201);
      expect((await sendTelemetry(t, sensor.accessToken, { temperature: 12.5 })).statusCode).toBe(202);
    }
    await t.app.services.alerts.engine.idle();
    for (const city of ['lyon', 'lille'] as const) {
      const [alert] = (await call(admin, 'GET', `/api/alerts?sensorId=${sensors[city].deviceId}`)).json<{ alerts: Alert[] }>().alerts;
      if (!alert) throw new Error(`Pas d'alerte à ${city}.`);
      alerts[city] = alert;
    }
  });
  afterAll(() => t.close());

  it('keeps regions: created, listed, renamed and deleted by an admin, one name each', async () => {
    const created = await call(admin, 'POST', '/api/regions', { name: 'Sud-Est' });
    expect(created.statusCode).toBe(201);
    const region = created.json<{ region: Region }>().region;
    expect(region).toEqual({ id: expect.any(String), name: 'Sud-Est' });
    expect((await call(admin, 'POST', '/api/regions', { name: 'sud-est' })).json()).toEqual({
      message: 'Une région de l’organisation porte déjà ce nom.',
    });
    expect((await call(admin, 'PUT', `/api/regions/${region.id}`, { name: 'Rhône-Alpes' })).json()).toEqual({
      region: { id: region.id, name: 'Rhône-Alpes' },
    });
    expect((await call(admin, 'GET', '/api/regions')).json<{ regions: Region[] }>().regions).toContainEqual({
      id: region.id,
      name: 'Rhône-Alpes',
    });
    expect((await call(admin, 'PUT', `/api/sites/${sites.lyon.id}`, { regionId: region.id })).json<{ site: Site }>().site.regionId).toBe(
      region.id,
    );
    expect((await call(admin, 'DELETE', `/api/regions/${region.id}`)).statusCode).toBe(204);
    // Its sites stay, in no region.
    expect((await call(admin, 'GET', `/api/sites/${sites.lyon.id}`)).json<{ site: Site }>().site.regionId).toBeNull();
    expect((await call(admin, 'PUT', `/api/sites/${sites.lyon.id}`, { regionId: randomUUID() })).json()).toEqual({
      message: 'Région introuvable.',
    });
    expect((await call(manager, 'POST', '/api/regions', { name: 'Nord' })).statusCode).toBe(403);
  });

  it('refuses a scope naming another organization’s site, and an empty one, in French, changing nothing', async () => {
    const elsewhere = await t.createAccount({ organization: `Autre ${randomUUID()}` });
    const [otherSite] = (await call(elsewhere, 'GET', '/api/sites')).json<{ sites: Site[] }>().sites;
    const foreign = await call(admin, 'PUT', `/api/members/${manager.id}`, { scope: { siteIds: [otherSite?.id] } });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toEqual({ message: 'La portée nomme un site qui n’est pas celui de l’organisation.' });
    const empty = await call(admin, 'PUT', `/api/members/${manager.id}`, { scope: { siteIds: [], regionIds: [] } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json<{ message: string }>().message).toMatch(/au moins un site ou une région/);
    const members = (await call(admin, 'GET', '/api/members')).json<{ members: Member[] }>().members;
    expect(members.find((member) => member.id === manager.id)?.scope).toBeNull();
    // The organization keeps an admin who sees all of it.
    const self = await call(admin, 'PUT', `/api/members/${admin.id}`, { scope: { siteIds: [sites.lyon.id] } });
    expect(self.statusCode).toBe(409);
  });

  it('shows a store manager their shop only, and answers 404 for the others as for another organization', async () => {
    const scoped = await call(admin, 'PUT', `/api/members/${manager.id}`, { scope: { siteIds: [sites.lyon.id] } });
    expect(scoped.statusCode).toBe(200);
    expect(scoped.json<{ member: Member }>().member.scope).toEqual({ siteIds: [sites.lyon.id], regionIds: [] });
    expect((await call(manager, 'GET', '/api/user/me')).json<{ user: { scope: unknown } }>().user.scope).toEqual({
      siteIds: [sites.lyon.id],
      regionIds: [],
    });

    expect((await call(manager, 'GET', '/api/sites')).json<{ sites: Site[] }>().sites.map((site) => site.id)).toEqual([sites.lyon.id]);
    expect((await call(manager, 'GET', '/api/sensor')).json<{ sensors: Sensor[] }>().sensors.map((sensor) => sensor.id)).toEqual([
      sensors.lyon.deviceId,
    ]);
    const page = (await call(manager, 'GET', '/api/sensor?limit=50')).json<{ sensors: Sensor[]; total: number }>();
    expect(page.total).toBe(1);
    expect((await call(manager, 'GET', '/api/alerts')).json<{ alerts: Alert[] }>().alerts.map((alert) => alert.id)).toEqual([
      alerts.lyon.id,
    ]);
    expect((await call(manager, 'GET', '/api/overview')).json<{ sites: OverviewSite[] }>().sites.map((site) => site.siteId)).toEqual([
      sites.lyon.id,
    ]);

    const lille = sensors.lille.deviceId;
    for (const [url, message] of [
      [`/api/sensor/${lille}`, 'Capteur introuvable.'],
      [`/api/sensor/${lille}/readings`, 'Capteur introuvable.'],
      [`/api/sensor/${lille}/readings.csv`, 'Capteur introuvable.'],
      [`/api/sensor/${lille}/insights`, 'Capteur introuvable.'],
      [`/api/sites/${sites.lille.id}`, 'Site introuvable.'],
      [`/api/alerts/${alerts.lille.id}`, 'Alerte introuvable.'],
    ] as const) {
      const response = await call(manager, 'GET', url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toEqual({ message });
    }
    expect((await call(manager, 'POST', `/api/alerts/${alerts.lille.id}/acknowledge`, {})).statusCode).toBe(404);
    expect((await call(manager, 'PUT', `/api/sensor/${lille}`, { name: 'Piraté' })).statusCode).toBe(404);
    expect((await call(manager, 'DELETE', `/api/sensor/${lille}`)).statusCode).toBe(404);
    expect((await call(manager, 'PUT', `/api/sensor/${sensors.lyon.deviceId}`, { siteId: sites.lille.id })).statusCode).toBe(404);
    expect((await call(manager, 'POST', '/api/alert-rules', { name: 'Ailleurs', sensorId: lille, preset: 'frozen' })).statusCode).toBe(404);
    expect((await call(manager, 'POST', '/api/reports', { siteId: sites.lille.id, month: '2026-01' })).statusCode).toBe(404);
    // Nothing changed in Lille.
    expect((await call(admin, 'GET', `/api/sensor/${lille}`)).json<{ sensor: Sensor }>().sensor.name).toBe('Vitrine lille');
    expect((await call(admin, 'GET', `/api/alerts/${alerts.lille.id}`)).json<{ alert: Alert }>().alert.status).toBe('open');

    // Their own shop works as before.
    expect((await call(manager, 'POST', `/api/alerts/${alerts.lyon.id}/acknowledge`, {})).statusCode).toBe(200);
    // What needs the whole organization is refused.
    expect((await call(manager, 'POST', '/api/invitations', { email: `x-${randomUUID()}@vigie.test`, role: 'viewer' })).statusCode).toBe(
      403,
    );
    for (const [method, url, payload] of [
      ['PUT', '/api/notification-policy', { steps: [{ afterMinutes: 0 }] }],
      ['POST', '/api/sites', { name: 'Nouveau' }],
    ] as const) {
      const response = await call(manager, method, url, payload);
      expect(response.statusCode, url).toBe(403);
      expect(response.json<{ message: string }>().message, url).toMatch(/^Seul un membre qui voit toute l’organisation peut /);
    }
  });

  it('streams a scoped member the readings of their shop only', async () => {
    await call(admin, 'PUT', `/api/members/${manager.id}`, { scope: { siteIds: [sites.lyon.id] } });
    const stream = await openStream(baseUrl, manager.token);
    const watcher = await openStream(baseUrl, admin.token);
    expect((await sendTelemetry(t, sensors.lille.accessToken, { temperature: 12.6 })).statusCode).toBe(202);
    expect((await sendTelemetry(t, sensors.lyon.accessToken, { temperature: 12.7 })).statusCode).toBe(202);
    await watcher.waitFor((e) => e.event === 'reading' && e.data.includes(sensors.lille.deviceId));
    await stream.waitFor((e) => e.event === 'reading' && e.data.includes(sensors.lyon.deviceId));
    // The admin saw Lille's reading before Lyon's, on the same bus: the manager's stream had it to skip.
    expect(stream.events.filter((e) => e.event === 'reading' && e.data.includes(sensors.lille.deviceId))).toEqual([]);
    await stream.close();
    await watcher.close();
  });

  it('has an open stream follow a change of scope at once: another shop, a shop moved into its region, the region deleted', async () => {
    const member = await t.createAccount({ organization, name: 'Employée volante' });
    await setRole(t, member.id, 'viewer');
    const rescoped = async (scope: object) =>
      expect((await call(admin, 'PUT', `/api/members/${member.id}`, { scope })).statusCode).toBe(200);
    await rescoped({ siteIds: [sites.lyon.id] });
    const stream = await openStream(baseUrl, member.token);
    const watcher = await openStream(baseUrl, admin.token);
    const reading = (city: 'lyon' | 'lille', value: number) => (e: SseEvent) =>
      e.event === 'reading' && e.data.includes(sensors[city].deviceId) && JSON.parse(e.data).values.temperature?.value === value;
    const send = async (city: 'lyon' | 'lille', value: number) =>
      expect((await sendTelemetry(t, sensors[city].accessToken, { temperature: value })).statusCode).toBe(202);
    const told = () => stream.events.filter((e) => e.event === 'resync' && JSON.parse(e.data).reason === 'scope').length;
    const toldAgain = async (times: number) => stream.waitFor(() => told() >= times);

    // Lyon → Lille: the very next readings are filtered by the new scope, and the page is told to read its lists again.
    await rescoped({ siteIds: [sites.lille.id] });
    await send('lyon', 13.1);
    await send('lille', 13.2);
    await stream.waitFor(reading('lille', 13.2));
    expect(stream.events.filter(reading('lyon', 13.1))).toEqual([]);
    await toldAgain(1);

    // A region of no shop, then Lyon moved into it: Lyon's readings come again.
    const region = (await call(admin, 'POST', '/api/regions', { name: `Volante ${randomUUID().slice(0, 4)}` })).json<{ region: Region }>()
      .region;
    await rescoped({ regionIds: [region.id] });
    await toldAgain(2);
    expect((await call(admin, 'PUT', `/api/sites/${sites.lyon.id}`, { regionId: region.id })).statusCode).toBe(200);
    await send('lille', 13.3);
    await send('lyon', 13.4);
    await stream.waitFor(reading('lyon', 13.4));
    expect(stream.events.filter(reading('lille', 13.3))).toEqual([]);
    await toldAgain(3);

    // The region deleted: Lyon leaves the scope, and nothing reaches the stream any more.
    expect((await call(admin, 'DELETE', `/api/regions/${region.id}`)).statusCode).toBe(204);
    await toldAgain(4);
    await send('lyon', 13.5);
    await watcher.waitFor(reading('lyon', 13.5));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stream.events.filter(reading('lyon', 13.5))).toEqual([]);
    // The same stream all along: the server never closed it.
    expect(await Promise.race([stream.ended.then(() => 'fermé'), Promise.resolve('ouvert')])).toBe('ouvert');
    await stream.close();
    await watcher.close();
  });

  it('gives a region viewer the region’s shops at once, a shop moved into it included; the admin sees the whole chain', async () => {
    const region = (await call(admin, 'POST', '/api/regions', { name: `Nord ${randomUUID().slice(0, 4)}` })).json<{ region: Region }>()
      .region;
    await call(admin, 'PUT', `/api/members/${manager.id}`, { role: 'viewer', scope: { regionIds: [region.id] } });
    expect((await call(manager, 'GET', '/api/overview')).json<{ sites: OverviewSite[] }>().sites).toEqual([]);
    await call(admin, 'PUT', `/api/sites/${sites.lille.id}`, { regionId: region.id });
    const seen = (await call(manager, 'GET', '/api/overview')).json<{ sites: OverviewSite[] }>().sites;
    expect(seen).toEqual([
      {
        siteId: sites.lille.id,
        name: 'Magasin lille',
        regionId: region.id,
        sensors: 1,
        offline: 0,
        activeAlerts: 1,
        lowBattery: 0,
        compliance: expect.any(Number),
        // No task of the food-safety plan was due there this month.
        tasks: { due: 0, done: 0, late: 0, missed: 0, nonconforming: 0 },
      },
    ]);
    expect(seen[0]?.compliance).toBeGreaterThanOrEqual(0);
    expect(seen[0]?.compliance).toBeLessThan(1);
    expect((await call(manager, 'GET', `/api/sensor/${sensors.lille.deviceId}`)).statusCode).toBe(200);
    expect((await call(manager, 'GET', `/api/sensor/${sensors.lyon.deviceId}`)).statusCode).toBe(404);

    const chain = (await call(admin, 'GET', '/api/overview')).json<{ sites: OverviewSite[] }>().sites;
    expect(chain.map((site) => site.siteId)).toEqual(expect.arrayContaining([sites.lyon.id, sites.lille.id]));
    // The worst first: Lille's alert is still open, Lyon's was acknowledged (still active).
    expect(chain.every((site, index) => index === 0 || (chain[index - 1]?.activeAlerts ?? 0) >= site.activeAlerts)).toBe(true);
  });

  it('invites a member with a scope, which they have once joined', async () => {
    const email = `magasin-${randomUUID()}@vigie.test`;
    const invited = await call(admin, 'POST', '/api/invitations', { email, role: 'manager', scope: { siteIds: [sites.lyon.id] } });
    expect(invited.statusCode).toBe(201);
    expect(invited.json<{ invitation: { scope: unknown } }>().invitation.scope).toEqual({ siteIds: [sites.lyon.id], regionIds: [] });
    const bad = await call(admin, 'POST', '/api/invitations', {
      email: `b-${email}`,
      role: 'manager',
      scope: { regionIds: [randomUUID()] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: 'La portée nomme une région qui n’est pas celle de l’organisation.' });
  });
});
