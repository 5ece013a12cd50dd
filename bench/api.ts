/**
 * npm run bench:api — authenticated GET /api/sensor, with 6 and with 1 000 sensors, on the
 * embedded database and on PostgreSQL, against a bare Fastify server answering the same bytes in
 * the same run (bench/bare-fastify.mjs). The same load generator (autocannon, 32 connections,
 * 5 s after 1 s of warm-up) measures both. Prints requests per second and the ratio beside its
 * budget; exits non-zero when one is missed.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { benchLogin, ensureBuilt, fmt, freePort, json, root, startServer } from './support';

const SIZES = [6, 1000];
const CONNECTIONS = 32;
const SECONDS = 5;
/** Share of the bare server's requests per second that Vigie must reach. */
const BUDGET_RATIO = 0.25;

async function requestsPerSecond(url: string, headers: Record<string, string>): Promise<number> {
  await autocannon({ url, connections: CONNECTIONS, duration: 1, headers });
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url} : ${result.non2xx} réponses en erreur, ${result.errors} erreurs de connexion`);
  }
  return result.requests.average;
}

/** The same bytes from a bare Fastify server in its own process, measured the same way. */
async function bareFastify(body: Buffer): Promise<number> {
  const file = path.join(os.tmpdir(), `vigie-bench-body-${process.pid}.json`);
  fs.writeFileSync(file, body);
  const port = await freePort();
  const child = fork(path.join(root, 'bench/bare-fastify.mjs'), [String(port), file], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  try {
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new Error(`Le serveur Fastify nu s’est arrêté (${code})`)));
    });
    return await requestsPerSecond(`http://127.0.0.1:${port}/api/sensor`, {});
  } finally {
    child.kill('SIGTERM');
    fs.rmSync(file, { force: true });
  }
}

type Row = { database: string; sensors: number; vigie: number; bare: number; bytes: number };

async function measure(database: string, env: Record<string, string>): Promise<Row[]> {
  const server = await startServer({ ...env, DEMO_SIMULATOR: 'false', INSIGHTS_INTERVAL_SECONDS: '0' });
  const rows: Row[] = [];
  try {
    const token = await benchLogin(server);
    const headers = { authorization: `Bearer ${token}` };
    let count = 0;
    for (const size of SIZES) {
      while (count < size) {
        const batch = Math.min(16, size - count);
        await Promise.all(
          Array.from({ length: batch }, (_, i) =>
            json(`${server.base}/api/sensor`, {
              method: 'POST',
              headers,
              body: JSON.stringify({ name: `Sonde ${count + i + 1}` }),
            }),
          ),
        );
        count += batch;
      }
      const url = `${server.base}/api/sensor`;
      const response = await fetch(url, { headers });
      const body = Buffer.from(await response.arrayBuffer());
      const vigie = await requestsPerSecond(url, headers);
      const bare = await bareFastify(body);
      rows.push({ database, sensors: size, vigie, bare, bytes: body.length });
      console.log(`${database}, ${fmt(size)} capteurs : Vigie ${fmt(vigie)} req/s, Fastify nu ${fmt(bare)} req/s`);
    }
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
  }
  return rows;
}

ensureBuilt('server');
const rows: Row[] = [];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigie-bench-api-'));
try {
  rows.push(...(await measure('PGlite', { DATA_DIR: dataDir, DATABASE_URL: '' })));
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}

const adminUrl = process.env['PG_ADMIN_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `vigie_bench_api_${Date.now()}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
const pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigie-bench-api-'));
try {
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  rows.push(...(await measure('PostgreSQL', { DATA_DIR: pgDir, DATABASE_URL: url.toString() })));
} finally {
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
  fs.rmSync(pgDir, { recursive: true, force: true });
}

console.log(`\nGET /api/sensor authentifié — ${CONNECTIONS} connexions, ${SECONDS} s par mesure, référence : Fastify nu, mêmes octets\n`);
console.log('base        | capteurs | octets     | Vigie (req/s) | Fastify nu (req/s) | Vigie / nu | budget');
console.log('------------|----------|------------|---------------|--------------------|------------|-------');
let failed = false;
for (const row of rows) {
  const ratio = row.vigie / row.bare;
  const ok = ratio >= BUDGET_RATIO;
  failed ||= !ok;
  console.log(
    `${row.database.padEnd(11)} | ${fmt(row.sensors).padStart(8)} | ${fmt(row.bytes).padStart(10)} | ${fmt(row.vigie).padStart(13)} | ${fmt(row.bare).padStart(18)} | ${`${fmt(ratio * 100, 1)} %`.padStart(10)} | ${ok ? 'ok' : 'RATÉ'} (≥ ${fmt(BUDGET_RATIO * 100)} %)`,
  );
}
if (failed) {
  console.error('Un budget est manqué.');
  process.exit(1);
}
