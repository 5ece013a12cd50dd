import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDevice, countRows, provision, sendTelemetry } from '../../test/device-helpers.ts';
import { insertRawReadings } from '../../test/test-dal.ts';
import { createTestApp, databaseKind, type TestAccount, type TestApp } from '../../test/test-app.ts';

const NOW = Date.parse('2026-11-20T10:00:00Z');
const csvLines = (body: string) =>
  body
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');

/**
 * docs/protocole-appareils.md, Mesures : every measure has a physical range, refused outside it on
 * every path; a measure's name follows one grammar; what the answer counts is what was stored; and
 * no value already stored (older data) can break a read route.
 */
describe(`measure bounds, names and stored counts (${databaseKind})`, () => {
  let t: TestApp;
  let owner: TestAccount;
  let mqttUrl: string;
  let clock = NOW;

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date(clock) });
    ({ mqttUrl } = await t.listen());
    owner = await t.createAccount();
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ url, headers: owner.auth });

  it('refuses over HTTP a value outside its measure’s range, in French, and stores nothing of the batch', async () => {
    const device = await provision(t, owner, 'sensor');
    const cases: [Record<string, number | boolean>, RegExp][] = [
      [{ temperature: 1e200 }, /« temperature » .*−100 à 200 °C/],
      [{ temperature: -273.2 }, /« temperature »/],
      [{ humidity: 120 }, /« humidity » .*0 à 100 %/],
      [{ battery: -5 }, /« battery »/],
      [{ door: 2 }, /« door » .*0 ou 1/],
      [{ co2: -1 }, /« co2 »/],
      [{ my_custom_gauge: 2e9 }, /« my_custom_gauge »/],
    ];
    for (const [values, message] of cases) {
      const response = await sendTelemetry(t, device.accessToken, [{ values: { temperature: 4.1 } }, { values }]);
      expect(response.statusCode, JSON.stringify(values)).toBe(400);
      const text = response.json<{ message: string }>().message;
      expect(text).toMatch(/^Lecture n° 2 : /);
      expect(text).toMatch(message);
    }
    expect(await countRows(t, device.deviceId)).toBe(0);
    // The limits themselves are in range.
    const edges = await sendTelemetry(t, device.accessToken, {
      values: { temperature: -100, humidity: 100, battery: 0, door: true, my_custom_gauge: 1e9 },
    });
    expect(edges.statusCode, edges.body).toBe(202);
    expect(edges.json()).toEqual({ accepted: 1 });
  });

  it('refuses it from a transmitter for its sensor, and over MQTT on the errors topic', async () => {
    const sensor = await provision(t, owner, 'sensor');
    const emitter = await provision(t, owner, 'emitter');
    const relayed = await sendTelemetry(t, emitter.accessToken, { sensor: sensor.serial, values: { temperature: 1e308 } });
    expect(relayed.statusCode).toBe(400);
    expect(relayed.json<{ message: string }>().message).toMatch(/« temperature »/);

    const client = await connectDevice(mqttUrl, sensor);
    const errors: string[] = [];
    client.on('message', (_topic, payload) => errors.push(payload.toString('utf8')));
    await client.subscribeAsync(`vigie/devices/${sensor.deviceId}/errors`, { qos: 0 });
    await client.publishAsync(`vigie/devices/${sensor.deviceId}/telemetry`, JSON.stringify({ values: { temperature: 1e200 } }), {
      qos: 1,
    });
    for (let i = 0; i < 100 && errors.length === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(JSON.parse(errors[0] ?? '{}')).toMatchObject({ message: expect.stringMatching(/« temperature » .*−100 à 200 °C/) as unknown });
    await client.endAsync();
    expect(await countRows(t, sensor.deviceId)).toBe(0);
  });

  it('counts in « accepted » only what was stored: a retry is counted in « duplicates »', async () => {
    const device = await provision(t, owner, 'sensor');
    const batch = [
      { id: 'r-1', values: { temperature: 4.1 } },
      { id: 'r-2', values: { temperature: 4.2 } },
    ];
    const first = await sendTelemetry(t, device.accessToken, batch);
    expect(first.json()).toEqual({ accepted: 2 });
    const again = await sendTelemetry(t, device.accessToken, [...batch, { id: 'r-3', values: { temperature: 4.3 } }]);
    expect(again.statusCode).toBe(202);
    expect(again.json()).toEqual({ accepted: 1, duplicates: 2 });
    expect(await countRows(t, device.deviceId)).toBe(3);
  });

  it('refuses the names of the object prototype, and keeps the others’ CSV and latest state right', async () => {
    const device = await provision(t, owner, 'sensor');
    for (const name of ['constructor', 'toString', 'prototype', 'hasOwnProperty', 'valueOf', 'Temperature', 'a'.repeat(33)]) {
      const response = await sendTelemetry(t, device.accessToken, `{"values":{"temperature":4.1,"${name}":1}}`);
      expect(response.statusCode, name).toBe(400);
      expect(response.json<{ message: string }>().message, name).toMatch(/nom de mesure « .+ » (réservé|invalide)/);
    }
    // `__proto__` does not even pass the HTTP body's parser.
    const proto = await sendTelemetry(t, device.accessToken, '{"values":{"temperature":4.1,"__proto__":1}}');
    expect(proto.statusCode).toBe(400);
    expect(proto.json<{ message: string }>().message).toMatch(/^Le corps de la requête/);
    expect(await countRows(t, device.deviceId)).toBe(0);
    // Old data may hold such a name: it is read as any other, never « undefined ».
    const at = new Date(NOW - 60_000);
    await insertRawReadings(t, device.deviceId, [
      { key: 'constructor', ts: at, value: 7 },
      { key: 'temperature', ts: at, value: 4.5 },
    ]);
    const csv = await get(`/api/sensor/${device.deviceId}/readings.csv?from=${new Date(NOW - 3_600_000).toISOString()}&tz=Europe/Paris`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).not.toContain('undefined');
    const lines = csvLines(csv.body).slice(1);
    expect(lines.map((line) => line.split(';').slice(2, 5).join(';')).sort()).toEqual(['Température;4,5;°C', 'constructor;7;']);
    const state = await get(`/api/sensor/${device.deviceId}`);
    expect(state.statusCode).toBe(200);
    const values = state.json<{ sensor: { latest: Record<string, { value: number }> } }>().sensor.latest;
    expect(Object.keys(values).sort()).toEqual(['constructor', 'temperature']);
    expect(values['constructor']?.value).toBe(7);
  });

  it('answers every read route 200 when an absurd value is already stored (older data)', async () => {
    const device = await provision(t, owner, 'sensor');
    const site = (
      await t.app.inject({ method: 'POST', url: '/api/sites', headers: owner.auth, payload: { name: `Site ${Date.now()}` } })
    ).json<{
      site: { id: string };
    }>().site;
    expect(
      (await t.app.inject({ method: 'PUT', url: `/api/sensor/${device.deviceId}`, headers: owner.auth, payload: { siteId: site.id } }))
        .statusCode,
    ).toBe(200);
    const rule = await t.app.inject({
      method: 'POST',
      url: '/api/alert-rules',
      headers: owner.auth,
      payload: { name: 'Froid', sensorId: device.deviceId, preset: 'chilled_very_perishable' },
    });
    expect(rule.statusCode, rule.body).toBe(201);
    const rows = [];
    for (let i = 0; i < 48; i += 1) {
      const ts = new Date(NOW - (48 - i) * 15 * 60_000);
      rows.push({
        deviceId: device.deviceId,
        key: 'temperature',
        ts,
        value: i === 20 ? 1e308 : i === 21 ? -1e308 : 3 + (i % 3) / 10,
        readingId: null,
      });
      rows.push({ deviceId: device.deviceId, key: 'humidity', ts, value: i === 30 ? 1e200 : 60, readingId: null });
    }
    await t.app.services.telemetry.store(rows, []);
    const from = new Date(NOW - 24 * 3_600_000).toISOString();
    for (const url of [
      `/api/sensor/${device.deviceId}/readings?from=${from}`,
      `/api/sensor/${device.deviceId}/readings?from=${from}&key=humidity&buckets=1`,
      `/api/sensor/${device.deviceId}/readings.csv?from=${from}&tz=Europe/Paris`,
      `/api/sensor/${device.deviceId}/insights`,
      `/api/sensor/${device.deviceId}`,
    ]) {
      const response = await get(url);
      expect(response.statusCode, `${url}: ${response.body.slice(0, 300)}`).toBe(200);
    }
    const buckets = (await get(`/api/sensor/${device.deviceId}/readings?from=${from}&buckets=1`)).json<{
      readings: { min: number; avg: number; max: number }[];
    }>().readings;
    expect(buckets).toHaveLength(1);
    expect(Number.isFinite(buckets[0]?.avg)).toBe(true);
    const report = await t.app.inject({
      method: 'POST',
      url: '/api/reports',
      headers: owner.auth,
      payload: { siteId: site.id, month: '2026-11' },
    });
    expect(report.statusCode, report.body.slice(0, 300)).toBe(201);
    const id = report.json<{ report: { id: string } }>().report.id;
    for (const url of [`/api/reports/${id}`, `/api/reports/${id}/pdf`, `/api/reports/${id}/csv`]) {
      const response = await get(url);
      expect(response.statusCode, `${url}: ${response.body.slice(0, 300)}`).toBe(200);
    }
    clock = NOW;
  });
});
