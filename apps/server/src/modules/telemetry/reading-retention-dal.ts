import { inArray, type SQL, sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../db/database.ts';
import {
  DAYS_AHEAD,
  dayStart,
  dropReadingPartitionsBefore,
  ensureReadingPartitions,
  listReadingPartitions,
  READING_ID_WINDOW_DAYS,
} from '../../db/reading-partitions.ts';
import { latestValues, readings } from '../../db/schema.ts';

/** How many rows a statement returned (`returning 1` counts what it changed). */
async function changed(db: Database, query: SQL): Promise<number> {
  return (await rowsOf(db, query)).length;
}

/**
 * What leaves the readings tables: a trashed device's readings when it is purged, readings past
 * the retention period, and on PostgreSQL the day partitions (made ahead, dropped once wholly
 * old) and the reading ids past the dedup window. `partitioned`: as for `createReadingDal`.
 */
export function createReadingRetentionDal(db: Database, options: { partitioned?: boolean } = {}) {
  const partitioned = options.partitioned ?? false;

  return {
    /** Deletes up to `limit` readings of the given devices, and their latest values once none is left. */
    async deleteOfDevices(deviceIds: string[], limit: number): Promise<number> {
      if (deviceIds.length === 0) return 0;
      const ids = sql.join(
        deviceIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      );
      if (partitioned) {
        // Partition by partition: a ctid names a row within one table only.
        let deleted = 0;
        for (const partition of await listReadingPartitions(db)) {
          const table = sql.identifier(partition.name);
          deleted += await changed(
            db,
            sql`delete from ${table} where ctid in (select ctid from ${table} where device_id in (${ids}) limit ${limit - deleted}) returning 1`,
          );
          if (deleted >= limit) return deleted;
        }
        deleted += await changed(
          db,
          sql`delete from reading_ids where ctid in (select ctid from reading_ids where device_id in (${ids}) limit ${limit - deleted}) returning 1`,
        );
        if (deleted < limit) await db.delete(latestValues).where(inArray(latestValues.deviceId, deviceIds));
        return deleted;
      }
      const deleted = await db
        .delete(readings)
        .where(sql`ctid in (select ctid from ${readings} where ${readings.deviceId} in (${ids}) limit ${limit})`)
        .returning({ ts: readings.ts });
      if (deleted.length < limit) await db.delete(latestValues).where(inArray(latestValues.deviceId, deviceIds));
      return deleted.length;
    },

    /**
     * PostgreSQL: creates the day partitions from the cutoff's day to DAYS_AHEAD days after
     * `now`'s, where no partition covers them yet (idempotent); returns how many were created.
     * Nothing on the embedded database.
     */
    async preparePartitions(cutoff: Date, now: Date): Promise<number> {
      if (!partitioned) return 0;
      return ensureReadingPartitions(db, cutoff, dayStart(now, DAYS_AHEAD));
    },

    /** PostgreSQL: drops the partitions wholly older than the cutoff; returns about how many readings went. */
    async dropPartitionsBefore(cutoff: Date): Promise<number> {
      if (!partitioned) return 0;
      return (await dropReadingPartitionsBefore(db, cutoff)).rows;
    },

    /**
     * PostgreSQL: forgets up to `limit` reading ids received more than READING_ID_WINDOW_DAYS
     * days before `now` (the dedup window); returns how many.
     */
    async pruneReadingIds(now: Date, limit: number): Promise<number> {
      if (!partitioned) return 0;
      const before = new Date(now.getTime() - READING_ID_WINDOW_DAYS * 86_400_000);
      return changed(
        db,
        sql`delete from reading_ids where ctid in (select ctid from reading_ids where stored_at < ${before.toISOString()}::timestamptz limit ${limit}) returning 1`,
      );
    },

    /** Deletes up to `limit` readings older than the cutoff; returns how many. */
    async deleteOlderThan(cutoff: Date, limit: number): Promise<number> {
      if (partitioned) {
        // What is left before the cutoff lies in the partition that spans it (a day, at most a
        // day's readings; usually an hour's, the job being hourly) and in DEFAULT.
        let deleted = 0;
        for (const partition of await listReadingPartitions(db)) {
          if (partition.from && partition.from >= cutoff) continue;
          const table = sql.identifier(partition.name);
          deleted += await changed(
            db,
            sql`delete from ${table} where ctid in (select ctid from ${table} where ts < ${cutoff.toISOString()}::timestamptz limit ${limit - deleted}) returning 1`,
          );
          if (deleted >= limit) break;
        }
        return deleted;
      }
      const deleted = await db
        .delete(readings)
        .where(sql`ctid in (select ctid from ${readings} where ${readings.ts} < ${cutoff.toISOString()}::timestamptz limit ${limit})`)
        .returning({ ts: readings.ts });
      return deleted.length;
    },
  };
}
