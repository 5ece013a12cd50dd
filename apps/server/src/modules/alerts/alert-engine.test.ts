import { randomUUID } from 'node:crypto';
import type { Sensor, Site } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '../../errors.ts';
import { createTestApp, databaseKind, type TestAccount, type TestApp } from '../../test/test-app.ts';
import type { WatchedSensor } from './alert-engine.ts';
import { createAlertsCore } from './alerts-core.ts';

const T0 = Date.parse('2026-01-05T10:00:00Z');

describe(`alert engine on a real database (${databaseKind})`, () => {
  let test: TestApp;
  let account: TestAccount;
  let other: TestAccount;

  beforeAll(async () => {
    test = await createTestApp();
    account = await test.createAccount();
    other = await test.createAccount();
  });
  afterAll(async () => test.close());

  /** One server instance's alert module: its own caches and clock, the shared database. */
  function instance(silence: Map<string, Date | null> = new Map()) {
    let now = new Date(T0);
    const published: { organizationId: string; action: string; status: string; peak: number | null; last: number | null }[] = [];
    const watched = async (sensorId: string): Promise<WatchedSensor | undefined> => {
      for (const who of [account, other]) {
        const response = await test.app.inject({ method: 'GET', url: `/api/sensor/${sensorId}`, headers: who.auth });
        if (response.statusCode !== 200) continue;
        const sensor = response.json<{ sensor: Sensor }>().sensor;
        const lastSeenAt = silence.has(sensorId) ? (silence.get(sensorId) ?? null) : sensor.lastSeenAt ? new Date(sensor.lastSeenAt) : null;
        return {
          id: sensor.id,
          organizationId: who.organizationId,
          siteId: null,
          lastSeenAt,
          inactivityTimeoutSeconds: sensor.inactivityTimeoutSeconds,
        };
      }
      return undefined;
    };
    const { engine, alerts, rules } = createAlertsCore({
      db: test.database.db,
      now: () => now,
      sensor: watched,
      sensorsOf: async (rule) => (rule.sensorId ? [await watched(rule.sensorId)].filter((s): s is WatchedSensor => s !== undefined) : []),
      site: async () => undefined,
      assertSensor: async () => undefined,
      assertSite: async () => undefined,
      publish: (organizationId, action, alert) =>
        published.push({ organizationId, action, status: alert.status, peak: alert.peak, last: alert.last }),
      logger: { error: (obj) => console.error(obj) },
    });
    return {
      engine,
      alerts,
      rules,
      published,
      setNow: (seconds: number) => (now = new Date(T0 + seconds * 1000)),
    };
  }

  async function newSensor(who: TestAccount = account): Promise<string> {
    const response = await test.app.inject({
      method: 'POST',
      url: '/api/sensor',
      headers: who.auth,
      payload: { name: 'Vitrine crèmerie' },
    });
    return response.json<{ sensor: Sensor }>().sensor.id;
  }

  const reading = (sensorId: string, seconds: number, temperature: number, who: TestAccount = account) => ({
    organizationId: who.organizationId,
    sensorId,
    ts: new Date(T0 + seconds * 1000),
    values: { temperature },
  });

  it('opens exactly one alert when two instances evaluate the same breach at once', async () => {
    const sensorId = await newSensor();
    const a = instance();
    const b = instance();
    await a.rules.create(account.organizationId, { name: 'Crèmerie', sensorId, preset: 'chilled_very_perishable' });
    const burst = [reading(sensorId, 0, 5.1), reading(sensorId, 30, 6.4), reading(sensorId, 60, 7.9)];
    await Promise.all([a.engine.onReadings(burst), b.engine.onReadings(burst), a.engine.onReadings(burst.slice(1))]);
    const active = await a.alerts.list(account.organizationId, { status: 'active', sensorId });
    expect(active).toHaveLength(1);
    expect(active[0]).toMatchObject({ status: 'open', severity: 'critical', peak: 7.9, resolution: null });
    expect(active[0]?.events.filter((event) => event.type === 'opened')).toHaveLength(1);
    expect([...a.published, ...b.published].filter((event) => event.action === 'opened')).toHaveLength(1);
  });

  it('runs the lifecycle: acknowledge, refuse a manual resolution without a corrective action, record one, resolve', async () => {
    const sensorId = await newSensor();
    const node = instance();
    await node.rules.create(account.organizationId, { name: 'Surgelés', sensorId, preset: 'frozen' });
    await node.engine.onReadings([reading(sensorId, 0, -12)]);
    const [opened] = await node.alerts.list(account.organizationId, { status: 'open', sensorId });
    expect(opened).toBeDefined();
    const id = opened?.id ?? '';

    node.setNow(120);
    const acknowledged = await node.alerts.acknowledge(account.organizationId, id, account.id, 'Je vais voir');
    expect(acknowledged).toMatchObject({
      status: 'acknowledged',
      acknowledgedBy: account.id,
      acknowledgedAt: new Date(T0 + 120_000).toISOString(),
    });
    await expect(node.alerts.acknowledge(account.organizationId, id, account.id)).rejects.toMatchObject({ statusCode: 409 });
    const refused = await node.alerts.resolve(account.organizationId, id, account.id).catch((error: AppError) => error);
    expect(refused).toMatchObject({ statusCode: 409, message: expect.stringContaining('action corrective') });

    node.setNow(300);
    await node.alerts.recordAction(account.organizationId, id, account.id, { text: 'Denrées transférées dans le congélateur de réserve' });
    node.setNow(360);
    const resolved = await node.alerts.resolve(account.organizationId, id, account.id, 'Porte mal fermée, joint vérifié');
    expect(resolved).toMatchObject({ status: 'resolved', resolution: 'manual' });
    expect(resolved.events.map((event) => [event.type, event.text])).toEqual([
      ['opened', null],
      ['acknowledged', 'Je vais voir'],
      ['action', 'Denrées transférées dans le congélateur de réserve'],
      ['resolved', 'Porte mal fermée, joint vérifié'],
    ]);
    // Another organization sees nothing of it.
    await expect(node.alerts.get(other.organizationId, id)).rejects.toMatchObject({ statusCode: 404 });
    expect(await node.alerts.list(other.organizationId, {})).toEqual([]);
  });

  it('opens on the clock when the delay elapses in silence, once, even after a restart', async () => {
    const sensorId = await newSensor();
    const first = instance();
    await first.rules.create(account.organizationId, { name: 'Vitrine', sensorId, preset: 'chilled_perishable', delaySeconds: 900 });
    await first.engine.onReadings([reading(sensorId, 0, 9.5)]);
    first.setNow(600);
    await first.engine.tick();
    expect(await first.alerts.list(account.organizationId, { sensorId })).toEqual([]);

    // A new instance (a restart) picks the pending breach up from the database.
    const restarted = instance();
    restarted.setNow(901);
    first.setNow(901);
    await Promise.all([restarted.engine.tick(), first.engine.tick()]);
    const alerts = await restarted.alerts.list(account.organizationId, { sensorId });
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ status: 'open', openedAt: new Date(T0 + 901_000).toISOString(), peak: 9.5 });
  });

  it('announces each new peak and latest value of an open alert, so that its page never keeps the value it opened with', async () => {
    const sensorId = await newSensor();
    const node = instance();
    await node.rules.create(account.organizationId, {
      name: 'Vitrine',
      sensorId,
      condition: { type: 'above', key: 'temperature', threshold: 4 },
      severity: 'warning',
    });
    await node.engine.onReadings([reading(sensorId, 0, 4.04)]);
    await node.engine.onReadings([reading(sensorId, 60, 4.5)]);
    await node.engine.onReadings([reading(sensorId, 120, 4.7)]);
    await node.engine.onReadings([reading(sensorId, 180, 4.3)]);
    expect(node.published.map(({ action, peak, last }) => ({ action, peak, last }))).toEqual([
      { action: 'opened', peak: 4.04, last: 4.04 },
      { action: 'updated', peak: 4.5, last: 4.5 },
      { action: 'updated', peak: 4.7, last: 4.7 },
      { action: 'updated', peak: 4.7, last: 4.3 },
    ]);
    const [alert] = await node.alerts.list(account.organizationId, { sensorId });
    expect(alert).toMatchObject({ status: 'open', peak: 4.7, last: 4.3 });
  });

  it('resolves by itself below the hysteresis band, and reopens the same alert when the breach returns within minutes', async () => {
    const sensorId = await newSensor();
    const node = instance();
    await node.rules.create(account.organizationId, { name: 'Crèmerie', sensorId, preset: 'chilled_very_perishable', hysteresis: 0.5 });
    await node.engine.onReadings([reading(sensorId, 0, 6), reading(sensorId, 60, 3.8), reading(sensorId, 120, 3.4)]);
    const [resolved] = await node.alerts.list(account.organizationId, { sensorId });
    expect(resolved).toMatchObject({ status: 'resolved', resolution: 'auto', last: 3.4 });
    await node.engine.onReadings([reading(sensorId, 240, 5)]);
    const all = await node.alerts.list(account.organizationId, { sensorId });
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ id: resolved?.id, status: 'open', resolvedAt: null });
    expect(all[0]?.events.map((event) => event.type)).toEqual(['opened', 'resolved', 'opened']);
  });

  it('opens an offline alert with no message at all, and resolves it when the sensor speaks again', async () => {
    const sensorId = await newSensor();
    const silence = new Map<string, Date | null>([[sensorId, new Date(T0)]]);
    const node = instance(silence);
    await node.rules.create(account.organizationId, { name: 'Liaison', sensorId, condition: { type: 'offline' }, severity: 'warning' });
    node.setNow(599);
    await node.engine.tick();
    expect(await node.alerts.list(account.organizationId, { sensorId })).toEqual([]);
    node.setNow(660);
    await node.engine.tick();
    await node.engine.tick();
    const [offline] = await node.alerts.list(account.organizationId, { sensorId });
    expect(offline).toMatchObject({ status: 'open', severity: 'warning', openedAt: new Date(T0 + 660_000).toISOString() });
    await node.engine.onReadings([reading(sensorId, 700, 3)]);
    expect((await node.alerts.get(account.organizationId, offline?.id ?? '')).status).toBe('resolved');
  });

  it('watches a transmitter with its site’s offline rule: the clock opens its alert, resolves it once heard after, and the trash closes it', async () => {
    const [site] = (await test.app.inject({ url: '/api/sites', headers: account.auth })).json<{ sites: Site[] }>().sites;
    if (!site) throw new Error('Aucun site.');
    const emitterId = randomUUID();
    let now = new Date(T0);
    let heard: Date | null = new Date(T0);
    const at = (seconds: number) => (now = new Date(T0 + seconds * 1000));
    const published: { action: string; deviceKind: string | undefined }[] = [];
    const gateway = (): WatchedSensor => ({
      id: emitterId,
      kind: 'emitter',
      organizationId: account.organizationId,
      siteId: site.id,
      name: 'Passerelle 6c2a11',
      lastSeenAt: heard,
      inactivityTimeoutSeconds: 1800,
    });
    const { engine, alerts, rules } = createAlertsCore({
      db: test.database.db,
      now: () => now,
      sensor: async () => undefined,
      sensorsOf: async (rule) => (rule.siteId === site.id ? [gateway()] : []),
      site: async () => undefined,
      assertSensor: async () => undefined,
      assertSite: async () => undefined,
      publish: (_organizationId, action, alert) => published.push({ action, deviceKind: alert.deviceKind }),
      emitterIds: async (ids) => ids.filter((id) => id === emitterId),
      logger: { error: (obj) => console.error(obj) },
    });
    await rules.create(account.organizationId, { name: 'Liaison', siteId: site.id, condition: { type: 'offline' }, severity: 'warning' });
    const listed = () => alerts.list(account.organizationId, { sensorId: emitterId });

    at(1800);
    await engine.tick();
    expect(await listed()).toEqual([]);
    at(1860);
    await engine.tick();
    const [opened] = await listed();
    expect(opened).toMatchObject({
      status: 'open',
      deviceKind: 'emitter',
      siteId: site.id,
      openedAt: new Date(T0 + 1_860_000).toISOString(),
    });
    // A contact dated before the alert opened (a clock behind, a late write) does not end it.
    heard = new Date(T0 + 1_000_000);
    at(1900);
    await engine.tick();
    expect((await listed()).map((alert) => alert.status)).toEqual(['open']);
    // Heard again: the next tick resolves the alert, as of that contact.
    heard = new Date(T0 + 2_000_000);
    at(2030);
    await engine.tick();
    expect(await listed()).toMatchObject([
      { id: opened?.id, status: 'resolved', resolution: 'auto', resolvedAt: new Date(T0 + 2_000_000).toISOString() },
    ]);

    // Nothing heard since, then put in the trash: its new alert closes.
    at(4000);
    await engine.tick();
    expect((await listed()).filter((alert) => alert.status === 'open')).toHaveLength(1);
    await engine.emitterRemoved(emitterId);
    expect((await listed()).map((alert) => alert.status)).toEqual(['resolved', 'resolved']);
    expect(published).toEqual([
      { action: 'opened', deviceKind: 'emitter' },
      { action: 'resolved', deviceKind: 'emitter' },
      { action: 'opened', deviceKind: 'emitter' },
      { action: 'resolved', deviceKind: 'emitter' },
    ]);
  });

  it('closes the active alerts of a deleted rule and keeps their history', async () => {
    const sensorId = await newSensor();
    const node = instance();
    const rule = await node.rules.create(account.organizationId, { name: 'Crèmerie', sensorId, preset: 'chilled_very_perishable' });
    await node.engine.onReadings([reading(sensorId, 0, 8)]);
    await node.rules.remove(account.organizationId, rule.id);
    const [closed] = await node.alerts.list(account.organizationId, { sensorId });
    expect(closed).toMatchObject({ status: 'resolved', resolution: 'auto' });
    expect(closed?.events.at(-1)?.text).toContain('Règle désactivée ou supprimée');
    await node.engine.onReadings([reading(sensorId, 60, 9)]);
    expect(await node.alerts.list(account.organizationId, { sensorId, status: 'active' })).toEqual([]);
  });
});
