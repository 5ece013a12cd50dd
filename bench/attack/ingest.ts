/**
 * Ingestion — every way in for a reading (HTTP telemetry, a transmitter for its sensor, the
 * embedded MQTT broker, The Things Stack, ChirpStack) is sent absurd values and hostile measure
 * names, and the LoRaWAN adapters the frames that fooled them: a counter that restarted, messages
 * without device address nor counter, a real retry, a retransmission, another session. Each answer
 * must say what was stored (`accepted` / `readings`, and `duplicates`); afterwards every read route
 * of every sensor answers 200, and each sensor's export holds exactly the readings expected, once.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import mqtt from 'mqtt';
import { devEui, EM300_FRAME, ttsUplink } from '../../apps/server/src/test/lorawan-uplinks.ts';
import { type Answer, call, frenchError, ok, Tally } from './support.ts';
import type { World } from './world.ts';

/** Values refused on every path, with the measure their message must name. */
const ABSURD: [Record<string, number | boolean>, string][] = [
  [{ temperature: 1e200 }, 'temperature'],
  [{ temperature: 1e308 }, 'temperature'],
  [{ temperature: -1e308 }, 'temperature'],
  [{ temperature: -273.2 }, 'temperature'],
  [{ humidity: 120 }, 'humidity'],
  [{ battery: -1 }, 'battery'],
  [{ door: 2 }, 'door'],
  [{ co2: -5 }, 'co2'],
  [{ ma_jauge: 2e9 }, 'ma_jauge'],
];
/** Measure names refused: those of the object prototype, and names outside the grammar. */
const HOSTILE_NAMES = ['constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', 'Temperature', 'x'.repeat(33), '9lives'];

/** An EM300-TH frame with this temperature. */
function em300(celsius: number): Buffer {
  const frame = Buffer.from(EM300_FRAME);
  frame.writeInt16LE(Math.round(celsius * 10), 5);
  return frame;
}

const json = (answer: Answer) => JSON.stringify(answer.body ?? answer.text.slice(0, 200));

export async function ingestion(w: World): Promise<Tally> {
  const tally = new Tally();
  const base = w.server.base;
  const token = w.adminA.token;
  const now = Date.now();
  /** What each sensor's export must hold at the end: its temperatures, each once. */
  const expected = new Map<string, number[]>();
  const expect = (sensorId: string, ...values: number[]) => expected.set(sensorId, [...(expected.get(sensorId) ?? []), ...values]);

  // Read again: an earlier family (the fuzz) may have renewed it.
  const { installationKey } = await ok<{ installationKey: string }>(base, 'GET', '/api/organization/installation-key', { token });
  const provision = (kind: 'sensor' | 'emitter', label: string) =>
    ok<{ deviceId: string; accessToken: string }>(base, 'POST', '/api/devices/provision', {
      body: {
        installationKey,
        serial: `INGEST-${label}-${randomUUID().slice(0, 6)}`,
        kind,
        name: `Ingestion ${label}`,
      },
    });
  const telemetry = (deviceToken: string, body: unknown) => call(base, 'POST', '/api/devices/telemetry', { token: deviceToken, body });
  const refusedInFrench = (label: string, answer: Answer, measure: string) => {
    tally.check(answer.status === 400, () => `${label} : ${answer.status} au lieu de 400 ${json(answer)}`);
    const problem = frenchError(answer);
    tally.check(problem === undefined, () => `${label} : ${problem ?? ''}`);
    const message = (answer.body as { message?: string } | undefined)?.message ?? '';
    tally.check(message.includes(`« ${measure}`), () => `${label} : le message ne nomme pas « ${measure} » : ${message}`);
  };

  // ---- HTTP telemetry ------------------------------------------------------------------------
  const sensor = await provision('sensor', 'HTTP');
  for (const [values, measure] of ABSURD) {
    const answer = await telemetry(sensor.accessToken, [{ values: { temperature: 4 } }, { values }]);
    refusedInFrench(`HTTP ${JSON.stringify(values)}`, answer, measure);
  }
  for (const name of HOSTILE_NAMES) {
    const answer = await call(base, 'POST', '/api/devices/telemetry', {
      token: sensor.accessToken,
      raw: `{"values":{"temperature":4,"${name}":1}}`,
    });
    refusedInFrench(`HTTP nom « ${name} »`, answer, name.slice(0, 40));
  }
  const batch = [1, 2, 3].map((n) => ({ id: `ingest-${n}`, ts: now - 50_000 + n * 1000, values: { temperature: 3 + n / 10 } }));
  const first = await telemetry(sensor.accessToken, batch);
  tally.check(
    first.status === 202 && json(first) === JSON.stringify({ accepted: 3 }),
    () => `HTTP premier envoi : ${first.status} ${json(first)}`,
  );
  const retried = await telemetry(sensor.accessToken, [...batch, { id: 'ingest-4', ts: now - 40_000, values: { temperature: 3.4 } }]);
  tally.check(
    retried.status === 202 && json(retried) === JSON.stringify({ accepted: 1, duplicates: 3 }),
    () => `HTTP relance : ${retried.status} ${json(retried)} au lieu de {"accepted":1,"duplicates":3}`,
  );
  expect(sensor.deviceId, 3.1, 3.2, 3.3, 3.4);

  // ---- A transmitter for its sensor ----------------------------------------------------------
  const emitter = await provision('emitter', 'EMETTEUR');
  const relayed = await provision('sensor', 'RELAIS');
  for (const [values, measure] of ABSURD.slice(0, 3)) {
    const answer = await telemetry(emitter.accessToken, { sensor: relayed.deviceId, values });
    refusedInFrench(`émetteur ${JSON.stringify(values)}`, answer, measure);
  }
  const relayedOk = await telemetry(emitter.accessToken, { sensor: relayed.deviceId, id: 'relais-1', values: { temperature: 5.5 } });
  tally.check(relayedOk.status === 202, () => `émetteur, lecture valide : ${relayedOk.status} ${json(relayedOk)}`);
  expect(relayed.deviceId, 5.5);

  // ---- Embedded MQTT broker ------------------------------------------------------------------
  const viaMqtt = await provision('sensor', 'MQTT');
  const client = await mqtt.connectAsync(w.server.mqttUrl, {
    clientId: viaMqtt.deviceId,
    username: viaMqtt.deviceId,
    password: viaMqtt.accessToken,
    reconnectPeriod: 0,
    connectTimeout: 5000,
  });
  const errors: string[] = [];
  client.on('message', (_topic, payload) => errors.push(payload.toString('utf8')));
  await client.subscribeAsync(`vigie/devices/${viaMqtt.deviceId}/errors`, { qos: 1 });
  const topic = `vigie/devices/${viaMqtt.deviceId}/telemetry`;
  for (const [values, measure] of [...ABSURD.slice(0, 3), [{ constructor: 1 }, 'constructor'] as const]) {
    const before = errors.length;
    await client.publishAsync(topic, JSON.stringify({ values }), { qos: 1 });
    for (let i = 0; i < 100 && errors.length === before; i += 1) await delay(20);
    const message = (JSON.parse(errors[before] ?? '{}') as { message?: string }).message ?? '';
    tally.check(message.includes(`« ${measure} »`), () => `MQTT ${JSON.stringify(values)} : sujet d’erreurs « ${message} »`);
  }
  for (let i = 0; i < 2; i += 1) {
    await client.publishAsync(topic, JSON.stringify({ id: 'mqtt-1', ts: now - 30_000, values: { temperature: 6.1 } }), { qos: 1 });
  }
  await client.endAsync();
  expect(viaMqtt.deviceId, 6.1);

  // ---- The Things Stack ----------------------------------------------------------------------
  const { integration: tts } = await ok<{ integration: { id: string; secret: string } }>(base, 'POST', '/api/integrations', {
    token,
    body: { type: 'tts', name: 'Réseau ingestion' },
  });
  const uplink = (target: { id: string; secret: string }, body: unknown, event?: string) =>
    call(base, 'POST', `/api/integrations/${target.id}/events${event ? `?event=${event}` : ''}`, {
      headers: { authorization: `Bearer ${target.secret}` },
      body,
    });
  const answered = (label: string, answer: Answer, status: string, readings: number, duplicates: number) => {
    // `duplicates` is there only when some were.
    const wanted = JSON.stringify(duplicates > 0 ? { status, readings, duplicates } : { status, readings });
    tally.check(answer.status === 200 && json(answer) === wanted, () => `${label} : ${answer.status} ${json(answer)} au lieu de ${wanted}`);
  };
  const register = async (eui: string, codec: string) =>
    (await ok<{ sensor: { id: string } }>(base, 'POST', '/api/lorawan/devices', { token, body: { devEui: eui, codec } })).sensor.id;

  const abp = devEui();
  const abpId = await register(abp, 'milesight-em300-th');
  const restartFirst = ttsUplink(abp, { fCnt: 100, frame: em300(4.1), receivedAt: new Date(now - 600_000) });
  answered('TTS trame 100', await uplink(tts, restartFirst), 'stored', 1, 0);
  answered('TTS même message renvoyé', await uplink(tts, restartFirst), 'duplicate', 0, 1);
  const retransmitted = ttsUplink(abp, { fCnt: 100, frame: em300(4.1), receivedAt: new Date(now - 600_000 + 5_000) });
  answered('TTS retransmission 5 s après', await uplink(tts, retransmitted), 'duplicate', 0, 1);
  const restarted = ttsUplink(abp, { fCnt: 100, frame: em300(9.9), receivedAt: new Date(now - 300_000) });
  answered('TTS compteur reparti, trame 100 autre charge', await uplink(tts, restarted), 'stored', 1, 0);
  const otherSession = ttsUplink(abp, { fCnt: 100, frame: em300(9.9), devAddr: '260B9999', receivedAt: new Date(now - 290_000) });
  answered('TTS autre session, même compteur et charge', await uplink(tts, otherSession), 'stored', 1, 0);
  expect(abpId, 4.1, 9.9, 9.9);

  const bare = devEui();
  const bareId = await register(bare, 'milesight-em300-th');
  for (const [celsius, ago] of [
    [2.1, 180_000],
    [2.3, 120_000],
    [2.3, 60_000],
  ] as const) {
    const message = ttsUplink(bare, { frame: em300(celsius), receivedAt: new Date(now - ago) });
    const { dev_addr: _devAddr, ...ids } = message.end_device_ids;
    const { f_cnt: _fCnt, ...rest } = message.uplink_message;
    answered(
      `TTS sans adresse ni compteur (${celsius} °C)`,
      await uplink(tts, { ...message, end_device_ids: ids, uplink_message: rest }),
      'stored',
      1,
      0,
    );
  }
  expect(bareId, 2.1, 2.3, 2.3);

  const decoded = devEui();
  const decodedId = await register(decoded, 'network');
  for (const [index, [values]] of ABSURD.slice(0, 5).entries()) {
    const message = ttsUplink(decoded, { fCnt: 10 + index, receivedAt: new Date(now - 100_000 + index * 1000) });
    const absurd = { ...message, uplink_message: { ...message.uplink_message, decoded_payload: values } };
    answered(`TTS decoded_payload ${JSON.stringify(values)}`, await uplink(tts, absurd), 'refused', 0, 0);
  }
  const { devices } = await ok<{ devices: { devEui: string; lastError: string | null }[] }>(base, 'GET', '/api/lorawan/devices', { token });
  const lastError = devices.find((device) => device.devEui === decoded)?.lastError ?? '';
  tally.check(/« \w+ »/.test(lastError), () => `TTS trame refusée : l’appareil ne dit pas pourquoi (« ${lastError} »)`);

  const { codec } = await ok<{ codec: { id: string } }>(base, 'POST', '/api/lorawan/codecs', {
    token,
    body: {
      name: 'Décodeur absurde',
      source: 'function decodeUplink(input) { return { data: { temperature: 1e308, battery: input.bytes[2] } }; }',
      payloadHex: EM300_FRAME.toString('hex'),
    },
  });
  const pasted = devEui();
  const pastedId = await register(pasted, codec.id);
  answered(
    'TTS décodeur collé qui rend 1e308',
    await uplink(tts, ttsUplink(pasted, { fCnt: 1, receivedAt: new Date(now - 20_000) })),
    'refused',
    0,
    0,
  );

  // ---- ChirpStack ----------------------------------------------------------------------------
  const { integration: chirpstack } = await ok<{ integration: { id: string; secret: string } }>(base, 'POST', '/api/integrations', {
    token,
    body: { type: 'chirpstack', name: 'ChirpStack ingestion' },
  });
  const cs = devEui();
  const csId = await register(cs, 'milesight-em300-th');
  const up = (options: { fCnt?: number; devAddr?: string; celsius: number; ago: number; deduplicationId: string }) => ({
    deduplicationId: options.deduplicationId,
    time: new Date(now - options.ago).toISOString(),
    deviceInfo: { devEui: cs, deviceName: 'Chambre froide' },
    ...(options.devAddr === undefined ? {} : { devAddr: options.devAddr }),
    ...(options.fCnt === undefined ? {} : { fCnt: options.fCnt }),
    fPort: 85,
    data: em300(options.celsius).toString('base64'),
    rxInfo: [{ gatewayId: '0016c001f153a14c', rssi: -80, snr: 7.5 }],
  });
  const csFirst = up({ fCnt: 12, devAddr: '01fa3b2c', celsius: 2.5, ago: 500_000, deduplicationId: randomUUID() });
  answered('ChirpStack trame 12', await uplink(chirpstack, csFirst, 'up'), 'stored', 1, 0);
  answered('ChirpStack même deduplicationId', await uplink(chirpstack, csFirst, 'up'), 'duplicate', 0, 1);
  const csRestart = up({ fCnt: 12, devAddr: '01fa3b2c', celsius: 6.5, ago: 400_000, deduplicationId: randomUUID() });
  answered('ChirpStack compteur reparti', await uplink(chirpstack, csRestart, 'up'), 'stored', 1, 0);
  for (const [celsius, ago] of [
    [1.5, 300_000],
    [1.7, 240_000],
  ] as const) {
    answered(
      `ChirpStack sans adresse ni compteur (${celsius} °C)`,
      await uplink(chirpstack, up({ celsius, ago, deduplicationId: randomUUID() }), 'up'),
      'stored',
      1,
      0,
    );
  }
  expect(csId, 2.5, 6.5, 1.5, 1.7);
  const csDecoded = devEui();
  const csDecodedId = await register(csDecoded, 'network');
  const absurdObject = { ...up({ fCnt: 1, celsius: 1, ago: 10_000, deduplicationId: randomUUID() }), deviceInfo: { devEui: csDecoded } };
  answered(
    'ChirpStack object { humidity: 250 }',
    await uplink(chirpstack, { ...absurdObject, object: { humidity: 250 } }, 'up'),
    'refused',
    0,
    0,
  );
  for (const id of [decodedId, pastedId, csDecodedId]) expected.set(id, []);

  // ---- Afterwards: every read route answers, nothing lost nor doubled ------------------------
  const from = new Date(now - 3_600_000).toISOString();
  const to = new Date(now + 60_000).toISOString();
  for (const [sensorId, values] of expected) {
    for (const url of [
      `/api/sensor/${sensorId}`,
      `/api/sensor/${sensorId}/readings?from=${from}&to=${to}`,
      `/api/sensor/${sensorId}/readings?from=${from}&to=${to}&buckets=1`,
      `/api/sensor/${sensorId}/insights`,
    ]) {
      const answer = await call(base, 'GET', url, { token });
      tally.check(answer.status === 200, () => `GET ${url} : ${answer.status} ${answer.text.slice(0, 160)}`);
    }
    const csv = await call(base, 'GET', `/api/sensor/${sensorId}/readings.csv?key=temperature&from=${from}&to=${to}&tz=Europe/Paris`, {
      token,
    });
    tally.check(csv.status === 200, () => `CSV de ${sensorId} : ${csv.status}`);
    const stored = csv.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
      .slice(1)
      .filter((line) => line !== '')
      .map((line) => Number((line.split(';')[3] ?? '').replace(',', '.')))
      .sort((a, b) => a - b);
    const wanted = [...values].sort((a, b) => a - b);
    tally.check(
      JSON.stringify(stored) === JSON.stringify(wanted),
      () => `lectures de ${sensorId} : ${JSON.stringify(stored)} au lieu de ${JSON.stringify(wanted)} (perdues ou en double)`,
    );
  }
  const list = await call(base, 'GET', '/api/sensor', { token });
  tally.check(list.status === 200, () => `GET /api/sensor : ${list.status}`);
  const month = new Date().toISOString().slice(0, 7);
  const report = await call(base, 'POST', '/api/reports', { token, body: { siteId: w.a.siteId, month } });
  tally.check(report.status === 201, () => `rapport du mois : ${report.status} ${report.text.slice(0, 160)}`);
  const reportId = (report.body as { report?: { id: string } } | undefined)?.report?.id;
  if (reportId) {
    for (const url of [`/api/reports/${reportId}/pdf`, `/api/reports/${reportId}/csv`]) {
      const answer = await call(base, 'GET', url, { token });
      tally.check(answer.status === 200, () => `GET ${url} : ${answer.status}`);
    }
  }
  return tally;
}
