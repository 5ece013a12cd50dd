/**
 * Readings at scale on PostgreSQL (not CI): a dedicated database opened as the server opens it
 * (migrations, then the month partitions), filled with synthetic readings by generate_series
 * (100 million by default, over 13 months), then measured with the product's own code:
 *   1. the 30-day history of one sensor in buckets (the call of GET /api/sensor/:id/readings),
 *      over many sensors: median and p95, budget 100 ms;
 *   2. the retention job at the moment the oldest month passes the cutoff, budget 1 s.
 * `--compare-indexes` also times the bucket query and the chunked retention delete with other
 * index choices (decision 0027). Exits 1 when a budget is missed.
 *
 *   npm run bench:readings -- [--rows 100000000] [--devices 1000] [--keys 2] [--compare-indexes] [--keep]
 *   (PG_ADMIN_URL: the server, default postgres://postgres@127.0.0.1:5432/postgres)
 */
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import pg from 'pg';
import { pino } from 'pino';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { createLiveEventHub } from '../apps/server/src/modules/events/event-hub.ts';
import { createTelemetryService } from '../apps/server/src/modules/telemetry/telemetry-service.ts';
import { fmt } from './support';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? Number(args[index + 1]) : fallback;
};
const ROWS = option('rows', 100_000_000);
const DEVICES = option('devices', 1000);
const KEYS = ['temperature', 'humidity', 'battery', 'door'].slice(0, option('keys', 2));
const MONTHS = 13;
const RETENTION_DAYS = 400;
const QUERY_BUDGET_MS = 100;
const RETENTION_BUDGET_MS = 1000;
const SENSORS_MEASURED = option('sensors', 60);
const DAY = 86_400_000;
const NAME = 'vigie_part_bench';

const adminUrl = process.env['PG_ADMIN_URL'] || 'postgres://postgres@127.0.0.1:5432/postgres';
const url = new URL(adminUrl);
url.pathname = `/${NAME}`;

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};
const ms = (n: number) => `${fmt(n, 1)} ms`;
const verdict = (value: number, budget: number) => (value <= budget ? 'tenu' : 'DÉPASSÉ');

await admin(`drop database if exists "${NAME}" with (force)`);
await admin(`create database "${NAME}"`);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigie-bench-readings-'));
const logger = pino({ level: 'warn' });
const now = Date.now();
const database = await openDatabase({ databaseUrl: url.toString(), dataDir, retentionDays: RETENTION_DAYS, logger });
const client = new pg.Client({ connectionString: url.toString() });
await client.connect();
let failed = false;

try {
  // --- Synthetic readings: each series (device, key) at a fixed step, devices out of phase.
  const start = now - (MONTHS * 365.25 * DAY) / 12;
  const series = DEVICES * KEYS.length;
  const stepMs = Math.max(1000, Math.floor((now - start) / Math.ceil(ROWS / series)));
  console.log(
    `Génération : ${fmt(ROWS)} lectures, ${fmt(DEVICES)} capteurs × ${KEYS.length} mesures, une toutes les ${fmt(stepMs / 1000)} s par série, sur ${MONTHS} mois`,
  );
  await client.query(`create table bench_devices (n int primary key, id uuid not null)`);
  await client.query(`insert into bench_devices select n, gen_random_uuid() from generate_series(0, $1 - 1) n`, [DEVICES]);
  await client.query(`create table bench_keys (k int primary key, key text not null)`);
  await client.query(`insert into bench_keys select k - 1, key from unnest($1::text[]) with ordinality as x(key, k)`, [KEYS]);
  // The latest value of each series, as ingestion leaves it (the history call reads the keys there).
  await client.query(
    `insert into latest_values (device_id, key, value, ts) select d.id, k.key, 0, to_timestamp($1 / 1000.0) from bench_devices d cross join bench_keys k`,
    [now],
  );
  const generation = performance.now();
  let inserted = 0;
  // A statement per month, readings in time order (as they arrive), into the product's partitions and indexes.
  for (let month = new Date(start); month.getTime() < now;) {
    const next = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1));
    const from = Math.max(start, month.getTime());
    const to = Math.min(now, next.getTime());
    const t0 = performance.now();
    const result = await client.query(
      `insert into readings (device_id, key, ts, value)
       select d.id, k.key, t.ts + make_interval(secs => (d.n * $3::float8 / $4) / 1000.0),
         case k.key
           when 'temperature' then 4 + 2 * sin(extract(epoch from t.ts) / 43200.0 + d.n) + random()
           when 'humidity' then 50 + 10 * random()
           when 'battery' then 100 - extract(epoch from t.ts - to_timestamp($1 / 1000.0)) / 864000.0
           else (random() < 0.1)::int end
       from generate_series(to_timestamp($1 / 1000.0), to_timestamp($2 / 1000.0) - interval '1 millisecond', make_interval(secs => $3 / 1000.0)) as t(ts)
       cross join bench_devices d cross join bench_keys k
       where t.ts + make_interval(secs => (d.n * $3::float8 / $4) / 1000.0) < to_timestamp($2 / 1000.0)`,
      [from, to, stepMs, DEVICES],
    );
    inserted += result.rowCount ?? 0;
    const seconds = (performance.now() - t0) / 1000;
    console.log(
      `  ${month.toISOString().slice(0, 7)} : ${fmt(result.rowCount ?? 0)} lectures en ${fmt(seconds, 1)} s (${fmt((result.rowCount ?? 0) / seconds)} /s)`,
    );
    month = next;
  }
  const analyse = performance.now();
  await client.query('analyze readings');
  console.log(
    `${fmt(inserted)} lectures en ${fmt((analyse - generation) / 60_000, 1)} min, ANALYZE en ${fmt((performance.now() - analyse) / 1000, 1)} s`,
  );
  const sizes = await client.query<{ table: string; indexes: string; total: string }>(
    `select pg_size_pretty(sum(pg_table_size(inhrelid))) as table, pg_size_pretty(sum(pg_indexes_size(inhrelid))) as indexes,
       pg_size_pretty(sum(pg_total_relation_size(inhrelid))) as total
     from pg_inherits where inhparent = 'readings'::regclass`,
  );
  console.log(`Taille : table ${sizes.rows[0]?.table}, index ${sizes.rows[0]?.indexes}, total ${sizes.rows[0]?.total}`);

  const telemetry = createTelemetryService({
    db: database.db,
    writeConcurrency: database.writeConcurrency,
    devices: { findSensorByReference: () => Promise.resolve(undefined), touch: () => Promise.resolve() },
    events: createLiveEventHub(database.pubsub, logger),
    retentionDays: RETENTION_DAYS,
    partitionedReadings: database.readingsPartitioned,
  });
  const devices = (await client.query<{ id: string }>('select id from bench_devices order by n')).rows.map((row) => row.id);
  const sample = Array.from(
    { length: Math.min(SENSORS_MEASURED, devices.length) },
    (_, i) => devices[Math.floor((i * devices.length) / SENSORS_MEASURED)] as string,
  );

  // --- 1. The 30-day history of one sensor, as GET /api/sensor/:id/readings asks for it.
  const history = async (deviceId: string) => {
    const t0 = performance.now();
    const response = await telemetry.history(deviceId, { key: undefined, from: new Date(now - 30 * DAY), to: new Date(now), buckets: 240 });
    const elapsed = performance.now() - t0;
    if (response.readings.length === 0) throw new Error(`aucune lecture pour ${deviceId}`);
    return { elapsed, count: response.readings.reduce((sum, bucket) => sum + bucket.count, 0) };
  };
  const first: number[] = [];
  let perQuery = 0;
  for (const deviceId of sample) {
    const { elapsed, count } = await history(deviceId);
    first.push(elapsed);
    perQuery = count;
  }
  const again: number[] = [];
  for (let round = 0; round < 3; round += 1) for (const deviceId of sample) again.push((await history(deviceId)).elapsed);
  const p95 = Math.max(quantile(first, 0.95), quantile(again, 0.95));
  console.log(`\nHistorique de 30 jours d'un capteur (240 intervalles, ${fmt(perQuery)} lectures par requête) :`);
  console.log(`  ${sample.length} capteurs, première lecture : médiane ${ms(quantile(first, 0.5))}, p95 ${ms(quantile(first, 0.95))}`);
  console.log(`  mêmes capteurs, 3 tours de plus    : médiane ${ms(quantile(again, 0.5))}, p95 ${ms(quantile(again, 0.95))}`);
  console.log(`  budget ≤ ${QUERY_BUDGET_MS} ms (p95) : ${verdict(p95, QUERY_BUDGET_MS)}`);
  if (p95 > QUERY_BUDGET_MS) failed = true;

  // --- 2. The retention job at the hour the oldest month passes the cutoff (then a day later).
  const oldest = new Date(start);
  const secondMonth = Date.UTC(oldest.getUTCFullYear(), oldest.getUTCMonth() + 1, 1);
  const count = async () => Number((await client.query<{ n: string }>('select count(*) as n from readings')).rows[0]?.n ?? 0);
  const runRetention = async (cutoff: number, label: string) => {
    const before = await count();
    const t0 = performance.now();
    const reported = await telemetry.enforceRetention(cutoff + RETENTION_DAYS * DAY);
    const elapsed = performance.now() - t0;
    const gone = before - (await count());
    console.log(`  ${label} : ${ms(elapsed)}, ${fmt(gone)} lectures en moins (annoncées : ${fmt(reported)})`);
    return elapsed;
  };
  console.log(`\nRétention (${RETENTION_DAYS} jours) :`);
  const retention = await runRetention(secondMonth + 3600_000, 'le plus vieux mois passe la limite (mois supprimé + 1 h en lots)');
  console.log(`  budget ≤ ${RETENTION_BUDGET_MS} ms : ${verdict(retention, RETENTION_BUDGET_MS)}`);
  if (retention > RETENTION_BUDGET_MS) failed = true;
  await runRetention(secondMonth + 2 * 3600_000, 'une heure plus tard (tâche horaire)');
  await runRetention(secondMonth + 26 * 3600_000, 'un jour plus tard (si la tâche avait manqué un jour)');

  if (args.includes('--compare-indexes')) await compareIndexes(sample, secondMonth + 26 * 3600_000);
} finally {
  await client.end();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (!args.includes('--keep')) await admin(`drop database if exists "${NAME}" with (force)`);
}
process.exit(failed ? 1 : 0);

/**
 * Other index choices, on the same data: the bucket query of the history (as the DAL sends it)
 * and a day's chunked retention delete in the partition spanning the cutoff (rolled back).
 */
async function compareIndexes(sample: string[], cutoff: number): Promise<void> {
  const boundary = (
    await client.query<{ name: string }>(
      `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
       where i.inhparent = 'readings'::regclass and c.relname <> 'readings_default' order by 1 limit 1`,
    )
  ).rows[0]?.name as string;
  const bucketQuery = `select date_bin($4::interval, ts, $2) as bucket, min(value), avg(value), max(value), count(*)::int
    from readings where device_id = $1 and key = 'temperature' and ts >= $2 and ts <= $3 group by 1 order by 1`;
  const width = `${Math.ceil((30 * DAY) / 240)} milliseconds`;
  const query = async () => {
    const times: number[] = [];
    for (let round = 0; round < 2; round += 1) {
      for (const deviceId of sample) {
        const t0 = performance.now();
        await client.query(bucketQuery, [deviceId, new Date(now - 30 * DAY), new Date(now), width]);
        times.push(performance.now() - t0);
      }
    }
    return times;
  };
  const chunkedDelete = async () => {
    await client.query('begin');
    const t0 = performance.now();
    let total = 0;
    for (;;) {
      const result = await client.query(
        `delete from "${boundary}" where ctid in (select ctid from "${boundary}" where ts < $1 limit 10000)`,
        [new Date(cutoff + DAY)],
      );
      total += result.rowCount ?? 0;
      if ((result.rowCount ?? 0) < 10_000) break;
    }
    const elapsed = performance.now() - t0;
    await client.query('rollback');
    return { elapsed, total };
  };
  const indexSize = async () =>
    (
      await client.query<{ size: string }>(
        `select pg_size_pretty(sum(pg_indexes_size(inhrelid))) as size from pg_inherits where inhparent = 'readings'::regclass`,
      )
    ).rows[0]?.size;
  const variants: { label: string; setup: string[] }[] = [
    { label: 'B-tree (device_id, key, ts) + BRIN (ts) [produit]', setup: [] },
    { label: 'B-tree (device_id, key, ts) seul', setup: ['drop index readings_ts_brin'] },
    {
      label: 'B-tree (device_id, key, ts) INCLUDE (value) + BRIN (ts), après VACUUM',
      setup: [
        'create index readings_ts_brin on readings using brin (ts)',
        'drop index readings_device_key_ts_idx',
        'create index readings_device_key_ts_idx on readings (device_id, key, ts) include (value)',
        'vacuum analyze readings',
      ],
    },
    { label: 'BRIN (ts) seul', setup: ['drop index readings_device_key_ts_idx', 'analyze readings'] },
  ];
  console.log(
    `\nComparaison des index (requête par intervalles sur ${sample.length} capteurs × 2 ; suppression en lots d'un jour dans ${boundary}) :`,
  );
  for (const variant of variants) {
    const t0 = performance.now();
    for (const statement of variant.setup) await client.query(statement);
    const setup = performance.now() - t0;
    const times = await query();
    const removal = await chunkedDelete();
    console.log(
      `  ${variant.label} : index ${await indexSize()} (préparés en ${fmt(setup / 1000, 1)} s) ; requête médiane ${ms(quantile(times, 0.5))}, p95 ${ms(quantile(times, 0.95))} ; suppression de ${fmt(removal.total)} lectures ${ms(removal.elapsed)}`,
    );
  }
}
