import type { Insights } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provision, sendTelemetry } from '../../test/device-helpers.ts';
import { createTestApp, databaseKind, type TestAccount, type TestApp } from '../../test/test-app.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe(`sensor insights over HTTP (${databaseKind})`, { timeout: 120_000 }, () => {
  let t: TestApp;
  let owner: TestAccount;
  let stranger: TestAccount;
  let sensorId: string;
  const now = Date.parse('2026-11-20T12:02:00Z');

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date(now) });
    owner = await t.createAccount();
    stranger = await t.createAccount();
    sensorId = (await provision(t, owner, 'sensor')).deviceId;
    // Three steady days around +4 °C with a 22-minute compressor cycle, then a compressor that
    // fails: +1 °C an hour over the last three hours. The battery loses 1 point a day from 50 %.
    const rows = [];
    for (let ts = now - 3 * DAY; ts < now; ts += MIN) {
      const cycle = 0.6 * Math.sin((2 * Math.PI * ts) / (22 * MIN));
      const failing = Math.max(0, ts - (now - 3 * HOUR)) / HOUR;
      rows.push({ deviceId: sensorId, key: 'temperature', ts: new Date(ts), value: 4 + cycle + failing, readingId: null });
    }
    for (let day = 20; day >= 0; day--) {
      rows.push({ deviceId: sensorId, key: 'battery', ts: new Date(now - day * DAY), value: 50 - (20 - day), readingId: null });
    }
    await t.app.services.telemetry.store(rows, []);
  });
  afterAll(() => t.close());

  const insightsOf = (who: TestAccount, query = '') => t.app.inject({ url: `/api/sensor/${sensorId}/insights${query}`, headers: who.auth });

  it('forecasts the next four hours with an interval, and says when the failing fridge passes its limit', async () => {
    const rule = await t.app.inject({
      method: 'POST',
      url: '/api/alert-rules',
      headers: owner.auth,
      payload: { name: 'Froid positif ≤ +8 °C', sensorId, preset: 'chilled_perishable' },
    });
    expect(rule.statusCode).toBe(201);
    const response = await insightsOf(owner);
    expect(response.statusCode, response.body).toBe(200);
    const { insights } = response.json<{ insights: Insights }>();
    expect(insights).toMatchObject({ key: 'temperature', computedAt: new Date(now).toISOString(), defrosts: [], excursions: [] });
    // The warming is seen for what it is, explained in French, from when it began (three hours ago).
    const kinds = insights.anomalies.map((anomaly) => anomaly.kind);
    expect(
      kinds.some((kind) => kind === 'compressor' || kind === 'level_shift' || kind === 'drift'),
      kinds.join(),
    ).toBe(true);
    for (const anomaly of insights.anomalies) {
      expect(anomaly.explanation).toMatch(/°C/);
      expect(Date.parse(anomaly.from)).toBeGreaterThanOrEqual(now - 4 * HOUR);
      expect(anomaly.score).toBeGreaterThan(0);
      expect(anomaly.score).toBeLessThanOrEqual(1);
    }
    expect(insights.forecast).toHaveLength(48);
    expect(insights.forecast[0]?.ts).toBe('2026-11-20T12:00:00.000Z');
    for (const point of insights.forecast) expect(point.low <= point.value && point.value <= point.high).toBe(true);
    // At +1 °C an hour from about +7 °C now, +8 °C is crossed in about an hour: foreseen, not already there.
    expect(insights.breach).toMatchObject({ ruleId: rule.json<{ rule: { id: string } }>().rule.id, threshold: 8 });
    const eta = Date.parse(insights.breach?.eta ?? '');
    expect(eta).toBeGreaterThan(now + 20 * MIN);
    expect(eta).toBeLessThan(now + 2 * HOUR);
  });

  it('predicts no breach for a healthy fridge', async () => {
    const healthy = (await provision(t, owner, 'sensor')).deviceId;
    const rows = [];
    for (let ts = now - 3 * DAY; ts < now; ts += MIN) {
      rows.push({
        deviceId: healthy,
        key: 'temperature',
        ts: new Date(ts),
        value: 4 + 0.6 * Math.sin((2 * Math.PI * ts) / (22 * MIN)),
        readingId: null,
      });
    }
    await t.app.services.telemetry.store(rows, []);
    await t.app.inject({
      method: 'POST',
      url: '/api/alert-rules',
      headers: owner.auth,
      payload: { name: 'Froid positif ≤ +8 °C', sensorId: healthy, preset: 'chilled_perishable' },
    });
    const { insights } = (await t.app.inject({ url: `/api/sensor/${healthy}/insights`, headers: owner.auth })).json<{
      insights: Insights;
    }>();
    expect(insights.forecast).toHaveLength(48);
    expect(insights.breach).toBeNull();
    expect(insights.anomalies).toEqual([]);
    expect(insights.battery).toBeNull();
    for (const point of insights.forecast) expect(Math.abs(point.value - 4)).toBeLessThan(1.5);
  });

  it('measures an excursion beyond the limit in degree-hours', async () => {
    const sensor = (await provision(t, owner, 'sensor')).deviceId;
    const rows = [];
    // +10 °C for one hour, from three hours ago: 2 °C beyond +8 °C for an hour.
    for (let ts = now - 2 * DAY; ts < now; ts += MIN) {
      const out = ts >= now - 3 * HOUR && ts < now - 2 * HOUR;
      rows.push({ deviceId: sensor, key: 'temperature', ts: new Date(ts), value: out ? 10 : 4, readingId: null });
    }
    await t.app.services.telemetry.store(rows, []);
    const rule = await t.app.inject({
      method: 'POST',
      url: '/api/alert-rules',
      headers: owner.auth,
      payload: { name: 'Froid positif ≤ +8 °C', sensorId: sensor, preset: 'chilled_perishable' },
    });
    const { insights } = (await t.app.inject({ url: `/api/sensor/${sensor}/insights`, headers: owner.auth })).json<{
      insights: Insights;
    }>();
    expect(insights.excursions).toHaveLength(1);
    const [excursion] = insights.excursions;
    expect(excursion).toMatchObject({ ruleId: rule.json<{ rule: { id: string } }>().rule.id, threshold: 8, peak: 10 });
    expect(excursion?.degreeHours).toBeGreaterThan(1.9);
    expect(excursion?.degreeHours).toBeLessThan(2.1);
    expect(Date.parse(excursion?.to ?? '') - Date.parse(excursion?.from ?? '')).toBeGreaterThan(55 * MIN);
  });

  it('dates the battery’s end as a range around the trend', async () => {
    const { insights } = (await insightsOf(owner)).json<{ insights: Insights }>();
    // 50 % − 20 points in 20 days: 30 % now, 5 % in about 25 days.
    const expected = now + 25 * DAY;
    expect(Math.abs(Date.parse(insights.battery?.endOfLifeAt ?? '') - expected)).toBeLessThan(DAY);
    expect(Date.parse(insights.battery?.earliest ?? '')).toBeLessThanOrEqual(Date.parse(insights.battery?.endOfLifeAt ?? ''));
    expect(Date.parse(insights.battery?.latest ?? '')).toBeGreaterThanOrEqual(Date.parse(insights.battery?.endOfLifeAt ?? ''));
  });

  it('has nothing to forecast for a measure the sensor does not report', async () => {
    const { insights } = (await insightsOf(owner, '?key=humidity')).json<{ insights: Insights }>();
    expect(insights).toMatchObject({ key: 'humidity', forecast: [], breach: null });
  });

  it('computes the figures again when older readings arrive after them: a device sending its buffer', async () => {
    const device = await provision(t, owner, 'sensor');
    const figures = async () => {
      const response = await t.app.inject({ url: `/api/sensor/${device.deviceId}/insights`, headers: owner.auth });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ insights: Insights }>().insights;
    };
    // One reading: too short a history to forecast anything, and these figures are stored.
    expect((await sendTelemetry(t, device.accessToken, { ts: now - MIN, values: { temperature: 4 } })).statusCode).toBe(202);
    expect((await figures()).forecast).toEqual([]);

    // The two days before it arrive afterwards, as a device that was cut off sends its buffer.
    const history = [];
    for (let ts = now - 2 * DAY; ts < now - MIN; ts += 5 * MIN) {
      history.push({ ts, values: { temperature: 4 + 0.6 * Math.sin((2 * Math.PI * ts) / (25 * MIN)) } });
    }
    for (let i = 0; i < history.length; i += 500) {
      expect((await sendTelemetry(t, device.accessToken, history.slice(i, i + 500))).statusCode).toBe(202);
    }
    // Asked again at once, well within the minute the stored figures are served from.
    expect((await figures()).forecast).toHaveLength(48);
  });

  it('is the organization’s own: another gets 404; a bad key or id is a French 400', async () => {
    const other = await insightsOf(stranger);
    expect(other.statusCode).toBe(404);
    const badKey = await insightsOf(owner, '?key=temp%C3%A9rature');
    expect(badKey.statusCode).toBe(400);
    expect(badKey.json<{ message: string }>().message).toMatch(/Mesure inconnue/);
    expect((await t.app.inject({ url: '/api/sensor/pas-un-id/insights', headers: owner.auth })).statusCode).toBe(400);
    expect((await t.app.inject({ url: `/api/sensor/${sensorId}/insights` })).statusCode).toBe(401);
  });
});
