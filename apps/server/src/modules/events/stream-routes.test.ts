import { randomUUID } from 'node:crypto';
import type { Region, Site } from '@vigie/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { provision, sendTelemetry } from '../../test/device-helpers.ts';
import { openStream, type SseEvent } from '../../test/sse-client.ts';
import { type TestAccount, type TestApp, createTestApp, databaseKind, databaseUrl } from '../../test/test-app.ts';

describe(`live stream (SSE) on ${databaseKind}`, () => {
  let t: TestApp;
  let baseUrl: string;
  let owner: TestAccount;

  /** The replay window's clock, held still by a test that must not depend on the machine's speed. */
  let replayHeldAt: number | null = null;

  beforeAll(async () => {
    t = await createTestApp({ replayClock: () => replayHeldAt ?? Date.now() });
    ({ baseUrl } = await t.listen());
    owner = await t.createAccount();
  });
  afterAll(() => t.close());
  afterEach(() => {
    replayHeldAt = null;
  });

  it('needs a user token in the header', async () => {
    expect((await fetch(`${baseUrl}/api/stream`)).status).toBe(401);
    const stream = await openStream(baseUrl, owner.token);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toContain('text/event-stream');
    expect(stream.response.headers.get('content-security-policy')).toContain("default-src 'self'");
    await stream.close();
  });

  it('announces a newly installed device and a created, renamed and deleted one', async () => {
    const stream = await openStream(baseUrl, owner.token);
    const device = await provision(t, owner, 'sensor', `LIVE-${Date.now()}`);
    const created = await stream.waitFor((e) => e.event === 'device' && e.data.includes(device.deviceId));
    expect(JSON.parse(created.data)).toMatchObject({ action: 'created', kind: 'sensor', device: { id: device.deviceId, status: 'never' } });
    await t.app.inject({ method: 'PUT', url: `/api/sensor/${device.deviceId}`, headers: owner.auth, payload: { name: 'Renommé' } });
    await stream.waitFor(
      (e) => e.event === 'device' && JSON.parse(e.data).action === 'updated' && JSON.parse(e.data).device.name === 'Renommé',
    );
    await t.app.inject({ method: 'DELETE', url: `/api/sensor/${device.deviceId}`, headers: owner.auth });
    await stream.waitFor(
      (e) => e.event === 'device' && JSON.parse(e.data).action === 'deleted' && JSON.parse(e.data).deviceId === device.deviceId,
    );
    await stream.close();
  });

  it('replays missed events after Last-Event-ID, and asks to resync for an unknown id', async () => {
    const device = await provision(t, owner, 'sensor');
    const first = await openStream(baseUrl, owner.token);
    await sendTelemetry(t, device.accessToken, { temperature: 1 });
    const seen = await first.waitFor((e) => e.event === 'reading' && e.data.includes(device.deviceId));
    await first.close();
    await sendTelemetry(t, device.accessToken, { temperature: 2 });
    await sendTelemetry(t, device.accessToken, { temperature: 3 });
    await new Promise((resolve) => setTimeout(resolve, 100));

    const resumed = await openStream(baseUrl, owner.token, { 'last-event-id': seen.id ?? '' });
    const replayed = async (value: number) =>
      resumed.waitFor((e) => e.event === 'reading' && JSON.parse(e.data).values.temperature?.value === value);
    await replayed(2);
    await replayed(3);
    await resumed.close();

    const lost = await openStream(baseUrl, owner.token, { 'last-event-id': 'inconnu' });
    await lost.waitFor((e) => e.event === 'resync');
    await lost.close();
  });

  it('gives a first connection the events of the last seconds, so a list read just before misses nothing', async () => {
    // Installed after the page read its list, before its stream subscribed.
    const device = await provision(t, owner, 'sensor', `JUST-BEFORE-${Date.now()}`);
    await sendTelemetry(t, device.accessToken, { temperature: 4.5 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const stream = await openStream(baseUrl, owner.token);
    const created = await stream.waitFor((e) => e.event === 'device' && e.data.includes(device.deviceId));
    expect(JSON.parse(created.data)).toMatchObject({ action: 'created', device: { id: device.deviceId } });
    const reading = await stream.waitFor((e) => e.event === 'reading' && e.data.includes(device.deviceId));
    expect(JSON.parse(reading.data).values.temperature.value).toBe(4.5);
    expect(stream.events.indexOf(created)).toBeLessThan(stream.events.indexOf(reading));
    await stream.close();

    const stranger = await t.createAccount();
    const other = await openStream(baseUrl, stranger.token);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(other.events.filter((e) => e.data.includes(device.deviceId))).toEqual([]);
    await other.close();
  });

  it('lets a page that read its list first resume from the list’s position: no reload in a busy organization', async () => {
    const busy = await t.createAccount();
    const device = await provision(t, busy, 'sensor');
    const watcher = await openStream(baseUrl, busy.token);
    // More events in the last seconds than the replay buffer holds: the window's clock stands still
    // while they are sent, however long a loaded machine takes to send them.
    replayHeldAt = Date.now();
    for (let i = 0; i < 520; i += 1) await sendTelemetry(t, device.accessToken, { id: `r${i}`, temperature: i / 10 });
    await watcher.waitFor((e) => e.event === 'reading' && JSON.parse(e.data).values.temperature?.value === 51.9, 15_000);
    await watcher.close();
    const list = await t.app.inject({ url: '/api/sensor', headers: busy.auth });
    const position = list.headers['vigie-event-id'];
    expect(position).toEqual(expect.any(String));
    await sendTelemetry(t, device.accessToken, { temperature: 100 });
    await sendTelemetry(t, device.accessToken, { temperature: 101 });

    // Without a position, a first connection cannot replay the last seconds: it asks for a reload.
    const blind = await openStream(baseUrl, busy.token);
    await blind.waitFor((e) => e.event === 'resync');
    await blind.close();

    // From the list's position: exactly what came after the list.
    const resumed = await openStream(baseUrl, busy.token, { 'last-event-id': String(position) });
    await resumed.waitFor((e) => e.event === 'reading' && JSON.parse(e.data).values.temperature?.value === 101);
    const values = resumed.events.filter((e) => e.event === 'reading').map((e) => JSON.parse(e.data).values.temperature.value);
    expect(values).toEqual([100, 101]);
    expect(resumed.events.some((e) => e.event === 'resync')).toBe(false);
    await resumed.close();
  });
});

// Two server instances on one PostgreSQL database: an event on one reaches the other's clients.
describe.runIf(databaseUrl)('live stream across instances (PostgreSQL LISTEN/NOTIFY)', () => {
  it('delivers a reading ingested by instance A to a browser connected to instance B', async () => {
    const a = await createTestApp();
    const b = await createTestApp();
    try {
      await a.listen();
      const { baseUrl: urlB } = await b.listen();
      const owner = await a.createAccount();
      const stream = await openStream(urlB, owner.token);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const device = await provision(a, owner, 'sensor');
      expect((await sendTelemetry(a, device.accessToken, { temperature: 6.5 })).statusCode).toBe(202);
      const event = await stream.waitFor((e) => e.event === 'reading' && e.data.includes(device.deviceId));
      expect(JSON.parse(event.data).values.temperature.value).toBe(6.5);
      await stream.close();
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('has a stream open on instance B follow a change of scope made on instance A: a member’s, then the shops of their region', async () => {
    const a = await createTestApp();
    const b = await createTestApp();
    try {
      await a.listen();
      const { baseUrl: urlB } = await b.listen();
      const organization = `Chaîne ${randomUUID()}`;
      const admin = await a.createAccount({ organization });
      const member = await a.createAccount({ organization });
      const call = async (method: 'POST' | 'PUT', url: string, payload: object) => {
        const response = await a.app.inject({ method, url, headers: admin.auth, payload });
        expect(response.statusCode, response.body).toBeLessThan(300);
        return response;
      };
      const site = async (name: string) => (await call('POST', '/api/sites', { name })).json<{ site: Site }>().site;
      const sensorIn = async (siteId: string) => {
        const sensor = await provision(a, admin, 'sensor');
        await call('PUT', `/api/sensor/${sensor.deviceId}`, { siteId });
        return sensor;
      };
      const lyon = await site('Magasin Lyon');
      const lille = await site('Magasin Lille');
      const sensors = { lyon: await sensorIn(lyon.id), lille: await sensorIn(lille.id) };
      const reading = (city: 'lyon' | 'lille', value: number) => (e: SseEvent) =>
        e.event === 'reading' && e.data.includes(sensors[city].deviceId) && JSON.parse(e.data).values.temperature?.value === value;
      const send = async (city: 'lyon' | 'lille', value: number) =>
        expect((await sendTelemetry(a, sensors[city].accessToken, { temperature: value })).statusCode).toBe(202);
      await call('PUT', `/api/members/${member.id}`, { scope: { siteIds: [lyon.id] } });
      const stream = await openStream(urlB, member.token);
      await new Promise((resolve) => setTimeout(resolve, 300));

      // Lille instead of Lyon, changed on A: B's stream filters the very next readings by it.
      await call('PUT', `/api/members/${member.id}`, { scope: { siteIds: [lille.id] } });
      await send('lyon', 5.1);
      await send('lille', 5.2);
      await stream.waitFor(reading('lille', 5.2));
      expect(stream.events.filter(reading('lyon', 5.1))).toEqual([]);
      await stream.waitFor((e) => e.event === 'resync' && JSON.parse(e.data).reason === 'scope');

      // A region of theirs, which Lyon joins on A: B's stream lets Lyon's readings through.
      const region = (await call('POST', '/api/regions', { name: 'Rhône' })).json<{ region: Region }>().region;
      await call('PUT', `/api/members/${member.id}`, { scope: { regionIds: [region.id] } });
      await call('PUT', `/api/sites/${lyon.id}`, { regionId: region.id });
      await send('lille', 5.3);
      await send('lyon', 5.4);
      await stream.waitFor(reading('lyon', 5.4));
      expect(stream.events.filter(reading('lille', 5.3))).toEqual([]);
      await stream.close();
    } finally {
      await a.close();
      await b.close();
    }
  });
});
