/**
 * `npm run bench:broker`: ingestion through an external Mosquitto on PostgreSQL, with one Vigie
 * instance, then two sharing the subscription. 1 000 devices connected to the broker publish one
 * reading per message at QoS 1, evenly spread, at a total offered rate that rises by steps. What
 * is measured is what Vigie stores: readings committed per second during each step, and the
 * backlog left at its end (drained before the next step); an instance keeps up with a step when
 * it ends less than a second behind. The figures feed the capacity plan (docs/capacity-plan.md).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import mqtt, { type MqttClient } from 'mqtt';
import pg from 'pg';
import { startMosquitto } from '../apps/server/src/test/mosquitto.ts';
import { BENCH_ACCOUNT, fmt, freePort, json, root } from './support';

const DEVICES = Number(process.env['BENCH_BROKER_DEVICES'] ?? 1000);
const MEASURE_MS = Number(process.env['BENCH_BROKER_MS'] ?? 10_000);
const WARMUP_MS = 2000;
/** Offered load steps, in messages per second for the whole fleet. */
const RATES = (process.env['BENCH_BROKER_RATES'] ?? '500,1000,2000,3000').split(',').map(Number);

interface Phase {
  instances: number;
  offeredPerSecond: number;
  acceptedPerSecond: number;
  storedPerSecond: number;
  backlogAtEnd: number;
  drainMs: number;
}

async function main(): Promise<void> {
  for (const script of ['scripts/ensure-mosquitto.mjs']) spawnSync('node', [script], { cwd: root, stdio: 'inherit' });
  spawnSync('npm', ['run', 'build', '-w', '@vigie/server'], { cwd: root, stdio: 'ignore' });
  const adminUrl = process.env['PG_ADMIN_URL'] || 'postgres://postgres@127.0.0.1:5432/postgres';
  const database = `vigie_bench_broker_${Date.now()}`;
  spawnSync('node', ['scripts/pg-database.mjs', 'create', database], { cwd: root, stdio: 'ignore' });
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigie-bench-broker-'));
  const broker = await startMosquitto({ dir });
  const children: ChildProcess[] = [];
  const db = new pg.Client({ connectionString: url.toString() });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    DATABASE_URL: url.toString(),
    JWT_SECRET: 'un-secret-de-mesure-partagé-par-les-instances',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
    MQTT_BROKER_URL: broker.url,
    INSIGHTS_INTERVAL_SECONDS: '0',
    LOGIN_MAX_FAILURES_PER_IP: '100000',
  };
  const clients: MqttClient[] = [];
  try {
    const created = spawnSync(
      process.execPath,
      ['apps/server/dist/user-create.js', '--email', BENCH_ACCOUNT.email, '--password', BENCH_ACCOUNT.password, '--org', BENCH_ACCOUNT.org],
      { cwd: root, env, encoding: 'utf8' },
    );
    if (created.status !== 0) throw new Error(created.stderr);
    const startInstance = async (name: string) => {
      const port = await freePort();
      const child = spawn(process.execPath, ['apps/server/dist/main.js'], {
        cwd: root,
        env: { ...env, PORT: String(port), MQTT_BROKER_CLIENT_ID: `vigie-bench-${name}` },
        stdio: ['ignore', fs.openSync(path.join(dir, `vigie-${name}.log`), 'a'), 'inherit'],
      });
      children.push(child);
      const base = `http://127.0.0.1:${port}`;
      for (let i = 0; i < 300; i += 1) {
        if (
          await fetch(`${base}/api/health`).then(
            (r) => r.ok,
            () => false,
          )
        )
          return base;
        await delay(200);
      }
      throw new Error(`L'instance ${name} ne démarre pas`);
    };
    const base = await startInstance('a');
    const { accessToken } = await json<{ accessToken: string }>(`${base}/api/auth/login`, {
      method: 'POST',
      body: JSON.stringify({ email: BENCH_ACCOUNT.email, password: BENCH_ACCOUNT.password }),
    });
    const { installationKey } = await json<{ installationKey: string }>(`${base}/api/organization/installation-key`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    console.log(`Installation de ${fmt(DEVICES)} appareils (comptes créés dans Mosquitto)…`);
    const devices: { deviceId: string; accessToken: string }[] = [];
    for (let i = 0; i < DEVICES; i += 1) {
      devices.push(
        await json(`${base}/api/devices/provision`, {
          method: 'POST',
          body: JSON.stringify({ installationKey, serial: `BROKER-${randomUUID().slice(0, 8)}`, kind: 'sensor' }),
        }),
      );
    }
    let next = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        for (let index = next++; index < devices.length; index = next++) {
          const device = devices[index];
          if (!device) continue;
          clients[index] = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
            clientId: device.deviceId,
            username: device.deviceId,
            password: device.accessToken,
            reconnectPeriod: 0,
            connectTimeout: 30_000,
          });
        }
      }),
    );
    await db.connect();
    const stored = async () => Number((await db.query<{ n: string }>('select count(*) as n from readings')).rows[0]?.n ?? 0);

    // Each message is one reading, one row: what the broker accepted is what Vigie must store.
    let expected = await stored();
    /**
     * The fleet offers `rate` messages per second in all (each device its share, evenly spread),
     * for the phase; the figure is what Vigie stored meanwhile, and how far behind it ended.
     */
    const phase = async (instances: number, rate: number): Promise<Phase> => {
      const periodMs = (1000 * clients.length) / rate;
      const start = Date.now() + 200;
      const warmEnd = start + WARMUP_MS;
      const end = warmEnd + MEASURE_MS;
      let accepted = 0;
      let atWarmEnd = 0;
      const warm = delay(warmEnd - Date.now()).then(async () => (atWarmEnd = await stored()));
      await Promise.all(
        clients.map(async (client, index) => {
          const topic = `vigie/devices/${devices[index]?.deviceId}/telemetry`;
          for (let due = start + (index / clients.length) * periodMs; due < end; due += periodMs) {
            if (due > Date.now()) await delay(due - Date.now());
            await client.publishAsync(topic, JSON.stringify({ ts: Date.now(), values: { temperature: 4 + Math.random() } }), { qos: 1 });
            expected += 1;
            if (Date.now() >= warmEnd) accepted += 1;
          }
        }),
      );
      await warm;
      const atEnd = await stored();
      const endedAt = Date.now();
      while ((await stored()) < expected && Date.now() - endedAt < 120_000) await delay(200);
      return {
        instances,
        offeredPerSecond: rate,
        acceptedPerSecond: accepted / ((Date.now() > end ? end - warmEnd : MEASURE_MS) / 1000),
        storedPerSecond: (atEnd - atWarmEnd) / (MEASURE_MS / 1000),
        backlogAtEnd: expected - atEnd,
        drainMs: Date.now() - endedAt,
      };
    };
    const results: Phase[] = [];
    for (const rate of RATES) results.push(await phase(1, rate));
    await startInstance('b');
    await delay(2000);
    for (const rate of RATES) results.push(await phase(2, rate));
    const extra = (await stored()) - expected;

    console.log(
      `\nBroker externe (Mosquitto) sur PostgreSQL : ${fmt(DEVICES)} appareils, une lecture par message en QoS 1 ; charge offerte par paliers de ${MEASURE_MS / 1000} s`,
    );
    console.log('| instances | charge offerte | acceptée par le broker | enregistrée par Vigie | retard en fin de palier | rattrapé en |');
    console.log('|---|---|---|---|---|---|');
    for (const result of results) {
      console.log(
        `| ${result.instances} | ${fmt(result.offeredPerSecond)}/s | ${fmt(result.acceptedPerSecond)}/s | ${fmt(result.storedPerSecond)}/s | ${fmt(result.backlogAtEnd)} | ${fmt(result.drainMs / 1000, 1)} s |`,
      );
    }
    for (const instances of [1, 2]) {
      const kept = results.filter((result) => result.instances === instances && result.backlogAtEnd <= result.offeredPerSecond);
      const best = kept.at(-1);
      console.log(
        `${instances} instance${instances > 1 ? 's' : ''} : ${best ? `suit jusqu'à ${fmt(best.offeredPerSecond)} messages/s (retard ≤ 1 s en fin de palier)` : 'ne suit aucun palier'}`,
      );
    }
    if (extra === 0) console.log('Chaque lecture acceptée par le broker est enregistrée une fois.');
    else {
      console.log(`${extra > 0 ? `${fmt(extra)} lectures en trop` : `${fmt(-extra)} lectures manquent`} (journaux des instances : ${dir})`);
      process.exitCode = 1;
    }
  } finally {
    await Promise.all(clients.filter(Boolean).map((client) => client.endAsync().catch(() => undefined)));
    await db.end().catch(() => undefined);
    for (const child of children) child.kill('SIGTERM');
    await delay(1000);
    await broker.stop();
    if (process.exitCode !== 1) fs.rmSync(dir, { recursive: true, force: true });
    spawnSync('node', ['scripts/pg-database.mjs', 'drop', database], { cwd: root, stdio: 'ignore' });
  }
}

await main();
