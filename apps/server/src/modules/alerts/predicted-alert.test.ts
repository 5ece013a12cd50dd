import type { Alert, Insights } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provision, sendTelemetry } from '../../test/device-helpers.ts';
import { createTestApp, databaseKind, type TestAccount, type TestApp } from '../../test/test-app.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/**
 * A « dépassement prévu » alert through the API: it says it is a forecast, of which limit and when,
 * so that no screen or message gives its forecast values as what the sensor measured.
 */
describe(`a « dépassement prévu » alert (${databaseKind})`, { timeout: 120_000 }, () => {
  let t: TestApp;
  let owner: TestAccount;
  let sensorId: string;
  let predictedRuleId: string;
  let measuredRuleId: string;
  const now = Date.parse('2026-11-20T12:02:00Z');

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date(now) });
    owner = await t.createAccount();
    const sensor = await provision(t, owner, 'sensor');
    sensorId = sensor.deviceId;
    const rule = async (payload: Record<string, unknown>) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/alert-rules',
        headers: owner.auth,
        payload: { sensorId, ...payload },
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<{ rule: { id: string } }>().rule.id;
    };
    predictedRuleId = await rule({
      name: 'Dépassement prévu de +8 °C',
      condition: { type: 'predicted_above', key: 'temperature', threshold: 8, withinMinutes: 240 },
      severity: 'warning',
    });
    measuredRuleId = await rule({ name: 'Crèmerie ≤ +6 °C', condition: { type: 'above', key: 'temperature', threshold: 6 } });
    // Two days of cycles around 4 °C, then a fridge warming by +1 °C an hour for three hours.
    const rows = [];
    for (let ts = now - 2 * DAY; ts < now - MIN; ts += MIN) {
      const warming = Math.max(0, ts - (now - 3 * HOUR)) / HOUR;
      rows.push({
        deviceId: sensorId,
        key: 'temperature',
        ts: new Date(ts),
        value: 4 + 0.6 * Math.sin(ts / (4 * MIN)) + warming,
        readingId: null,
      });
    }
    await t.app.services.telemetry.store(rows, [{ deviceId: sensorId, kind: 'sensor', battery: null, emitterId: null }]);
    // The latest reading, through the device protocol: 7,1 °C, above +6 °C but not +8 °C.
    expect((await sendTelemetry(t, sensor.accessToken, { ts: new Date(now).toISOString(), values: { temperature: 7.1 } })).statusCode).toBe(
      202,
    );
  });
  afterAll(async () => {
    await t.close();
  });

  it('names its limit and when the forecast crosses it; a measured alert has no forecast', async () => {
    // Asking for the figures computes them, and the « dépassement prévu » rules see the forecast.
    const figures = await t.app.inject({ url: `/api/sensor/${sensorId}/insights`, headers: owner.auth });
    expect(figures.statusCode, figures.body).toBe(200);
    const { insights } = figures.json<{ insights: Insights }>();
    await t.app.services.alerts.engine.idle();
    const crossing = insights.forecast.find((point) => point.value > 8)?.ts;
    expect(crossing, 'the forecast passes +8 °C within its horizon').toBeDefined();

    const response = await t.app.inject({ url: `/api/alerts?status=active&sensorId=${sensorId}`, headers: owner.auth });
    expect(response.statusCode, response.body).toBe(200);
    const { alerts } = response.json<{ alerts: Alert[] }>();
    const predicted = alerts.find((alert) => alert.ruleId === predictedRuleId);
    const measured = alerts.find((alert) => alert.ruleId === measuredRuleId);
    expect(predicted).toMatchObject({ status: 'open', key: 'temperature', forecast: { direction: 'above', threshold: 8, eta: crossing } });
    // Its values are the forecast's, past +8 °C, while the sensor measured 7,1 °C.
    expect(predicted?.last).toBeGreaterThan(8);
    expect(measured).toMatchObject({ status: 'open', last: 7.1 });
    expect(measured).not.toHaveProperty('forecast');

    const one = await t.app.inject({ url: `/api/alerts/${predicted?.id}`, headers: owner.auth });
    expect(one.json<{ alert: Alert }>().alert.forecast).toEqual(predicted?.forecast);
  });

  it('keeps saying it was a forecast once resolved, without a time', async () => {
    const alerts = (await t.app.inject({ url: `/api/alerts?sensorId=${sensorId}`, headers: owner.auth })).json<{ alerts: Alert[] }>()
      .alerts;
    const predicted = alerts.find((alert) => alert.ruleId === predictedRuleId);
    await t.app.inject({
      method: 'POST',
      url: `/api/alerts/${predicted?.id}/actions`,
      headers: owner.auth,
      payload: { text: 'Porte refermée.' },
    });
    const resolved = await t.app.inject({ method: 'POST', url: `/api/alerts/${predicted?.id}/resolve`, headers: owner.auth, payload: {} });
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(resolved.json<{ alert: Alert }>().alert).toMatchObject({
      status: 'resolved',
      forecast: { direction: 'above', threshold: 8, eta: null },
    });
  });
});
