import type { LatestValue, ReadingsResponse } from '@vigie/contract';
import type { Database } from '../../db/database.ts';
import type { EventHub } from '../events/event-hub.ts';
import { createReadingDal, type ReadingCursor, type ReadingRow } from './reading-dal.ts';
import { csvRows } from './readings-csv.ts';
import { createTelemetryIngest, type StoredSensorReading, type TelemetryDevices } from './telemetry-ingest.ts';

export type { IngestOutcome, StoredSensorReading, TelemetryDevices } from './telemetry-ingest.ts';

const DAY_MS = 24 * 3600 * 1000;
const DELETE_CHUNK = 10_000;
/** The measure a chart shows first when the caller names none. */
const DEFAULT_KEY = 'temperature';

/** A record keyed by measure names that holds nothing else: no `constructor` nor `__proto__` inherited. */
const byMeasure = <T>(): Record<string, T> => Object.create(null) as Record<string, T>;

/**
 * Readings and latest values: turns a device's telemetry message into stored readings, tells
 * the live views (the way in is telemetry-ingest.ts), and serves the history (charts, CSV export,
 * retention, purge).
 */
export function createTelemetryService(deps: {
  db: Database;
  writeConcurrency?: number;
  devices: TelemetryDevices;
  events: EventHub;
  retentionDays: number;
  /** PostgreSQL: readings partitioned by day, reading ids in their own table. */
  partitionedReadings?: boolean;
  /**
   * Told once readings are committed, before they are acknowledged. What it returns is awaited:
   * it must be quick and never throw (the alert engine runs off this path; only late readings
   * make the predictive analysis write anything).
   */
  onStored?: (readings: StoredSensorReading[]) => void | Promise<void>;
  /** Corrects, in place, the temperatures of verified sensors about to be stored. */
  correct?: (rows: ReadingRow[]) => Promise<unknown>;
  /** A verified sensor's correction at each time (null: never verified), for the export's raw values. */
  offsetsOf?: (sensorId: string) => Promise<((ts: Date) => number) | null>;
}) {
  const dal = createReadingDal(deps.db, { partitioned: deps.partitionedReadings ?? false });
  const ingest = createTelemetryIngest({
    dal,
    writeConcurrency: deps.writeConcurrency,
    devices: deps.devices,
    events: deps.events,
    retentionDays: deps.retentionDays,
    onStored: deps.onStored,
    correct: deps.correct,
  });
  const SERIES_PAGE = 10_000;

  return {
    ingest: ingest.ingest,

    /** Whether a sensor already holds a reading of `key` near `ts` (± `windowMs`) whose id starts with `idPrefix`. */
    hasReadingNear(deviceId: string, key: string, ts: Date, windowMs: number, idPrefix: string): Promise<boolean> {
      return dal.hasReadingLike(deviceId, key, new Date(ts.getTime() - windowMs), new Date(ts.getTime() + windowMs), idPrefix);
    },

    forgetDevice: ingest.forgetDevice,
    store: ingest.store,

    /** The newest value of each key of each device. */
    async latestOf(deviceIds: string[]): Promise<Map<string, Record<string, LatestValue>>> {
      const result = new Map<string, Record<string, LatestValue>>();
      for (const row of await dal.latest(deviceIds)) {
        let values = result.get(row.deviceId);
        if (!values) result.set(row.deviceId, (values = byMeasure()));
        values[row.key] = { value: row.value, ts: row.ts.toISOString() };
      }
      return result;
    },

    /** A device's history of one key in buckets; without a key, temperature if it has one, else its first key. */
    async history(deviceId: string, query: { key?: string | undefined; from: Date; to: Date; buckets: number }): Promise<ReadingsResponse> {
      const keys = await dal.keys(deviceId);
      const key = query.key ?? (keys.includes(DEFAULT_KEY) ? DEFAULT_KEY : (keys[0] ?? null));
      const buckets = key ? await dal.buckets(deviceId, key, query.from, query.to, query.buckets) : [];
      return {
        key,
        keys,
        from: query.from.toISOString(),
        to: query.to.toISOString(),
        readings: buckets.map((bucket) => ({ ...bucket, ts: bucket.ts.toISOString() })),
      };
    },

    /**
     * The mean of one key per `stepMs` bucket in [from, to), oldest first, each dated by its start:
     * averaged by the database, so a fast sensor costs no more to analyse than a slow one.
     */
    async means(
      deviceId: string,
      key: string,
      from: Date,
      to: Date,
      stepMs: number,
    ): Promise<{ ts: number; value: number; count: number }[]> {
      const count = Math.max(1, Math.ceil((to.getTime() - from.getTime()) / stepMs));
      const end = new Date(from.getTime() + count * stepMs - 1);
      const buckets = await dal.buckets(deviceId, key, from, end, count);
      return buckets.map((bucket) => ({ ts: bucket.ts.getTime(), value: bucket.avg, count: bucket.count }));
    },

    /** Every reading of one key of a device in [from, to], oldest first (a month of a sensor, for its report). */
    async series(deviceId: string, key: string, from: Date, to: Date): Promise<{ ts: number; value: number }[]> {
      const result: { ts: number; value: number }[] = [];
      let after: ReadingCursor | undefined;
      for (;;) {
        const page = await dal.page(deviceId, { key, from, to, after, limit: SERIES_PAGE });
        for (const row of page) result.push({ ts: row.ts.getTime(), value: row.value });
        const last = page[page.length - 1];
        if (!last || page.length < SERIES_PAGE) return result;
        after = { ts: last.ts, key: last.key, id: last.id };
      }
    },

    /**
     * One page of a device's readings of a period (as they read now: corrected after a
     * verification), oldest first in (ts, key, id) order, after `after`: the export of every reading.
     */
    page(
      deviceId: string,
      options: { key?: string | undefined; from: Date; to: Date; after?: ReadingCursor | undefined; limit: number },
    ): Promise<(ReadingCursor & { value: number })[]> {
      return dal.page(deviceId, options);
    },

    /** A device's raw readings of a period as CSV lines for a French spreadsheet. */
    async csv(
      deviceId: string,
      query: { key?: string | undefined; from: Date; to: Date; timeZone: string },
    ): Promise<AsyncGenerator<string>> {
      const offsets = deps.offsetsOf ? await deps.offsetsOf(deviceId) : null;
      return csvRows(
        (after, limit) => dal.page(deviceId, { key: query.key, from: query.from, to: query.to, after, limit }),
        query.timeZone,
        offsets ? (key, ts) => (key === 'temperature' ? offsets(ts) : 0) : undefined,
      );
    },

    /** Deletes readings older than the retention period at `now`, in chunks that never hold a long lock. */
    async enforceRetention(now = Date.now()): Promise<number> {
      const cutoff = new Date(now - deps.retentionDays * DAY_MS);
      // PostgreSQL: the coming days get their partitions, the days wholly past the cutoff are
      // dropped at once; the rows left before it, in the day that spans it, go in chunks.
      await dal.preparePartitions(cutoff, new Date(now));
      let total = await dal.dropPartitionsBefore(cutoff);
      for (;;) {
        const deleted = await dal.deleteOlderThan(cutoff, DELETE_CHUNK);
        total += deleted;
        if (deleted < DELETE_CHUNK) break;
      }
      // PostgreSQL: reading ids are remembered for a week (the dedup window), not as long as their readings.
      while ((await dal.pruneReadingIds(new Date(now), DELETE_CHUNK)) === DELETE_CHUNK);
      return total;
    },

    /** Erases every reading and latest value of purged devices; idempotent. */
    async eraseDevices(deviceIds: string[]): Promise<void> {
      while ((await dal.deleteOfDevices(deviceIds, DELETE_CHUNK)) === DELETE_CHUNK);
    },
    close: ingest.close,
  };
}

export type TelemetryService = ReturnType<typeof createTelemetryService>;
