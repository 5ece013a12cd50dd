/**
 * npm run bench:ingest — sustained ingestion through HTTP and MQTT (QoS 1) into each database,
 * beside a baseline measured in the same run (the same rows written straight to the database in
 * large bulk statements), and the latency from an MQTT publish to the browser's live stream; and
 * LoRaWAN uplinks through a network server's webhook against the HTTP telemetry, frame for reading.
 * Fails when a budget of the device-protocol issue is missed.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import mqtt, { type MqttClient } from 'mqtt';
import pg from 'pg';
import { encodeEm300Th, ttsUplinkMessage } from '../apps/server/src/simulator/lorawan.ts';
import { bareAedesFleet, FLEET_DEVICES, type FleetFigures, vigieFleet } from './mqtt-fleet';
import { benchLogin, type BenchServer as Server, ensureBuilt, fmt, json, startServer } from './support';

const PHASE_MS = Number(process.env['BENCH_PHASE_MS'] ?? 6000);
const READINGS_PER_MESSAGE = 50;
const CLIENTS = 8;
const WINDOW = 8;
/** Pairs of alternating phases, without and with alert rules, then without and with the predictive analysis. */
const ROUNDS = 5;
// Eight clients carry the whole load here: a real device's per-second limit would cap the figure.
const CLIENT_LIMIT = { MQTT_MAX_MESSAGES_PER_SECOND: '100000' };
const BUDGETS = {
  mqttPglite: 5000,
  mqttPostgres: 20000,
  latencyP99Ms: 250,
  rulesRatio: 0.8,
  insightsRatio: 0.9,
  fleetRatio: 0.6,
  fleetP99Ms: 100,
  webhookRatio: 0.8,
};

async function setup(server: Server, devices: number) {
  const accessToken = await benchLogin(server);
  const user = { authorization: `Bearer ${accessToken}` };
  const { installationKey } = await json<{ installationKey: string }>(`${server.base}/api/organization/installation-key`, {
    headers: user,
  });
  const provisioned = [];
  for (let i = 0; i < devices; i += 1) {
    provisioned.push(
      await json<{ deviceId: string; accessToken: string }>(`${server.base}/api/devices/provision`, {
        method: 'POST',
        body: JSON.stringify({ installationKey, serial: `BENCH-${randomUUID().slice(0, 8)}`, kind: 'sensor' }),
      }),
    );
  }
  return { userToken: accessToken, devices: provisioned };
}

let sequence = 0;
const message = (count: number, ts = Date.now()) =>
  JSON.stringify(Array.from({ length: count }, () => ({ id: `b${(sequence += 1)}`, ts, values: { temperature: 4 + Math.random() } })));

async function connectAll(server: Server, devices: { deviceId: string; accessToken: string }[]): Promise<MqttClient[]> {
  return Promise.all(
    devices.map((d) =>
      mqtt.connectAsync(server.mqttUrl, { clientId: d.deviceId, username: d.deviceId, password: d.accessToken, reconnectPeriod: 0 }),
    ),
  );
}

/** QoS 1 publishers, each keeping WINDOW messages in flight: readings acknowledged per second. */
async function mqttThroughput(server: Server, devices: { deviceId: string; accessToken: string }[]): Promise<number> {
  const clients = await connectAll(server, devices);
  let acked = 0;
  const end = Date.now() + PHASE_MS;
  const start = Date.now();
  await Promise.all(
    clients.map(async (client, index) => {
      const topic = `vigie/devices/${devices[index]?.deviceId}/telemetry`;
      const lane = async () => {
        while (Date.now() < end) {
          await client.publishAsync(topic, message(READINGS_PER_MESSAGE), { qos: 1 });
          acked += READINGS_PER_MESSAGE;
        }
      };
      await Promise.all(Array.from({ length: WINDOW }, lane));
    }),
  );
  const seconds = (Date.now() - start) / 1000;
  await Promise.all(clients.map((client) => client.endAsync()));
  return acked / seconds;
}

/** Concurrent keep-alive HTTP posts: readings answered 202 per second. */
async function httpThroughput(server: Server, devices: { deviceId: string; accessToken: string }[]): Promise<number> {
  let accepted = 0;
  const end = Date.now() + PHASE_MS;
  const start = Date.now();
  await Promise.all(
    devices.flatMap((device) =>
      Array.from({ length: WINDOW }, async () => {
        while (Date.now() < end) {
          const response = await fetch(`${server.base}/api/devices/telemetry`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${device.accessToken}` },
            body: message(READINGS_PER_MESSAGE),
          });
          if (response.status === 202) accepted += ((await response.json()) as { accepted: number }).accepted;
          else throw new Error(`telemetry ${response.status}`);
        }
      }),
    ),
  );
  return accepted / ((Date.now() - start) / 1000);
}

/** Publishes ~1 000 readings/s (one per message) and times each value's arrival on the live stream. */
async function latency(server: Server, userToken: string, devices: { deviceId: string; accessToken: string }[]) {
  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  const controller = new AbortController();
  const stream = await fetch(`${server.base}/api/stream`, { headers: { authorization: `Bearer ${userToken}` }, signal: controller.signal });
  const reader = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of stream.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let index: number;
        while ((index = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, index);
          buffer = buffer.slice(index + 2);
          const data = block.split('\n').find((line) => line.startsWith('data: '));
          if (!block.includes('event: reading') || !data) continue;
          const seq = (JSON.parse(data.slice(6)) as { values: { seq?: { value: number } } }).values.seq?.value;
          const sent = seq === undefined ? undefined : sentAt.get(seq);
          if (sent !== undefined) latencies.push(performance.now() - sent);
        }
      }
    } catch {
      // Aborted at the end.
    }
  })();
  const clients = await connectAll(server, devices);
  const target = 1000;
  const start = Date.now();
  let n = 0;
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const elapsed = Date.now() - start;
      if (elapsed > 5000) {
        clearInterval(timer);
        resolve();
        return;
      }
      // Catch up with the schedule, so timer jitter does not lower the rate.
      const due = Math.floor((elapsed / 1000) * target) - n;
      for (let i = 0; i < due; i += 1) {
        const lane = n % clients.length;
        n += 1;
        sentAt.set(n, performance.now());
        (clients[lane] as MqttClient).publish(
          `vigie/devices/${devices[lane]?.deviceId}/telemetry`,
          JSON.stringify({ ts: Date.now(), values: { seq: n } }),
          { qos: 1 },
        );
      }
    }, 10);
  });
  const rate = n / ((Date.now() - start) / 1000);
  await new Promise((resolve) => setTimeout(resolve, 500));
  controller.abort();
  await reader;
  await Promise.all(clients.map((client) => client.endAsync()));
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? Number.NaN;
  return { rate, p50: pct(50), p99: pct(99), samples: latencies.length };
}

type Exec = (text: string, params: unknown[]) => Promise<unknown>;

/** The baseline: the same rows written straight to the database, 5 000 per bulk statement. */
async function baseline(exec: Exec): Promise<number> {
  const deviceId = randomUUID();
  let rows = 0;
  const end = Date.now() + PHASE_MS / 2;
  const start = Date.now();
  while (Date.now() < end) {
    const ts = new Date().toISOString();
    const batch = Array.from({ length: 5000 }, () => ({
      device_id: deviceId,
      key: 'temperature',
      ts,
      value: 4 + Math.random(),
      reading_id: `x${(sequence += 1)}`,
    }));
    await exec(
      `insert into readings (device_id, key, ts, value, reading_id)
       select device_id, key, ts, value, reading_id from json_to_recordset($1::json)
       as x(device_id uuid, key text, ts timestamptz, value float8, reading_id text) on conflict do nothing`,
      [JSON.stringify(batch)],
    );
    rows += batch.length;
  }
  return rows / ((Date.now() - start) / 1000);
}

/** LoRaWAN devices registered for the webhook run, and as many devices beside them on the HTTP telemetry. */
const WEBHOOK_DEVICES = 128;
/** Pairs of alternating phases, HTTP telemetry and webhook. */
const WEBHOOK_ROUNDS = 3;

/** CLIENTS × WINDOW requests kept in flight, each sent as soon as the previous one is answered: requests answered per second. */
async function keepBusy(send: () => Promise<void>): Promise<number> {
  let answered = 0;
  const end = Date.now() + PHASE_MS;
  const start = Date.now();
  await Promise.all(
    Array.from({ length: CLIENTS * WINDOW }, async () => {
      while (Date.now() < end) {
        await send();
        answered += 1;
      }
    }),
  );
  return answered / ((Date.now() - start) / 1000);
}

/** What an EM300-TH in a fridge reports: encoded in its frame for the webhook, sent as one reading over HTTP. */
function fridgeValues() {
  return {
    temperature: Math.round((3 + Math.random() * 2) * 10) / 10,
    humidity: Math.round((80 + Math.random() * 10) * 2) / 2,
    battery: 90,
  };
}

/**
 * LoRaWAN uplinks through The Things Stack's webhook against the HTTP telemetry, one reading per
 * request on both sides: a TTS v3 uplink message carrying one EM300-TH frame (temperature,
 * humidity, battery) for one of WEBHOOK_DEVICES registered devices in turn, each with its session
 * and rising frame counter, posted to `/api/integrations/:id/events`; and the same three values as
 * one reading posted to `/api/devices/telemetry` by one of as many provisioned sensors in turn. No
 * rule on either side. WEBHOOK_ROUNDS pairs of phases in the order H W, W H, H W: medians of each
 * side, and the median of each pair's ratio (what the budget judges).
 */
async function webhookCost(server: Server, userToken: string): Promise<Result['webhook']> {
  const user = { authorization: `Bearer ${userToken}` };
  const { integration } = await json<{ integration: { id: string; secret: string } }>(`${server.base}/api/integrations`, {
    method: 'POST',
    headers: user,
    body: JSON.stringify({ type: 'tts', name: 'Banc d’ingestion' }),
  });
  const lorawan: { devEui: string; devAddr: string; fCnt: number }[] = [];
  for (let i = 0; i < WEBHOOK_DEVICES; i += 1) {
    const devEui = `24e124${randomBytes(5).toString('hex')}`;
    await json(`${server.base}/api/lorawan/devices`, {
      method: 'POST',
      headers: user,
      body: JSON.stringify({ devEui, codec: 'milesight-em300-th' }),
    });
    lorawan.push({ devEui, devAddr: randomBytes(4).toString('hex'), fCnt: 0 });
  }
  const { devices: sensors } = await setup(server, WEBHOOK_DEVICES);
  // The integration's own path on this server (its `url` is built on PUBLIC_URL).
  const events = `${server.base}/api/integrations/${integration.id}/events`;
  const webhookHeaders = { 'content-type': 'application/json', authorization: `Bearer ${integration.secret}` };

  let nextUplink = 0;
  const uplink = async () => {
    const device = lorawan[nextUplink++ % lorawan.length] as (typeof lorawan)[number];
    device.fCnt += 1;
    const body = ttsUplinkMessage({
      devEui: device.devEui,
      devAddr: device.devAddr,
      fCnt: device.fCnt,
      frame: encodeEm300Th(fridgeValues()),
      receivedAt: new Date(),
      gatewayEui: 'b827ebfffe6c2a11',
      rssi: -90,
      snr: 7.5,
      deviceName: device.devEui,
      application: 'banc',
    });
    const response = await fetch(events, { method: 'POST', headers: webhookHeaders, body: JSON.stringify(body) });
    const answer = (await response.json()) as { status?: string; readings?: number; message?: string };
    if (response.status !== 200 || answer.status !== 'stored' || answer.readings !== 1)
      throw new Error(`webhook ${response.status} ${JSON.stringify(answer)}`);
  };
  let nextReading = 0;
  const reading = async () => {
    const device = sensors[nextReading++ % sensors.length] as (typeof sensors)[number];
    const response = await fetch(`${server.base}/api/devices/telemetry`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${device.accessToken}` },
      body: JSON.stringify([{ id: `w${(sequence += 1)}`, ts: Date.now(), values: fridgeValues() }]),
    });
    const answer = (await response.json()) as { accepted?: number };
    if (response.status !== 202 || answer.accepted !== 1) throw new Error(`telemetry ${response.status} ${JSON.stringify(answer)}`);
  };

  const http: number[] = [];
  const webhook: number[] = [];
  const httpPhase = async () => {
    http.push(await keepBusy(reading));
  };
  const webhookPhase = async () => {
    webhook.push(await keepBusy(uplink));
  };
  for (let round = 0; round < WEBHOOK_ROUNDS; round += 1) {
    const [first, second] = round % 2 === 0 ? [httpPhase, webhookPhase] : [webhookPhase, httpPhase];
    await first();
    await second();
  }
  const pairs = webhook.map((rate, round) => rate / (http[round] ?? Number.NaN));
  return { http: median(http), webhook: median(webhook), ratio: median(pairs), pairs };
}

interface Result {
  database: string;
  /** 1 000 devices connected, one reading per message, the next after the PUBACK; and bare Aedes with the same clients. */
  fleet: { vigie: FleetFigures; bare: FleetFigures; ratio: number; pairs: number[] };
  mqtt: number;
  /** The same MQTT run once every sensor has an alert rule; both are medians of alternating phases. */
  mqttWithRules: number;
  /** The median of the ratios of each pair of phases with and without rules. */
  rulesRatio: number;
  http: number;
  baseline: number;
  latency: { rate: number; p50: number; p99: number; samples: number };
  /** MQTT with rules, without and with the analysis of every sensor once per phase: medians of alternating phases. */
  insights: { without: number; with: number; ratio: number; analysed: number[] };
  /** HTTP telemetry (readings/s) and The Things Stack's webhook (uplinks/s), one reading per request: medians of alternating phases. */
  webhook: { http: number; webhook: number; ratio: number; pairs: number[] };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** ROUNDS pairs of phases in the order A B, B A, A B…: a drift of the machine weighs on both sides alike. */
async function alternate(a: () => Promise<void>, b: () => Promise<void>): Promise<void> {
  for (let round = 0; round < ROUNDS; round += 1) {
    const [first, second] = round % 2 === 0 ? [a, b] : [b, a];
    await first();
    await second();
  }
}

/** The medians of both sides, and the median of each pair's ratio (what the budgets judge). */
function compared(without: number[], withIt: number[]): { without: number; with: number; ratio: number } {
  const ratios = withIt.map((rate, round) => rate / (without[round] ?? Number.NaN));
  return { without: median(without), with: median(withIt), ratio: median(ratios) };
}

/** One rule on every sensor (≤ +8 °C: these readings stay within it, as most of a fleet does); their ids. */
async function watchAll(server: Server, userToken: string, devices: { deviceId: string }[]): Promise<string[]> {
  const ids: string[] = [];
  for (const device of devices) {
    const { rule } = await json<{ rule: { id: string } }>(`${server.base}/api/alert-rules`, {
      method: 'POST',
      headers: { authorization: `Bearer ${userToken}` },
      body: JSON.stringify({ name: 'Froid positif', sensorId: device.deviceId, preset: 'chilled_perishable' }),
    });
    ids.push(rule.id);
  }
  return ids;
}

async function unwatch(server: Server, userToken: string, ids: string[]) {
  for (const id of ids) {
    const response = await fetch(`${server.base}/api/alert-rules/${id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${userToken}` },
    });
    if (!response.ok) throw new Error(`suppression de la règle ${id} : ${response.status}`);
  }
}

/**
 * The cost of alert rules: phases without and with a rule on every sensor, on the same server, in
 * the order A B, B A…, the rules created and deleted between phases. Leaves the rules in place.
 */
async function rulesCost(
  server: Server,
  userToken: string,
  devices: { deviceId: string; accessToken: string }[],
): Promise<{ without: number; with: number; ratio: number }> {
  const without: number[] = [];
  const withIt: number[] = [];
  let ids: string[] = [];
  const bare = async () => {
    await unwatch(server, userToken, ids);
    ids = [];
    without.push(await mqttThroughput(server, devices));
  };
  const watched = async () => {
    if (ids.length === 0) ids = await watchAll(server, userToken, devices);
    withIt.push(await mqttThroughput(server, devices));
  };
  await alternate(bare, watched);
  if (ids.length === 0) await watchAll(server, userToken, devices);
  return compared(without, withIt);
}

/**
 * The cost of the predictive analysis: a second server, alike but whose background pass runs every
 * second and analyses every sensor again once per phase (in the product: every five minutes, fifty
 * times less often). Its sensors get a first phase of history and the same rules. Then phases
 * alternate between the two servers, the other one frozen (SIGSTOP) so that it takes no processor
 * time, in the order A B, B A, A B…; the median of the pairs' ratios is what counts.
 */
async function insightsCost(
  withoutServer: Server,
  withoutDevices: { deviceId: string; accessToken: string }[],
  env: Record<string, string>,
): Promise<{ without: number; with: number; ratio: number; analysed: number[] }> {
  const server = await startServer({
    ...env,
    ...CLIENT_LIMIT,
    INSIGHTS_INTERVAL_SECONDS: '1',
    INSIGHTS_REFRESH_SECONDS: String(Math.max(1, Math.round(PHASE_MS / 1000))),
  });
  const freeze = (one: Server) => one.child.kill('SIGSTOP');
  const thaw = (one: Server) => one.child.kill('SIGCONT');
  try {
    freeze(withoutServer);
    const { userToken, devices } = await setup(server, CLIENTS);
    await mqttThroughput(server, devices);
    await watchAll(server, userToken, devices);
    const without: number[] = [];
    const withIt: number[] = [];
    const analysed: number[] = [];
    const withoutPhase = async () => {
      freeze(server);
      thaw(withoutServer);
      without.push(await mqttThroughput(withoutServer, withoutDevices));
    };
    const withPhase = async () => {
      freeze(withoutServer);
      thaw(server);
      const from = Date.now();
      withIt.push(await mqttThroughput(server, devices));
      analysed.push(await analysedSince(server, userToken, devices, from));
    };
    await alternate(withoutPhase, withPhase);
    return { ...compared(without, withIt), analysed };
  } finally {
    thaw(withoutServer);
    thaw(server);
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
  }
}

/**
 * How many of these sensors the background pass analysed since `from`, read from the figures the
 * API serves (a figure the request itself had to compute is dated after the question, not counted).
 */
async function analysedSince(server: Server, userToken: string, devices: { deviceId: string }[], from: number): Promise<number> {
  const asked = Date.now();
  let analysed = 0;
  for (const device of devices) {
    const { insights } = await json<{ insights: { computedAt: string } }>(
      `${server.base}/api/sensor/${device.deviceId}/insights?key=temperature`,
      {
        headers: { authorization: `Bearer ${userToken}` },
      },
    );
    const at = Date.parse(insights.computedAt);
    if (at >= from && at < asked) analysed += 1;
  }
  return analysed;
}

/** Pairs of alternating fleet phases, Vigie and bare Aedes: the baseline varies a lot from one run to the next. */
const FLEET_ROUNDS = 3;

/**
 * The fleet scenario on a server of its own with the product's per-device limits, and bare Aedes
 * with the same clients, in FLEET_ROUNDS pairs of phases in the order V B, B V, V B (the server
 * frozen while Aedes runs): medians of each side, and the median of each pair's ratio.
 */
async function fleetScenario(env: Record<string, string>): Promise<Result['fleet']> {
  const server = await startServer({ ...env, INSIGHTS_INTERVAL_SECONDS: '0' });
  try {
    const { devices } = await setup(server, FLEET_DEVICES);
    const vigie: FleetFigures[] = [];
    const bare: FleetFigures[] = [];
    const vigiePhase = async () => {
      server.child.kill('SIGCONT');
      vigie.push(await vigieFleet(server, devices));
      server.child.kill('SIGSTOP');
    };
    const barePhase = async () => {
      bare.push(await bareAedesFleet());
    };
    server.child.kill('SIGSTOP');
    for (let round = 0; round < FLEET_ROUNDS; round += 1) {
      const [first, second] = round % 2 === 0 ? [vigiePhase, barePhase] : [barePhase, vigiePhase];
      await first();
      await second();
    }
    server.child.kill('SIGCONT');
    const medians = (figures: FleetFigures[]): FleetFigures => ({
      messagesPerSecond: median(figures.map((f) => f.messagesPerSecond)),
      p50Ms: median(figures.map((f) => f.p50Ms)),
      p99Ms: median(figures.map((f) => f.p99Ms)),
      brokerCores: median(figures.map((f) => f.brokerCores)),
      clientCores: median(figures.map((f) => f.clientCores)),
    });
    const ratios = vigie.map((v, round) => v.messagesPerSecond / (bare[round]?.messagesPerSecond ?? Number.NaN));
    return { vigie: medians(vigie), bare: medians(bare), ratio: median(ratios), pairs: ratios };
  } finally {
    server.child.kill('SIGCONT');
    server.child.kill('SIGKILL');
  }
}

async function run(
  database: 'PGlite' | 'PostgreSQL',
  env: Record<string, string>,
  insightsEnv: Record<string, string>,
  fleetEnv: Record<string, string>,
  exec: () => Promise<{ exec: Exec; close(): Promise<void> }>,
): Promise<Result> {
  // Without background analysis here: its cost is measured against a second server below.
  const server = await startServer({ ...env, ...CLIENT_LIMIT, INSIGHTS_INTERVAL_SECONDS: '0' });
  try {
    const { userToken, devices } = await setup(server, CLIENTS);
    const rules = await rulesCost(server, userToken, devices);
    const httpRate = await httpThroughput(server, devices);
    const webhook = await webhookCost(server, userToken);
    const lat = await latency(server, userToken, devices);
    const insights = await insightsCost(server, devices, insightsEnv);
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
    const direct = await exec();
    const base = await baseline(direct.exec);
    await direct.close();
    const fleet = await fleetScenario(fleetEnv);
    return {
      database,
      fleet,
      mqtt: rules.without,
      mqttWithRules: rules.with,
      rulesRatio: rules.ratio,
      http: httpRate,
      baseline: base,
      latency: lat,
      insights,
      webhook,
    };
  } finally {
    server.child.kill('SIGKILL');
  }
}

async function main() {
  ensureBuilt('server');
  const started = Date.now();
  const results: Result[] = [];

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigie-bench-'));
  results.push(
    await run(
      'PGlite',
      { DATA_DIR: dataDir, DATABASE_URL: '' },
      { DATA_DIR: path.join(dataDir, 'with-insights'), DATABASE_URL: '' },
      { DATA_DIR: path.join(dataDir, 'fleet'), DATABASE_URL: '' },
      async () => {
        const db = await PGlite.create(path.join(dataDir, 'pglite'));
        return { exec: (text, params) => db.query(text, params), close: () => db.close() };
      },
    ),
  );
  fs.rmSync(dataDir, { recursive: true, force: true });

  const adminUrl = process.env['PG_ADMIN_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `vigie_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  admin.on('error', (error) => console.warn(`connexion d'administration perdue : ${error.message}`));
  await admin.connect().catch((error: Error) => {
    throw new Error(`PostgreSQL injoignable (${adminUrl}) : ${error.message}`);
  });
  // Each server its database, as each PGlite server its folder: the analysis sees only its own sensors.
  const names = [name, `${name}_insights`, `${name}_fleet`];
  const urlOf = (database: string) => {
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    return url.toString();
  };
  const url = urlOf(name);
  try {
    for (const database of names) await admin.query(`create database ${database}`);
    const pgEnv = (database: string) => ({
      DATABASE_URL: urlOf(database),
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'vigie-bench-')),
    });
    results.push(
      await run('PostgreSQL', pgEnv(name), pgEnv(`${name}_insights`), pgEnv(`${name}_fleet`), async () => {
        const pool = new pg.Pool({ connectionString: url, max: 4 });
        pool.on('error', (error) => console.warn(`connexion de mesure perdue : ${error.message}`));
        return { exec: (text, params) => pool.query(text, params), close: () => pool.end() };
      }),
    );
  } finally {
    for (const database of names) await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  }

  console.log(
    `\nIngestion Vigie — ${CLIENTS} appareils, ${READINGS_PER_MESSAGE} lectures par message, ${WINDOW} messages en vol par appareil, phases de ${PHASE_MS / 1000} s\n`,
  );
  console.log(
    'base        | MQTT QoS 1 (lect./s) | HTTP 202 (lect./s) | référence : insertion directe (lect./s) | MQTT / référence | latence publication → navigateur',
  );
  console.log(
    '------------|----------------------|--------------------|------------------------------------------|------------------|----------------------------------',
  );
  for (const r of results) {
    console.log(
      `${r.database.padEnd(11)} | ${fmt(r.mqtt).padStart(20)} | ${fmt(r.http).padStart(18)} | ${fmt(r.baseline).padStart(40)} | ${`${Math.round((r.mqtt / r.baseline) * 100)} %`.padStart(16)} | p50 ${r.latency.p50.toFixed(1)} ms, p99 ${r.latency.p99.toFixed(1)} ms à ${fmt(r.latency.rate)} lect./s (${r.latency.samples} mesures)`,
    );
  }
  console.log(
    `\nMédianes de ${ROUNDS} paires de phases alternées sans et avec règles (avec / sans : médiane des rapports de chaque paire) :`,
  );
  console.log('base        | MQTT sans règle (lect./s) | MQTT, une règle d’alerte par capteur (lect./s) | avec / sans');
  console.log('------------|---------------------------|-------------------------------------------------|------------');
  for (const r of results) {
    console.log(
      `${r.database.padEnd(11)} | ${fmt(r.mqtt).padStart(25)} | ${fmt(r.mqttWithRules).padStart(47)} | ${`${Math.round(r.rulesRatio * 100)} %`.padStart(10)}`,
    );
  }
  console.log(
    `\nMédianes de ${ROUNDS} paires de phases alternées entre un serveur sans analyse prédictive et un serveur avec (avec / sans : médiane des rapports de chaque paire) :`,
  );
  console.log(
    'base        | MQTT avec règles (lect./s) | MQTT avec règles et analyse prédictive (lect./s) | avec / sans | capteurs analysés par phase',
  );
  console.log(
    '------------|----------------------------|--------------------------------------------------|-------------|-----------------------------',
  );
  for (const r of results) {
    console.log(
      `${r.database.padEnd(11)} | ${fmt(r.insights.without).padStart(26)} | ${fmt(r.insights.with).padStart(48)} | ${`${Math.round(r.insights.ratio * 100)} %`.padStart(10)} | ${`${r.insights.analysed.join(', ')} sur ${CLIENTS}`.padStart(28)}`,
    );
  }
  console.log(
    `\nLoRaWAN\u202f: webhook The Things Stack v3 (une trame EM300-TH par message, ${WEBHOOK_DEVICES} appareils enregistrés) contre la télémétrie HTTP (une lecture par requête, ${WEBHOOK_DEVICES} capteurs), ${CLIENTS * WINDOW} requêtes en vol\u202f; médianes de ${WEBHOOK_ROUNDS} paires de phases alternées (webhook / HTTP\u202f: médiane des rapports de chaque paire)`,
  );
  console.log(
    'base        | HTTP, une lecture par requête (lect./s) | webhook, une trame par message (trames/s) | webhook / HTTP | chaque paire',
  );
  console.log(
    '------------|------------------------------------------|--------------------------------------------|----------------|-------------',
  );
  for (const r of results) {
    const percent = (value: number) => `${Math.round(value * 100)} %`;
    console.log(
      `${r.database.padEnd(11)} | ${fmt(r.webhook.http).padStart(40)} | ${fmt(r.webhook.webhook).padStart(42)} | ${percent(r.webhook.ratio).padStart(14)} | ${r.webhook.pairs.map(percent).join(', ')}`,
    );
  }
  console.log(
    `\nFlotte MQTT : ${fmt(FLEET_DEVICES)} appareils connectés, une lecture par message en QoS 1, le suivant après le PUBACK ; référence : Aedes nu, mêmes clients, dans la même exécution ; médianes de ${FLEET_ROUNDS} paires de phases alternées (Vigie / nu : médiane des rapports de chaque paire)`,
  );
  console.log(
    'base        | Vigie (messages/s) | PUBACK p50 / p99     | Aedes nu (messages/s) | PUBACK p50 / p99     | Vigie / nu | chaque paire',
  );
  console.log(
    '------------|--------------------|----------------------|-----------------------|----------------------|------------|-------------',
  );
  const latencies = (f: FleetFigures) => `${f.p50Ms.toFixed(1)} / ${f.p99Ms.toFixed(1)} ms`;
  for (const r of results) {
    const { vigie, bare, ratio, pairs } = r.fleet;
    const percent = (value: number) => `${Math.round(value * 100)} %`;
    console.log(
      `${r.database.padEnd(11)} | ${fmt(vigie.messagesPerSecond).padStart(18)} | ${latencies(vigie).padStart(20)} | ${fmt(bare.messagesPerSecond).padStart(21)} | ${latencies(bare).padStart(20)} | ${percent(ratio).padStart(10)} | ${pairs.map(percent).join(', ')}`,
    );
  }
  // Which side limits each figure: a process at about one core cannot go faster (Node runs its code on one thread).
  const cores = (f: FleetFigures) => `broker ${fmt(f.brokerCores, 2)}, clients ${fmt(f.clientCores, 2)}`;
  console.log('\nCœurs utilisés pendant la mesure (médianes ; 1 = un cœur plein) :');
  for (const r of results) console.log(`${r.database.padEnd(11)} | Vigie : ${cores(r.fleet.vigie)} | Aedes nu : ${cores(r.fleet.bare)}`);
  console.log(`\nDurée totale : ${Math.round((Date.now() - started) / 1000)} s`);

  const failures: string[] = [];
  const byName = (name: string) => results.find((r) => r.database === name) as Result;
  if (byName('PGlite').mqtt < BUDGETS.mqttPglite)
    failures.push(`MQTT sur PGlite : ${fmt(byName('PGlite').mqtt)} lect./s < ${fmt(BUDGETS.mqttPglite)}`);
  if (byName('PostgreSQL').mqtt < BUDGETS.mqttPostgres)
    failures.push(`MQTT sur PostgreSQL : ${fmt(byName('PostgreSQL').mqtt)} lect./s < ${fmt(BUDGETS.mqttPostgres)}`);
  for (const r of results) {
    if (!(r.latency.p99 < BUDGETS.latencyP99Ms))
      failures.push(`latence p99 sur ${r.database} : ${r.latency.p99.toFixed(1)} ms ≥ ${BUDGETS.latencyP99Ms} ms`);
  }
  for (const r of results) {
    if (r.rulesRatio < BUDGETS.rulesRatio)
      failures.push(
        `MQTT avec règles sur ${r.database} : ${Math.round(r.rulesRatio * 100)} % du débit sans règle < ${BUDGETS.rulesRatio * 100} %`,
      );
  }
  for (const r of results) {
    if (r.insights.ratio < BUDGETS.insightsRatio)
      failures.push(
        `MQTT avec analyse prédictive sur ${r.database} : ${Math.round(r.insights.ratio * 100)} % du débit sans elle < ${BUDGETS.insightsRatio * 100} %`,
      );
  }
  for (const r of results) {
    // A pass that gave way to ingestion would cost nothing and analyse nothing: it must do its work.
    const analysed = r.insights.analysed.reduce((sum, count) => sum + count, 0) / r.insights.analysed.length;
    if (analysed < CLIENTS * 0.9)
      failures.push(`analyse prédictive sur ${r.database} : ${analysed.toFixed(1)} capteurs sur ${CLIENTS} analysés par phase en moyenne`);
  }
  for (const r of results) {
    if (!(r.webhook.ratio >= BUDGETS.webhookRatio))
      failures.push(
        `webhook LoRaWAN sur ${r.database}\u202f: ${fmt(r.webhook.webhook)} trames/s, ${Math.round(r.webhook.ratio * 100)} % des ${fmt(r.webhook.http)} lect./s de la télémétrie HTTP < ${BUDGETS.webhookRatio * 100} %`,
      );
  }
  for (const r of results) {
    const { vigie, ratio } = r.fleet;
    if (ratio < BUDGETS.fleetRatio)
      failures.push(`flotte MQTT sur ${r.database} : ${Math.round(ratio * 100)} % d’Aedes nu < ${BUDGETS.fleetRatio * 100} %`);
    if (!(vigie.p99Ms < BUDGETS.fleetP99Ms))
      failures.push(`flotte MQTT sur ${r.database} : PUBACK p99 ${vigie.p99Ms.toFixed(1)} ms ≥ ${BUDGETS.fleetP99Ms} ms`);
  }
  if (failures.length > 0) {
    console.error(`\nBudgets manqués :\n- ${failures.join('\n- ')}`);
    process.exit(1);
  }
  console.log(
    'Budgets tenus : MQTT ≥ 5 000 lect./s (PGlite) et ≥ 20 000 lect./s (PostgreSQL), latence p99 < 250 ms, règles d’alerte ≥ 80 % du débit sans règle, analyse prédictive ≥ 90 % du débit sans elle, webhook LoRaWAN ≥ 80 % de la télémétrie HTTP, flotte MQTT ≥ 60 % d’Aedes nu avec PUBACK p99 < 100 ms.',
  );
}

await main();
