/**
 * npm run bench:ingest — sustained ingestion through HTTP and MQTT (QoS 1) into each database,
 * beside a baseline measured in the same run (the same rows written straight to the database in
 * large bulk statements), and the latency from an MQTT publish to the browser's live stream.
 * Fails when a budget of the device-protocol issue is missed.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import mqtt, { type MqttClient } from 'mqtt';
import pg from 'pg';

const root = fileURLToPath(new URL('..', import.meta.url));
const PHASE_MS = Number(process.env['BENCH_PHASE_MS'] ?? 6000);
const READINGS_PER_MESSAGE = 50;
const CLIENTS = 8;
const WINDOW = 8;
const BUDGETS = { mqttPglite: 5000, mqttPostgres: 20000, latencyP99Ms: 250, rulesRatio: 0.8, insightsRatio: 0.9 };
const fmt = (n: number) => Math.round(n).toLocaleString('fr-FR');

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function ensureBuilt() {
  if (!fs.existsSync(path.join(root, 'apps/server/dist/main.js'))) {
    const built = spawnSync('npm', ['run', 'build', '-w', '@vigie/server'], { cwd: root, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('Compilation du serveur impossible');
  }
}

interface Server {
  child: ChildProcess;
  base: string;
  mqttUrl: string;
}

async function startServer(env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const mqttPort = await freePort();
  const fullEnv = {
    ...process.env,
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    PORT: String(port),
    HOST: '127.0.0.1',
    MQTT_PORT: String(mqttPort),
    ...env,
  };
  const created = spawnSync(
    process.execPath,
    ['apps/server/dist/user-create.js', '--email', 'bench@example.fr', '--password', 'bench-password', '--org', 'Bench'],
    {
      cwd: root,
      env: fullEnv,
      encoding: 'utf8',
    },
  );
  // A second server on the same database finds the account already there.
  if (created.status !== 0 && !created.stderr.includes('existe déjà'))
    throw new Error(`Création du compte de mesure impossible : ${created.stderr}`);
  const child = spawn(process.execPath, ['apps/server/dist/main.js'], { cwd: root, env: fullEnv, stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i += 1) {
    if (
      await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { child, base, mqttUrl: `mqtt://127.0.0.1:${mqttPort}` };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error('Le serveur ne démarre pas');
}

async function json<T>(url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function setup(server: Server, devices: number) {
  const { accessToken } = await json<{ accessToken: string }>(`${server.base}/api/auth/login`, {
    method: 'POST',
    body: JSON.stringify({ email: 'bench@example.fr', password: 'bench-password' }),
  });
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

interface Result {
  database: string;
  mqtt: number;
  /** The same MQTT run once every sensor has an alert rule. */
  mqttWithRules: number;
  http: number;
  baseline: number;
  latency: { rate: number; p50: number; p99: number; samples: number };
  /** MQTT with rules, on a server analysing every sensor once per phase. */
  mqttWithInsights: number;
}

/** One rule on every sensor (≤ +8 °C: these readings stay within it, as most of a fleet does). */
async function watchAll(server: Server, userToken: string, devices: { deviceId: string }[]) {
  for (const device of devices) {
    await json(`${server.base}/api/alert-rules`, {
      method: 'POST',
      headers: { authorization: `Bearer ${userToken}` },
      body: JSON.stringify({ name: 'Froid positif', sensorId: device.deviceId, preset: 'chilled_perishable' }),
    });
  }
}

/**
 * The same rules-on phase on a server whose background pass runs every second and analyses every
 * sensor again once per phase (in the product: every five minutes, fifty times less often), after
 * a first phase that gives the sensors a history to analyse.
 */
async function withInsights(env: Record<string, string>): Promise<number> {
  const server = await startServer({
    ...env,
    INSIGHTS_INTERVAL_SECONDS: '1',
    INSIGHTS_REFRESH_SECONDS: String(Math.max(1, Math.round(PHASE_MS / 1000))),
  });
  try {
    const { userToken, devices } = await setup(server, CLIENTS);
    await mqttThroughput(server, devices);
    await watchAll(server, userToken, devices);
    return await mqttThroughput(server, devices);
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
  }
}

async function run(
  database: 'PGlite' | 'PostgreSQL',
  env: Record<string, string>,
  exec: () => Promise<{ exec: Exec; close(): Promise<void> }>,
): Promise<Result> {
  // Without background analysis here: its cost is measured by its own server below.
  const server = await startServer({ ...env, INSIGHTS_INTERVAL_SECONDS: '0' });
  try {
    const { userToken, devices } = await setup(server, CLIENTS);
    const mqttRate = await mqttThroughput(server, devices);
    await watchAll(server, userToken, devices);
    const mqttWithRules = await mqttThroughput(server, devices);
    const httpRate = await httpThroughput(server, devices);
    const lat = await latency(server, userToken, devices);
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
    const mqttWithInsights = await withInsights(env);
    const direct = await exec();
    const base = await baseline(direct.exec);
    await direct.close();
    return { database, mqtt: mqttRate, mqttWithRules, http: httpRate, baseline: base, latency: lat, mqttWithInsights };
  } finally {
    server.child.kill('SIGKILL');
  }
}

async function main() {
  ensureBuilt();
  const started = Date.now();
  const results: Result[] = [];

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigie-bench-'));
  results.push(
    await run('PGlite', { DATA_DIR: dataDir, DATABASE_URL: '' }, async () => {
      const db = await PGlite.create(path.join(dataDir, 'pglite'));
      return { exec: (text, params) => db.query(text, params), close: () => db.close() };
    }),
  );
  fs.rmSync(dataDir, { recursive: true, force: true });

  const adminUrl = process.env['PG_ADMIN_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `vigie_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  admin.on('error', (error) => console.warn(`connexion d'administration perdue : ${error.message}`));
  await admin.connect().catch((error: Error) => {
    throw new Error(`PostgreSQL injoignable (${adminUrl}) : ${error.message}`);
  });
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    results.push(
      await run(
        'PostgreSQL',
        { DATABASE_URL: url.toString(), DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'vigie-bench-')) },
        async () => {
          const pool = new pg.Pool({ connectionString: url.toString(), max: 4 });
          pool.on('error', (error) => console.warn(`connexion de mesure perdue : ${error.message}`));
          return { exec: (text, params) => pool.query(text, params), close: () => pool.end() };
        },
      ),
    );
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
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
  console.log('\nbase        | MQTT sans règle (lect./s) | MQTT, une règle d’alerte par capteur (lect./s) | avec / sans');
  console.log('------------|---------------------------|-------------------------------------------------|------------');
  for (const r of results) {
    console.log(
      `${r.database.padEnd(11)} | ${fmt(r.mqtt).padStart(25)} | ${fmt(r.mqttWithRules).padStart(47)} | ${`${Math.round((r.mqttWithRules / r.mqtt) * 100)} %`.padStart(10)}`,
    );
  }
  console.log('\nbase        | MQTT avec règles (lect./s) | MQTT avec règles et analyse prédictive (lect./s) | avec / sans');
  console.log('------------|----------------------------|--------------------------------------------------|------------');
  for (const r of results) {
    console.log(
      `${r.database.padEnd(11)} | ${fmt(r.mqttWithRules).padStart(26)} | ${fmt(r.mqttWithInsights).padStart(48)} | ${`${Math.round((r.mqttWithInsights / r.mqttWithRules) * 100)} %`.padStart(10)}`,
    );
  }
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
    if (r.mqttWithRules < r.mqtt * BUDGETS.rulesRatio)
      failures.push(
        `MQTT avec règles sur ${r.database} : ${Math.round((r.mqttWithRules / r.mqtt) * 100)} % du débit sans règle < ${BUDGETS.rulesRatio * 100} %`,
      );
  }
  for (const r of results) {
    if (r.mqttWithInsights < r.mqttWithRules * BUDGETS.insightsRatio)
      failures.push(
        `MQTT avec analyse prédictive sur ${r.database} : ${Math.round((r.mqttWithInsights / r.mqttWithRules) * 100)} % du débit sans elle < ${BUDGETS.insightsRatio * 100} %`,
      );
  }
  if (failures.length > 0) {
    console.error(`\nBudgets manqués :\n- ${failures.join('\n- ')}`);
    process.exit(1);
  }
  console.log(
    'Budgets tenus : MQTT ≥ 5 000 lect./s (PGlite) et ≥ 20 000 lect./s (PostgreSQL), latence p99 < 250 ms, règles d’alerte ≥ 80 % du débit sans règle, analyse prédictive ≥ 90 % du débit sans elle.',
  );
}

await main();
