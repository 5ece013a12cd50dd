/**
 * npm run bench:jobs — what a clock tick of each background job costs with 1 000 open alerts,
 * against the same tick on the same database before the storm (the baseline, measured in the same
 * run). On the embedded database and, when PG_ADMIN_URL or a local PostgreSQL answers, on a fresh
 * PostgreSQL database. The jobs: the notifier (every 10 s), the alert clock (every 15 s) and the
 * offline check (every 15 s). Prints milliseconds per tick and the ratio beside its budget; exits
 * non-zero when one is missed. The first tick after the storm, which plans and e-mails 1 000
 * alerts once, is printed apart: it is the storm's own work, not a tick's.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { Sensor, Site } from '@vigie/contract';
import { announceOfflineDevices } from '../apps/server/src/modules/devices/offline-devices.ts';
import { startSmtpCatcher } from '../apps/server/src/test/smtp-catcher.ts';
import { createTestApp, type TestApp } from '../apps/server/src/test/test-app.ts';
import { fmt } from './support';

const ALERTS = 1000;
const TICKS = 30;
/** A tick with 1 000 open alerts may cost this many times the tick of a quiet database. */
const BUDGET_RATIO = 5;
/** …or this many milliseconds, whichever is larger (a quiet tick is a fraction of a millisecond). */
const BUDGET_FLOOR_MS = 25;

type Job = 'notifications' | 'alert-clock' | 'offline';

async function timeTicks(t: TestApp, advance: () => void): Promise<Record<Job, number>> {
  const services = t.app.services;
  const jobs: Record<Job, () => Promise<unknown>> = {
    notifications: () => services.notifications.tick(),
    'alert-clock': () => services.alerts.engine.tick(),
    offline: () => announceOfflineDevices(services),
  };
  const result = {} as Record<Job, number>;
  for (const [name, run] of Object.entries(jobs) as [Job, () => Promise<unknown>][]) {
    await run();
    const started = performance.now();
    for (let tick = 0; tick < TICKS; tick += 1) {
      advance();
      await run();
    }
    result[name] = (performance.now() - started) / TICKS;
  }
  return result;
}

async function measure(label: string, databaseUrl: string | undefined): Promise<boolean> {
  const smtp = await startSmtpCatcher();
  let clock = Date.now();
  const t = await createTestApp({
    now: () => new Date(clock),
    env: { SMTP_URL: smtp.url, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
  });
  const advance = () => (clock += 10_000);
  try {
    const owner = await t.createAccount({ organization: `Bench ${randomUUID()}` });
    const api = (method: 'POST' | 'PUT', url: string, payload: object) =>
      t.app.inject({ method, url: `/api${url}`, headers: owner.auth, payload });
    const site = (await api('POST', '/sites', { name: 'Hypermarché', timezone: 'Europe/Paris' })).json<{ site: Site }>().site;
    const sensors: string[] = [];
    while (sensors.length < ALERTS) {
      const created = await Promise.all(
        Array.from({ length: Math.min(20, ALERTS - sensors.length) }, (_, index) =>
          api('POST', '/sensor', { name: `Meuble ${sensors.length + index + 1}` }),
        ),
      );
      for (const response of created) sensors.push(response.json<{ sensor: Sensor }>().sensor.id);
    }
    for (const id of sensors) await api('PUT', `/sensor/${id}`, { siteId: site.id });
    const rule = await api('POST', '/alert-rules', { name: 'Froid positif', siteId: site.id, preset: 'chilled_very_perishable' });
    if (rule.statusCode !== 201) throw new Error(`règle refusée : ${rule.body}`);
    const before = await timeTicks(t, advance);

    // The storm: every sensor of the site crosses the rule at once.
    const ts = new Date(clock);
    await t.app.services.telemetry.store(
      sensors.map((id) => ({ deviceId: id, key: 'temperature', ts, value: 9.5, readingId: null })),
      [],
    );
    // What the ingestion path hands to the alert engine once the readings are stored.
    await t.app.services.alerts.engine.onReadings(
      sensors.map((id) => ({ organizationId: owner.organizationId, sensorId: id, ts, values: { temperature: 9.5 } })),
    );
    await t.app.services.alerts.engine.idle();
    const storm = performance.now();
    await t.app.services.notifications.tick();
    const stormMs = performance.now() - storm;
    const open = (await t.app.inject({ method: 'GET', url: '/api/alerts?status=active', headers: owner.auth })).json<{
      alerts: unknown[];
    }>().alerts;
    const after = await timeTicks(t, advance);

    console.log(
      `\n${label} — ${open.length} alertes ouvertes, ${smtp.received.length} e-mails envoyés ; premier passage du notificateur : ${fmt(stormMs)} ms`,
    );
    console.log('tâche            | tick au calme | tick, 1 000 alertes ouvertes | rapport | budget');
    let ok = open.length === ALERTS;
    for (const job of Object.keys(before) as Job[]) {
      const ratio = after[job] / Math.max(before[job], 0.001);
      const within = after[job] <= Math.max(BUDGET_RATIO * before[job], BUDGET_FLOOR_MS);
      ok &&= within;
      console.log(
        `${job.padEnd(16)} | ${fmt(before[job], 2).padStart(10)} ms | ${fmt(after[job], 2).padStart(25)} ms | ${fmt(ratio, 1).padStart(7)} | ≤ ${BUDGET_RATIO} ou ≤ ${BUDGET_FLOOR_MS} ms ${within ? 'tenu' : 'MANQUÉ'}`,
      );
    }
    if (open.length !== ALERTS) console.log(`MANQUÉ : ${open.length} alertes ouvertes au lieu de ${ALERTS}`);
    return ok;
  } finally {
    await t.close();
    await smtp.close();
  }
}

async function postgres(): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  const admin = process.env['PG_ADMIN_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `vigie_bench_jobs_${process.pid}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  try {
    await run(`create database "${name}"`);
  } catch {
    console.log('PostgreSQL injoignable : mesure sur la base embarquée seulement.');
    return undefined;
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists "${name}" with (force)`) };
}

let ok = await measure('Base embarquée (PGlite)', undefined);
const database = await postgres();
if (database) {
  try {
    ok = (await measure('PostgreSQL', database.url)) && ok;
  } finally {
    await database.drop();
  }
}
if (!ok) {
  console.error('\nnpm run bench:jobs : budget manqué.');
  process.exit(1);
}
console.log('\nnpm run bench:jobs : les budgets tiennent.');
process.exit(0);
