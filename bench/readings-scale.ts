/**
 * Readings at scale on PostgreSQL (not CI): a dedicated database opened as the server opens it
 * (migrations, then the day partitions), filled with synthetic readings by generate_series
 * (100 million by default, over the whole retention period of 400 days), the readings of the
 * last week carrying reading ids remembered in `reading_ids` (the dedup window), then measured
 * with the product's own code:
 *   1. the 30-day history of one sensor in buckets (the call of GET /api/sensor/:id/readings),
 *      over many sensors: median and p95, budget 100 ms; and the partitions its plan and the
 *      plan of a CSV page read;
 *   2. the retention job when the oldest day passes the cutoff, an hour later (the next hourly
 *      run) and a day later: budget 1 s each.
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
const RETENTION_DAYS = 400;
/** As READING_ID_WINDOW_DAYS: the hourly job forgets reading ids received longer ago. */
const READING_ID_WINDOW_DAYS = 7;
const QUERY_BUDGET_MS = 100;
const RETENTION_BUDGET_MS = 1000;
const SENSORS_MEASURED = option('sensors', 60);
const DAY = 86_400_000;
const NAME = 'vigie_day_bench';

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
  // --- Synthetic readings: each series (device, key) at a fixed step, devices out of phase,
  // over the whole retention period (the table as it stays once full).
  const start = now - RETENTION_DAYS * DAY;
  const series = DEVICES * KEYS.length;
  const stepMs = Math.max(1000, Math.floor((now - start) / Math.ceil(ROWS / series)));
  // The retention job is measured first when the oldest day passes the cutoff, an hour into the
  // next day. The hourly run before it had forgotten the reading ids received more than a week
  // before it: the readings since then carry an id (as devices send `${serial}-${ms}`), and
  // `reading_ids` remembers them, received at their time.
  const secondDay = Date.UTC(new Date(start).getUTCFullYear(), new Date(start).getUTCMonth(), new Date(start).getUTCDate() + 1);
  const firstRun = secondDay + 3600_000 + RETENTION_DAYS * DAY;
  const idsFrom = firstRun - 3600_000 - READING_ID_WINDOW_DAYS * DAY;
  console.log(
    `Génération : ${fmt(ROWS)} lectures, ${fmt(DEVICES)} capteurs × ${KEYS.length} mesures, une toutes les ${fmt(stepMs / 1000)} s par série, sur ${RETENTION_DAYS} jours ; identifiants de lecture depuis le ${new Date(idsFrom).toISOString().slice(0, 16)}`,
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
      `insert into readings (device_id, key, ts, value, reading_id)
       select d.id, k.key, t.ts + make_interval(secs => (d.n * $3::float8 / $4) / 1000.0),
         case k.key
           when 'temperature' then 4 + 2 * sin(extract(epoch from t.ts) / 43200.0 + d.n) + random()
           when 'humidity' then 50 + 10 * random()
           when 'battery' then 100 - extract(epoch from t.ts - to_timestamp($1 / 1000.0)) / 864000.0
           else (random() < 0.1)::int end,
         case when t.ts + make_interval(secs => (d.n * $3::float8 / $4) / 1000.0) >= to_timestamp($5 / 1000.0)
           then format('SN%s-%s', d.n, (extract(epoch from t.ts + make_interval(secs => (d.n * $3::float8 / $4) / 1000.0)) * 1000)::bigint) end
       from generate_series(to_timestamp($1 / 1000.0), to_timestamp($2 / 1000.0) - interval '1 millisecond', make_interval(secs => $3 / 1000.0)) as t(ts)
       cross join bench_devices d cross join bench_keys k
       where t.ts + make_interval(secs => (d.n * $3::float8 / $4) / 1000.0) < to_timestamp($2 / 1000.0)`,
      [from, to, stepMs, DEVICES, idsFrom],
    );
    inserted += result.rowCount ?? 0;
    const seconds = (performance.now() - t0) / 1000;
    console.log(
      `  ${month.toISOString().slice(0, 7)} : ${fmt(result.rowCount ?? 0)} lectures en ${fmt(seconds, 1)} s (${fmt((result.rowCount ?? 0) / seconds)} /s)`,
    );
    month = next;
  }
  // What the product writes with each reading that carries an id: its claim in reading_ids.
  const claims = await client.query(
    `insert into reading_ids (device_id, reading_id, key, stored_at)
     select device_id, reading_id, key, ts from readings
     where ts >= to_timestamp($1 / 1000.0) and reading_id is not null order by ts`,
    [idsFrom],
  );
  console.log(`  reading_ids : ${fmt(claims.rowCount ?? 0)} identifiants de la dernière semaine`);
  const analyse = performance.now();
  await client.query('analyze readings');
  await client.query('analyze reading_ids');
  console.log(
    `${fmt(inserted)} lectures en ${fmt((analyse - generation) / 60_000, 1)} min, ANALYZE en ${fmt((performance.now() - analyse) / 1000, 1)} s`,
  );
  const sizes = await client.query<{ table: string; indexes: string; total: string }>(
    `select pg_size_pretty(sum(pg_table_size(inhrelid))) as table, pg_size_pretty(sum(pg_indexes_size(inhrelid))) as indexes,
       pg_size_pretty(sum(pg_total_relation_size(inhrelid))) as total
     from pg_inherits where inhparent = 'readings'::regclass`,
  );
  console.log(`Taille : table ${sizes.rows[0]?.table}, index ${sizes.rows[0]?.indexes}, total ${sizes.rows[0]?.total}`);
  const idSizes = await client.query<{ table: string; indexes: string }>(
    `select pg_size_pretty(pg_table_size('reading_ids')) as table, pg_size_pretty(pg_indexes_size('reading_ids')) as indexes`,
  );
  const partitionCount = Number(
    (await client.query<{ n: string }>(`select count(*) as n from pg_inherits where inhparent = 'readings'::regclass`)).rows[0]?.n,
  );
  console.log(
    `reading_ids : table ${idSizes.rows[0]?.table}, index ${idSizes.rows[0]?.indexes} ; ${fmt(partitionCount)} partitions (DEFAULT comprise)`,
  );

  const telemetry = createTelemetryService({
    db: database.db,
    writeConcurrency: database.writeConcurrency,
    devices: {
      findSensorByReference: () => Promise.resolve(undefined),
      touch: () => Promise.resolve(),
      assertSensor: () => Promise.resolve(),
    },
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

  // The partitions the plans read, with parameters as the DAL sends them (planned with their
  // values): the bucket query of the history, and a page of the CSV export.
  const plan = async (label: string, query: string, params: unknown[]) => {
    const lines = (await client.query<{ 'QUERY PLAN': string }>(`explain (analyze, timing off, summary) ${query}`, params)).rows.map(
      (row) => row['QUERY PLAN'],
    );
    const scanned = new Set(
      lines.flatMap((line) => [...line.matchAll(/ on (readings_(?:p\d{8}|y\d{4}m\d{2}|default))\b/g)].map((match) => match[1])),
    );
    const planning = lines.find((line) => line.startsWith('Planning Time'))?.replace('Planning Time: ', '');
    const execution = lines.find((line) => line.startsWith('Execution Time'))?.replace('Execution Time: ', '');
    console.log(`  ${label} : ${scanned.size} partitions lues sur ${partitionCount} ; planification ${planning}, exécution ${execution}`);
    return scanned.size;
  };
  const periodFrom = new Date(now - 30 * DAY);
  const periodDays = 32; // the 31 days a 30-day period may touch, and DEFAULT
  const scannedBuckets = await plan(
    'requête par intervalles (30 jours)',
    `select date_bin($1::interval, ts, $2) as bucket, min(value), avg(value), max(value), count(*)::int
     from readings where device_id = $3 and key = $4 and ts >= $5 and ts <= $6 group by 1 order by 1`,
    [`${Math.ceil((30 * DAY) / 240)} milliseconds`, periodFrom, sample[0], 'temperature', periodFrom, new Date(now)],
  );
  const scannedPage = await plan(
    'page de l’export CSV (30 jours)',
    `select ts, key, value, id from readings where device_id = $1 and ts >= $2 and ts <= $3
       and (ts, key, id) > ($4::timestamptz, $5, $6) order by ts, key, id limit $7`,
    [sample[0], periodFrom, new Date(now), new Date(now - 10 * DAY), 'temperature', 0, 5000],
  );
  if (scannedBuckets > periodDays || scannedPage > periodDays) {
    console.log(`  plus de ${periodDays} partitions lues : l’élagage des partitions ne joue pas`);
    failed = true;
  }

  // --- 2. The retention job when the oldest day passes the cutoff, then the next hourly run, then a day later.
  const counted = async (table: string, column: string, before: number) =>
    Number(
      (await client.query<{ n: string }>(`select count(*) as n from ${table} where ${column} < to_timestamp($1 / 1000.0)`, [before]))
        .rows[0]?.n ?? 0,
    );
  const runRetention = async (at: number, label: string) => {
    const cutoff = at - RETENTION_DAYS * DAY;
    const forget = at - READING_ID_WINDOW_DAYS * DAY;
    const [readingsBefore, idsBefore] = [await counted('readings', 'ts', cutoff), await counted('reading_ids', 'stored_at', forget)];
    const t0 = performance.now();
    const reported = await telemetry.enforceRetention(at);
    const elapsed = performance.now() - t0;
    const [readingsAfter, idsAfter] = [await counted('readings', 'ts', cutoff), await counted('reading_ids', 'stored_at', forget)];
    console.log(
      `  ${label} : ${ms(elapsed)} — ${fmt(readingsBefore - readingsAfter)} lectures en moins (annoncées : ${fmt(reported)}), ${fmt(idsBefore - idsAfter)} identifiants oubliés ; budget ≤ ${RETENTION_BUDGET_MS} ms : ${verdict(elapsed, RETENTION_BUDGET_MS)}`,
    );
    if (elapsed > RETENTION_BUDGET_MS) failed = true;
  };
  console.log(`\nRétention (${RETENTION_DAYS} jours ; identifiants gardés ${READING_ID_WINDOW_DAYS} jours) :`);
  await runRetention(firstRun, 'le plus vieux jour passe la limite (jour supprimé + 1 h en lots)');
  await runRetention(firstRun + 3600_000, 'une heure plus tard (tâche horaire)');
  await runRetention(firstRun + 25 * 3600_000, 'un jour plus tard (si la tâche avait manqué un jour)');

  if (args.includes('--compare-indexes')) await compareIndexes(sample, firstRun + 25 * 3600_000 - RETENTION_DAYS * DAY);
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
