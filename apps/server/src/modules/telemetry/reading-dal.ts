import { and, asc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../db/database.ts';
import { latestValues, readingAdjustments, readings } from '../../db/schema.ts';
import { createReadingRetentionDal } from './reading-retention-dal.ts';

/**
 * A stored value as it reads now: less the adjustments that verifications recorded after it was
 * stored set on its time (decision 0046). The stored value itself is never rewritten.
 */
// Written with the table's name: drizzle leaves a select's own columns unqualified, which the subquery would read as its own.
const adjustedValue = sql<number>`round((readings.value - coalesce((
    select sum(a.delta) from ${readingAdjustments} a
    where a.sensor_id = readings.device_id and readings.key = 'temperature'
      and readings.ts >= a.from_ts and (a.to_ts is null or readings.ts < a.to_ts) and readings.id < a.below_id), 0))::numeric, 3)::float8`;

export interface Bucket {
  ts: Date;
  min: number;
  avg: number;
  max: number;
  count: number;
}

export interface ReadingRow {
  deviceId: string;
  key: string;
  ts: Date;
  value: number;
  readingId: string | null;
}

/** Where a page of readings ends: (ts, key, id) is unique, so the next page misses and repeats nothing. */
export interface ReadingCursor {
  ts: Date;
  key: string;
  id: number;
}

/** Beyond this, a stored value (older data, before the measures' ranges) counts as this in averages. */
export const STORED_VALUE_BOUND = 1e12;

/**
 * The only code that touches the readings, reading_ids and latest_values tables. `partitioned`:
 * PostgreSQL, where readings are partitioned by day and the reading ids of the last
 * READING_ID_WINDOW_DAYS days kept in `reading_ids` (a unique index of a partitioned table must
 * hold the partition key, and a retry without a timestamp is dated anew); the embedded database
 * keeps its plain table and unique index. What leaves the tables is in reading-retention-dal.ts.
 */
export function createReadingDal(db: Database, options: { partitioned?: boolean } = {}) {
  const partitioned = options.partitioned ?? false;
  /** Whether some of the device's readings of this key read adjusted (a verification recorded after them). */
  async function adjusted(deviceId: string, key: string | undefined): Promise<boolean> {
    if (key !== undefined && key !== 'temperature') return false;
    const [row] = await db
      .select({ id: readingAdjustments.id })
      .from(readingAdjustments)
      .where(eq(readingAdjustments.sensorId, deviceId))
      .limit(1);
    return row !== undefined;
  }

  const retention = createReadingRetentionDal(db, options);

  return {
    /**
     * Stores readings (a retried reading id is kept once) and moves each key's latest value
     * forward, in one statement: the batch is sent once, as compact JSON (times in epoch
     * milliseconds), and each key's newest value is taken from it by the database. Latest values
     * are written in (device, key) order, so concurrent transactions lock rows in one order and
     * cannot deadlock; of two readings of a key at the same time, the later in the batch wins.
     * Resolves with the `device|reading id|key` of each row with an id that was stored (not a
     * retry of one already stored); rows without an id are all stored.
     */
    async insert(rows: ReadingRow[]): Promise<Set<string>> {
      if (rows.length === 0) return new Set();
      const json = JSON.stringify(rows.map((r) => ({ d: r.deviceId, k: r.key, t: r.ts.getTime(), v: r.value, r: r.readingId })));
      // Readings without an id cannot repeat one: a plain insert, cheaper than one that checks.
      const stored = partitioned
        ? // A reading id is claimed in reading_ids (its primary key waits for a concurrent claim
          // of the same id, like a unique index): only the readings whose claim succeeded are
          // stored. Within one batch, the earliest of a repeated id wins.
          sql`
            firsts as (
              select distinct on (device_id, reading_id, key) device_id, key, ts, value, reading_id
              from x where reading_id is not null
              order by device_id, reading_id, key, n),
            claimed as (
              insert into reading_ids (device_id, reading_id, key)
              select device_id, reading_id, key from firsts
              on conflict do nothing
              returning device_id, reading_id, key),
            stored as (
              insert into readings (device_id, key, ts, value, reading_id)
              select device_id, key, ts, value, reading_id from x where reading_id is null
              union all
              select f.device_id, f.key, f.ts, f.value, f.reading_id from firsts f join claimed using (device_id, reading_id, key))`
        : sql`
            stored as (
              insert into readings (device_id, key, ts, value, reading_id)
              select device_id, key, ts, value, reading_id from x where reading_id is null),
            deduplicated as (
              insert into readings (device_id, key, ts, value, reading_id)
              select device_id, key, ts, value, reading_id from x where reading_id is not null order by n
              on conflict do nothing
              returning device_id, reading_id, key)`;
      const claimed = partitioned ? sql`claimed` : sql`deduplicated`;
      const kept = await rowsOf<{ device_id: string; reading_id: string; key: string }>(
        db,
        sql`
        with x as (
          select d as device_id, k as key, timestamptz 'epoch' + t * interval '1 millisecond' as ts, v as value, r as reading_id, n
          from rows from (json_to_recordset(${json}::json) as (d uuid, k text, t float8, v float8, r text))
            with ordinality as x(d, k, t, v, r, n)),
        ${stored},
        latest as (
          select distinct on (device_id, key) device_id, key, value, ts
          from x order by device_id, key, ts desc, n desc),
        written as (
          insert into latest_values (device_id, key, value, ts)
          select device_id, key, value, ts from latest order by device_id, key
          on conflict (device_id, key) do update set value = excluded.value, ts = excluded.ts
          where latest_values.ts <= excluded.ts)
        select device_id::text as device_id, reading_id, key from ${claimed}`,
      );
      return new Set(kept.map((row) => `${row.device_id}|${row.reading_id}|${row.key}`));
    },

    /**
     * Whether the device has a reading of this key between `from` and `to` whose id starts with
     * `idPrefix` (a LoRaWAN frame received again: lw-<frame>-…). Served by (device, key, ts).
     */
    async hasReadingLike(deviceId: string, key: string, from: Date, to: Date, idPrefix: string): Promise<boolean> {
      const pattern = `${idPrefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const found = await db
        .select({ one: sql<number>`1` })
        .from(readings)
        .where(
          and(
            eq(readings.deviceId, deviceId),
            eq(readings.key, key),
            gte(readings.ts, from),
            lte(readings.ts, to),
            sql`${readings.readingId} like ${pattern}`,
          ),
        )
        .limit(1);
      return found.length > 0;
    },

    /** The newest value of each key of the given devices. */
    async latest(deviceIds: string[]): Promise<{ deviceId: string; key: string; value: number; ts: Date }[]> {
      if (deviceIds.length === 0) return [];
      return db
        .select({ deviceId: latestValues.deviceId, key: latestValues.key, value: latestValues.value, ts: latestValues.ts })
        .from(latestValues)
        .where(inArray(latestValues.deviceId, deviceIds))
        .orderBy(asc(latestValues.deviceId), asc(latestValues.key));
    },

    /** Min, average and max per time bucket, computed by the database. */
    async buckets(deviceId: string, key: string, from: Date, to: Date, count: number): Promise<Bucket[]> {
      const value = (await adjusted(deviceId, key)) ? adjustedValue : sql<number>`${readings.value}`;
      const width = Math.max(1, Math.ceil((to.getTime() - from.getTime()) / count));
      // date_bin works on timestamps; an epoch extracted per reading is a numeric, several times slower.
      const bucket = sql`date_bin(${`${width} milliseconds`}::interval, ${readings.ts}, ${from})`;
      const rows = await db
        .select({
          bucket: sql<Date>`${bucket}`.mapWith(readings.ts),
          min: sql<number>`min(${value})`,
          // Clamped so that no value stored before the measures' ranges (a 1e308) overflows the
          // average's sum of squares: PostgreSQL would fail the whole query, forever.
          avg: sql<number>`avg(least(greatest(${value}, ${-STORED_VALUE_BOUND}::float8), ${STORED_VALUE_BOUND}::float8))`,
          max: sql<number>`max(${value})`,
          count: sql<number>`count(*)::int`,
        })
        .from(readings)
        .where(and(eq(readings.deviceId, deviceId), eq(readings.key, key), gte(readings.ts, from), lte(readings.ts, to)))
        // By position: the bucket expression's parameters would not match a second copy of it.
        .groupBy(sql`1`)
        .orderBy(sql`1`);
      return rows.map((row) => ({
        ts: row.bucket,
        min: Number(row.min),
        avg: Number(row.avg),
        max: Number(row.max),
        count: Number(row.count),
      }));
    },

    async keys(deviceId: string): Promise<string[]> {
      const rows = await db
        .select({ key: latestValues.key })
        .from(latestValues)
        .where(eq(latestValues.deviceId, deviceId))
        .orderBy(asc(latestValues.key));
      return rows.map((row) => row.key);
    },

    /** Raw readings of a period, oldest first, a page at a time (for exports). */
    async page(
      deviceId: string,
      options: { key?: string | undefined; from: Date; to: Date; after?: ReadingCursor | undefined; limit: number },
    ) {
      const value = (await adjusted(deviceId, options.key)) ? adjustedValue.mapWith(Number) : readings.value;
      return db
        .select({ ts: readings.ts, key: readings.key, value, id: readings.id })
        .from(readings)
        .where(
          and(
            eq(readings.deviceId, deviceId),
            options.key ? eq(readings.key, options.key) : undefined,
            gte(readings.ts, options.from),
            lte(readings.ts, options.to),
            options.after
              ? sql`(${readings.ts}, ${readings.key}, ${readings.id}) > (${options.after.ts.toISOString()}::timestamptz, ${options.after.key}, ${options.after.id})`
              : undefined,
          ),
        )
        .orderBy(asc(readings.ts), asc(readings.key), asc(readings.id))
        .limit(options.limit);
    },

    // What leaves the tables (reading-retention-dal.ts).
    deleteOfDevices: retention.deleteOfDevices,
    preparePartitions: retention.preparePartitions,
    dropPartitionsBefore: retention.dropPartitionsBefore,
    pruneReadingIds: retention.pruneReadingIds,
    deleteOlderThan: retention.deleteOlderThan,
  };
}

export type ReadingDal = ReturnType<typeof createReadingDal>;
