import type { Alert, Insights, WatchItem } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provision } from '../../test/device-helpers.ts';
import { createTestApp, databaseKind, isolatedDatabase, type TestAccount, type TestApp } from '../../test/test-app.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/**
 * The background analysis as the product runs it: a pass over the sensors that report, in a worker
 * thread, stored for every instance; the « À surveiller » list; and a « dépassement prévu » rule
 * that opens its alert before the fridge is out of limits.
 */
describe(`background predictive analysis (${databaseKind})`, { timeout: 180_000 }, () => {
  let isolated: Awaited<ReturnType<typeof isolatedDatabase>>;
  let t: TestApp;
  let second: TestApp;
  let owner: TestAccount;
  let stranger: TestAccount;
  let failing: string;
  let healthy: string;
  let predictedRuleId: string;
  const now = Date.parse('2026-11-20T12:02:00Z');
  const clock = () => new Date(now);

  async function fridge(account: TestAccount, fails: boolean): Promise<string> {
    const sensorId = (await provision(t, account, 'sensor')).deviceId;
    const rows = [];
    for (let ts = now - 3 * DAY; ts < now; ts += MIN) {
      const cycle = 0.6 * Math.sin((2 * Math.PI * ts) / (22 * MIN));
      // The failing one warms by +1 °C an hour over the last three hours.
      const warming = fails ? Math.max(0, ts - (now - 3 * HOUR)) / HOUR : 0;
      rows.push({ deviceId: sensorId, key: 'temperature', ts: new Date(ts), value: 4 + cycle + warming, readingId: null });
    }
    // The touch marks the sensor as heard from, as ingestion does.
    await t.app.services.telemetry.store(rows, [{ deviceId: sensorId, kind: 'sensor', battery: null, emitterId: null }]);
    return sensorId;
  }

  beforeAll(async () => {
    // Its own database on PostgreSQL: the pass analyses every organization's sensors.
    isolated = await isolatedDatabase();
    const env = isolated ? { env: { DATABASE_URL: isolated.url } } : {};
    t = await createTestApp({ ...env, now: clock });
    owner = await t.createAccount();
    stranger = await t.createAccount();
    failing = await fridge(owner, true);
    healthy = await fridge(owner, false);
    for (const sensorId of [failing, healthy]) {
      const rule = await t.app.inject({
        method: 'POST',
        url: '/api/alert-rules',
        headers: owner.auth,
        payload: { name: 'Froid positif ≤ +8 °C', sensorId, preset: 'chilled_perishable' },
      });
      expect(rule.statusCode, rule.body).toBe(201);
    }
    const predicted = await t.app.inject({
      method: 'POST',
      url: '/api/alert-rules',
      headers: owner.auth,
      payload: {
        name: 'Dépassement prévu de +8 °C',
        sensorId: failing,
        condition: { type: 'predicted_above', key: 'temperature', threshold: 8, withinMinutes: 120 },
        severity: 'warning',
      },
    });
    expect(predicted.statusCode, predicted.body).toBe(201);
    predictedRuleId = predicted.json<{ rule: { id: string } }>().rule.id;
    // A second instance on the same database (PostgreSQL only: PGlite is one process's own).
    second = isolated ? await createTestApp({ env: { DATABASE_URL: isolated.url }, now: clock }) : t;
  });
  afterAll(async () => {
    if (second !== t) await second.close();
    await t.close();
    await isolated?.drop();
  });

  it('analyses each reporting sensor once, even with two instances running the pass together', async () => {
    const [a, b] = await Promise.all([t.app.services.insights.refresh(), second.app.services.insights.refresh()]);
    // One instance held the turn and analysed both fridges; the other skipped.
    expect([a, b].sort()).toEqual([0, 2]);
    // Analysed five minutes ago at the latest: the next pass has nothing to do.
    expect(await t.app.services.insights.refresh()).toBe(0);
  });

  it('lists the failing fridge « À surveiller » with its predicted breach, not the healthy one', async () => {
    const response = await t.app.inject({ url: '/api/insights/watch', headers: owner.auth });
    expect(response.statusCode, response.body).toBe(200);
    const { watch } = response.json<{ watch: WatchItem[] }>();
    expect(watch.map((item) => item.sensorId)).toContain(failing);
    expect(watch.map((item) => item.sensorId)).not.toContain(healthy);
    const item = watch.find((candidate) => candidate.sensorId === failing);
    expect(item).toMatchObject({ key: 'temperature', breach: { threshold: 8 } });
    expect(item?.urgency).toBeGreaterThan(0.6);
    expect(Date.parse(item?.breach?.eta ?? '')).toBeGreaterThan(now);
  });

  it('opens the « dépassement prévu » alert before the fridge is out of limits', async () => {
    await t.app.services.alerts.engine.idle();
    const response = await t.app.inject({ url: `/api/alerts?status=active&sensorId=${failing}`, headers: owner.auth });
    const { alerts } = response.json<{ alerts: Alert[] }>();
    const predicted = alerts.find((alert) => alert.ruleId === predictedRuleId);
    expect(predicted).toMatchObject({ status: 'open', severity: 'warning' });
    // The forecast's worst value within two hours is past +8 °C; the readings themselves are not yet.
    expect(predicted?.peak).toBeGreaterThan(8);
    const { insights } = (await t.app.inject({ url: `/api/sensor/${failing}/insights`, headers: owner.auth })).json<{
      insights: Insights;
    }>();
    expect(Date.parse(insights.breach?.eta ?? '')).toBeGreaterThan(now);
    // No alert on the healthy fridge.
    const quiet = await t.app.inject({ url: `/api/alerts?status=active&sensorId=${healthy}`, headers: owner.auth });
    expect(quiet.json<{ alerts: Alert[] }>().alerts).toEqual([]);
  });

  it('answers from the stored figures, the same for every instance', async () => {
    const fromFirst = await t.app.inject({ url: `/api/sensor/${failing}/insights`, headers: owner.auth });
    const fromSecond = await second.app.inject({ url: `/api/sensor/${failing}/insights`, headers: owner.auth });
    expect(fromSecond.json<{ insights: Insights }>().insights.computedAt).toBe(
      fromFirst.json<{ insights: Insights }>().insights.computedAt,
    );
  });

  it('is the organization’s own list, filtered by site; a bad site id is a French 400', async () => {
    const other = await t.app.inject({ url: '/api/insights/watch', headers: stranger.auth });
    expect(other.json<{ watch: WatchItem[] }>().watch).toEqual([]);
    const site = await t.app.inject({ method: 'POST', url: '/api/sites', headers: owner.auth, payload: { name: 'Boutique Annecy' } });
    const siteId = site.json<{ site: { id: string } }>().site.id;
    const elsewhere = await t.app.inject({ url: `/api/insights/watch?siteId=${siteId}`, headers: owner.auth });
    expect(elsewhere.json<{ watch: WatchItem[] }>().watch).toEqual([]);
    const bad = await t.app.inject({ url: '/api/insights/watch?siteId=nimporte', headers: owner.auth });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toMatch(/Identifiant invalide/);
    expect((await t.app.inject({ url: '/api/insights/watch' })).statusCode).toBe(401);
  });

  it('refuses a « dépassement prévu » horizon beyond the forecast, in French', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/alert-rules',
      headers: owner.auth,
      payload: {
        name: 'Trop loin',
        sensorId: failing,
        condition: { type: 'predicted_above', key: 'temperature', threshold: 8, withinMinutes: 600 },
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toMatch(/horizon de prévision va de 15 à 240 minutes/);
  });
});
