import { sql } from 'drizzle-orm';
import { type Database, type DatabaseLogger, rowsOf } from './database.ts';

/**
 * Readings on PostgreSQL: one partition per UTC day of `ts` (native declarative partitioning), a
 * DEFAULT partition so that an insert never fails, and the table `reading_ids` that remembers
 * the reading ids received lately (a dedup window), so that a retry is stored once across partitions. Databases partitioned by month before keep their
 * month partitions until retention drops them; days are created around them. The embedded
 * database keeps its plain table and never runs this code. See docs/decisions/0027-partitioned-readings.md.
 */

/**
 * How long a reading id is remembered in `reading_ids` (PostgreSQL): a retry received within
 * this many days of the first copy is stored once; a later one would be stored again. Devices
 * retry within seconds to hours (unacknowledged MQTT messages, HTTP retries, a gateway that
 * comes back); a week also covers a gateway left offline over a long weekend.
 */
export const READING_ID_WINDOW_DAYS = 7;
/** Days created ahead of the current one, so that a day starts with its partition ready. */
export const DAYS_AHEAD = 7;
/** Serializes partition DDL across the instances sharing the database. */
const PARTITION_LOCK_KEY = 7_414_367_502;
/** DDL on the partitioned table waits at most this long for queries in progress, then gives up until the next run. */
const DDL_LOCK_TIMEOUT = '3s';
/**
 * Partitions created or dropped per transaction: the parent stays locked for a short while
 * only, and a first start (about 410 days) does not hold thousands of locks at once.
 */
const DDL_BATCH = 31;
const DAY_MS = 86_400_000;

export interface ReadingPartition {
  name: string;
  /** Bounds of a day (or, from before, month) partition; null for the DEFAULT partition. */
  from: Date | null;
  to: Date | null;
}

/** The first instant (UTC) of the day of `date`, moved by `days`. */
export function dayStart(date: Date, days = 0): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + days));
}

/** `readings_p20261126`: the partition of a UTC day. */
export function partitionName(day: Date): string {
  return `readings_p${day.toISOString().slice(0, 10).replaceAll('-', '')}`;
}

/** Whether `readings` is the partitioned table (PostgreSQL once set up), or the plain one (PGlite). */
export async function isReadingsPartitioned(db: Database): Promise<boolean> {
  const [row] = await rowsOf<{ kind: string }>(db, sql`select relkind::text as kind from pg_class where oid = 'readings'::regclass`);
  return row?.kind === 'p';
}

/** The partitions of `readings`, oldest first, the DEFAULT partition last. */
export async function listReadingPartitions(db: Database): Promise<ReadingPartition[]> {
  const found = await rowsOf<{ name: string; from: number | string | null; to: number | string | null }>(
    db,
    sql`
      select c.relname as name,
        (extract(epoch from bound[1]::timestamptz) * 1000)::float8 as "from",
        (extract(epoch from bound[2]::timestamptz) * 1000)::float8 as "to"
      from pg_inherits i
      join pg_class c on c.oid = i.inhrelid
      cross join lateral regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM \\(''([^'']+)''\\) TO \\(''([^'']+)''\\)') as bound
      where i.inhparent = 'readings'::regclass and bound is not null
      union all
      select c.relname, null, null
      from pg_inherits i
      join pg_class c on c.oid = i.inhrelid
      where i.inhparent = 'readings'::regclass and pg_get_expr(c.relpartbound, c.oid) = 'DEFAULT'`,
  );
  return found
    .map((row) => ({
      name: row.name,
      from: row.from === null ? null : new Date(Number(row.from)),
      to: row.to === null ? null : new Date(Number(row.to)),
    }))
    .sort((a, b) => (a.from?.getTime() ?? Infinity) - (b.from?.getTime() ?? Infinity));
}

/** The days of `wanted` that no existing range partition (a day, or a month from before) overlaps. */
function uncovered(wanted: Date[], partitions: ReadingPartition[]): Date[] {
  return wanted.filter((day) => {
    const end = day.getTime() + DAY_MS;
    return !partitions.some((p) => p.from && p.to && p.from.getTime() < end && p.to.getTime() > day.getTime());
  });
}

/**
 * Creates the missing day partitions from the day of `from` to the day of `to`, both included,
 * skipping the days an existing partition covers (PostgreSQL refuses overlapping partitions).
 * Idempotent and serialized across instances; rows that went to the DEFAULT partition for a day
 * without its partition are moved into it when it is created.
 */
export async function ensureReadingPartitions(db: Database, from: Date, to: Date): Promise<number> {
  const wanted: Date[] = [];
  for (let day = dayStart(from); day <= to; day = dayStart(day, 1)) wanted.push(day);
  const missing = uncovered(wanted, await listReadingPartitions(db));
  let created = 0;
  for (let i = 0; i < missing.length; i += DDL_BATCH) {
    const batch = missing.slice(i, i + DDL_BATCH);
    created += await db.transaction(async (tx) => {
      const t = tx as unknown as Database;
      await tx.execute(sql`select pg_advisory_xact_lock(${PARTITION_LOCK_KEY})`);
      await tx.execute(sql.raw(`set local lock_timeout = '${DDL_LOCK_TIMEOUT}'`));
      // Read again under the lock: another instance may have created some meanwhile.
      let made = 0;
      for (const day of uncovered(batch, await listReadingPartitions(t))) {
        const lower = day.toISOString();
        const upper = dayStart(day, 1).toISOString();
        const table = sql.identifier(partitionName(day));
        const [strays] = await rowsOf<{ found: boolean }>(
          t,
          sql`select exists (select 1 from readings_default where ts >= ${lower}::timestamptz and ts < ${upper}::timestamptz) as found`,
        );
        if (strays?.found) {
          // Rows of this day are in DEFAULT: a partition cannot be created over them. They move
          // into a table of their own, which then becomes the day's partition.
          await tx.execute(sql`create table ${table} (like readings including defaults)`);
          await tx.execute(sql`
            with moved as (
              delete from readings_default where ts >= ${lower}::timestamptz and ts < ${upper}::timestamptz
              returning device_id, key, ts, value, reading_id, id)
            insert into ${table} (device_id, key, ts, value, reading_id, id) select * from moved`);
          await tx.execute(
            sql`alter table readings attach partition ${table} for values from (${sql.raw(`'${lower}'`)}) to (${sql.raw(`'${upper}'`)})`,
          );
        } else {
          await tx.execute(
            sql`create table ${table} partition of readings for values from (${sql.raw(`'${lower}'`)}) to (${sql.raw(`'${upper}'`)})`,
          );
        }
        made += 1;
      }
      return made;
    });
  }
  return created;
}

/**
 * Drops the partitions (days, and months from before) that end at or before `cutoff` (every row
 * older than it); returns how many partitions and about how many rows (the planner's count once
 * the table was analysed, an exact count otherwise). Serialized across instances; a partition
 * another instance dropped first is simply no longer listed.
 */
export async function dropReadingPartitionsBefore(db: Database, cutoff: Date): Promise<{ partitions: number; rows: number }> {
  const old = (await listReadingPartitions(db)).filter((partition) => partition.to && partition.to <= cutoff);
  let partitions = 0;
  let count = 0;
  for (let i = 0; i < old.length; i += DDL_BATCH) {
    const batch = old.slice(i, i + DDL_BATCH);
    await db.transaction(async (tx) => {
      const t = tx as unknown as Database;
      await tx.execute(sql`select pg_advisory_xact_lock(${PARTITION_LOCK_KEY})`);
      await tx.execute(sql.raw(`set local lock_timeout = '${DDL_LOCK_TIMEOUT}'`));
      const present = new Set((await listReadingPartitions(t)).map((partition) => partition.name));
      for (const partition of batch) {
        if (!present.has(partition.name)) continue;
        const table = sql.identifier(partition.name);
        const [estimate] = await rowsOf<{ n: number }>(
          t,
          sql`select reltuples::float8 as n from pg_class where oid = ${partition.name}::regclass`,
        );
        let n = Number(estimate?.n ?? -1);
        if (n < 0) {
          const [exact] = await rowsOf<{ n: number }>(t, sql`select count(*)::float8 as n from ${table}`);
          n = Number(exact?.n ?? 0);
        }
        await tx.execute(sql`drop table ${table}`);
        partitions += 1;
        count += Math.round(n);
      }
    });
  }
  return { partitions, rows: count };
}

/**
 * `reading_ids`: the ids received in the last READING_ID_WINDOW_DAYS days (`stored_at`, the
 * time of the claim, indexed for the hourly pruning), so that a retry is stored once.
 */
async function createReadingIds(db: Database): Promise<void> {
  await db.execute(sql`
    create table if not exists reading_ids (
      device_id uuid not null,
      reading_id text not null,
      key text not null,
      stored_at timestamp with time zone not null default now(),
      primary key (device_id, reading_id, key)
    )`);
  await db.execute(sql`create index if not exists reading_ids_stored_at_idx on reading_ids (stored_at)`);
}

/**
 * Databases whose `reading_ids` kept every id as long as its reading (column `ts`, pruned by
 * retention) get the dedup window instead: the ids of the window's readings are copied into a
 * new table, as if received at their time, and the old table is dropped. Copying the window costs
 * what a week of ids costs; adding a column and its index to the old table would index every id
 * of the history, and its first pruning would delete them all in one run. Idempotent.
 */
async function windowReadingIds(db: Database): Promise<void> {
  const [column] = await rowsOf<{ found: boolean }>(
    db,
    sql`select exists (select 1 from pg_attribute where attrelid = 'reading_ids'::regclass and attname = 'stored_at' and not attisdropped) as found`,
  );
  if (column?.found) return;
  await db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    await tx.execute(sql`lock table reading_ids in access exclusive mode`);
    await tx.execute(sql`alter table reading_ids rename to reading_ids_history`);
    await tx.execute(sql`alter table reading_ids_history rename constraint reading_ids_pkey to reading_ids_history_pkey`);
    await tx.execute(sql`drop index if exists reading_ids_ts_idx`);
    await createReadingIds(t);
    await tx.execute(sql`
      insert into reading_ids (device_id, reading_id, key, stored_at)
      select device_id, reading_id, key, least(ts, now())
      from reading_ids_history where ts >= now() - make_interval(days => ${READING_ID_WINDOW_DAYS})`);
    await tx.execute(sql`drop table reading_ids_history`);
  });
}

/**
 * Turns a plain `readings` table into the partitioned one (PostgreSQL only, under the migration
 * lock, right after the migrations): fresh databases, and existing ones whose rows are copied in
 * one transaction. Idempotent: does nothing once the table is partitioned. Records the choice of
 * native partitioning over TimescaleDB in the table's comment.
 */
export async function partitionReadings(
  db: Database,
  options: { now: Date; retentionDays: number; logger: DatabaseLogger },
): Promise<void> {
  const [timescale] = await rowsOf<{ available: boolean }>(
    db,
    sql`select exists (select 1 from pg_available_extensions where name = 'timescaledb') as available`,
  );
  const choice = timescale?.available
    ? 'TimescaleDB disponible sur ce serveur mais non employé : partitionnement déclaratif natif par jour'
    : 'TimescaleDB non disponible sur ce serveur : partitionnement déclaratif natif par jour';
  const from = new Date(options.now.getTime() - options.retentionDays * DAY_MS);
  const to = dayStart(options.now, DAYS_AHEAD);
  if (!(await isReadingsPartitioned(db))) {
    await db.transaction(async (tx) => {
      const t = tx as unknown as Database;
      await tx.execute(sql`lock table readings in access exclusive mode`);
      const [oldest] = await rowsOf<{ ts: string | null }>(t, sql`select min(ts) as ts from readings`);
      await tx.execute(sql`drop index if exists readings_device_key_ts_idx, readings_dedup_unique, readings_ts_brin`);
      await tx.execute(sql`alter table readings rename to readings_plain`);
      await tx.execute(sql`
        create table readings (
          device_id uuid not null,
          key text not null,
          ts timestamp with time zone not null,
          value double precision not null,
          reading_id text,
          id bigint not null default nextval('readings_id_seq')
        ) partition by range (ts)`);
      await tx.execute(sql`create index readings_device_key_ts_idx on readings (device_id, key, ts)`);
      await tx.execute(sql`create index readings_ts_brin on readings using brin (ts)`);
      await tx.execute(sql`create table readings_default partition of readings default`);
      await createReadingIds(t);
      const first = oldest?.ts ? new Date(Math.min(new Date(oldest.ts).getTime(), from.getTime())) : from;
      await ensureReadingPartitions(t, first, to);
      await tx.execute(sql`
        insert into readings (device_id, key, ts, value, reading_id, id)
        select device_id, key, ts, value, reading_id, id from readings_plain`);
      // The ids of the readings of the window are remembered, as if received at their time.
      await tx.execute(sql`
        insert into reading_ids (device_id, reading_id, key, stored_at)
        select device_id, reading_id, key, least(min(ts), now())
        from readings_plain
        where reading_id is not null and ts >= now() - make_interval(days => ${READING_ID_WINDOW_DAYS})
        group by device_id, reading_id, key`);
      // The sequence belongs to the old column: it would go with the old table.
      await tx.execute(sql`alter sequence readings_id_seq owned by readings.id`);
      await tx.execute(sql`drop table readings_plain`);
      await tx.execute(sql.raw(`comment on table readings is '${choice.replaceAll("'", "''")}'`));
    });
  } else {
    await windowReadingIds(db);
    await ensureReadingPartitions(db, from, to);
    const [comment] = await rowsOf<{ text: string | null }>(db, sql`select obj_description('readings'::regclass, 'pg_class') as text`);
    if (comment?.text !== choice) await db.execute(sql.raw(`comment on table readings is '${choice.replaceAll("'", "''")}'`));
  }
  options.logger.info({ timescaledb: timescale?.available ?? false }, `Lectures : ${choice}`);
}
