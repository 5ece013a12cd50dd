import type { Insights } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provision, sendTelemetry, type ProvisionedDevice } from '../../test/device-helpers.ts';
import { createTestApp, databaseKind, type TestAccount, type TestApp } from '../../test/test-app.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/**
 * A fridge along Newton's law of cooling, ten seconds at a time: it warms toward the shop's air
 * (21 °C, time constant `tauHours`) and its compressor, under a thermostat between 2,5 and 4,5 °C,
 * pulls it down; a 25-minute defrost every six hours stops the compressor and heats a little.
 * From `stopAt` the compressor never starts again. Returns the true temperature at each 10 s.
 */
function fridge(from: number, to: number, stopAt: number, tauHours: number): { ts: number; value: number }[] {
  const ambient = 21;
  const natural = (temperature: number) => (ambient - temperature) / (tauHours * 60);
  const cooling = natural(3.5) / 0.45;
  let temperature = 3.5;
  let running = false;
  let defrostUntil = -Infinity;
  const out: { ts: number; value: number }[] = [];
  for (let ts = from; ts < to; ts += 10_000) {
    if ((ts - from) % (6 * HOUR) === 2 * HOUR) defrostUntil = ts + 25 * MIN;
    const defrosting = ts < defrostUntil;
    if (temperature >= 4.5) running = true;
    if (temperature <= 2.5) running = false;
    const on = running && !defrosting && ts < stopAt;
    temperature += (natural(temperature) + (defrosting ? 0.05 : 0) - (on ? cooling : 0)) / 6;
    out.push({ ts, value: temperature });
  }
  return out;
}

/**
 * A sensor that reports every ten minutes, as LoRaWAN and Wi-Fi sensors do, through the device
 * protocol's HTTP telemetry: a week of a healthy fridge, then its compressor stops. The forecast
 * must see it coming from the readings alone, well before +8 °C.
 */
describe(`a stopped compressor at a 10-minute cadence (${databaseKind})`, { timeout: 180_000 }, () => {
  let t: TestApp;
  let owner: TestAccount;
  let sensor: ProvisionedDevice;
  const start = Date.parse('2026-11-10T00:00:00Z');
  const stopAt = start + 8 * DAY + 3 * HOUR + 17 * MIN;
  let clock = start;
  const truth = fridge(start, stopAt + 6 * HOUR, stopAt, 5);
  const crossing = truth.find((point) => point.ts > stopAt && point.value > 8)?.ts ?? NaN;
  // One reading every ten minutes, rounded to 0,1 °C as sensors report, a few seconds late or early.
  const readings = truth
    .filter((_, index) => index % 60 === 0)
    .map((point, index) => ({ ts: point.ts + ((index * 7919) % 41) * 1000 - 20_000, value: Math.round(point.value * 10) / 10 }));

  async function sendUpTo(until: number, from = -Infinity): Promise<void> {
    clock = until;
    const batch = readings
      .filter((reading) => reading.ts > from && reading.ts <= until)
      .map((reading) => ({ ts: reading.ts, values: { temperature: reading.value } }));
    for (let i = 0; i < batch.length; i += 1000) {
      const response = await sendTelemetry(t, sensor.accessToken, batch.slice(i, i + 1000));
      expect(response.statusCode, response.body).toBe(202);
    }
  }

  async function insightsAt(at: number): Promise<Insights> {
    const response = await t.app.inject({ url: `/api/sensor/${sensor.deviceId}/insights?key=temperature`, headers: owner.auth });
    expect(response.statusCode, response.body).toBe(200);
    const { insights } = response.json<{ insights: Insights }>();
    expect(insights.computedAt).toBe(new Date(at).toISOString());
    return insights;
  }

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date(clock) });
    owner = await t.createAccount();
    sensor = await provision(t, owner, 'sensor');
    const rule = await t.app.inject({
      method: 'POST',
      url: '/api/alert-rules',
      headers: owner.auth,
      payload: { name: 'Froid positif ≤ +8 °C', sensorId: sensor.deviceId, preset: 'chilled_perishable' },
    });
    expect(rule.statusCode, rule.body).toBe(201);
  });
  afterAll(() => t.close());

  it('the simulated failure crosses +8 °C well after the compressor stops', () => {
    expect(crossing - stopAt).toBeGreaterThan(75 * MIN);
    expect(crossing - stopAt).toBeLessThan(3 * HOUR);
  });

  it('foresees no breach while the fridge is healthy, defrosts included', async () => {
    await sendUpTo(stopAt);
    const insights = await insightsAt(stopAt);
    expect(insights.forecast).toHaveLength(48);
    expect(insights.breach).toBeNull();
    expect(insights.forecastModel?.kind).toBe('seasonal');
  });

  it('foresees +8 °C within 30 min of the true crossing, over half an hour ahead, and says why', async () => {
    const at = crossing - 35 * MIN;
    await sendUpTo(at, stopAt);
    const insights = await insightsAt(at);
    const last = readings.filter((reading) => reading.ts <= at).at(-1);
    // Still well below the limit when it is foreseen.
    expect(last?.value).toBeLessThan(7.5);
    expect(insights.breach, JSON.stringify(insights.forecast.slice(0, 12))).not.toBeNull();
    const eta = Date.parse(insights.breach?.eta ?? '');
    expect(Math.abs(eta - crossing)).toBeLessThanOrEqual(30 * MIN);
    expect(insights.forecastModel?.kind).toBe('relaxation');
    expect(insights.forecastModel?.explanation).toMatch(/^Le froid ne suit plus\u202f: la température monte/);
  });
});
