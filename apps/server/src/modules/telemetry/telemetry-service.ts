import { DEVICE_KINDS, type DeviceKind, type LatestValue, type ReadingEvent, type ReadingsResponse } from '@vigie/contract';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { DeviceIdentity } from '../devices/credential-service.ts';
import type { DeviceTouch } from '../devices/device-types.ts';
import type { EventHub } from '../events/event-hub.ts';
import { createReadingDal, type ReadingCursor, type ReadingRow } from './reading-dal.ts';
import { createReadingWriter, type ReadingTouch } from './reading-writer.ts';
import { csvRows } from './readings-csv.ts';
import { parseTelemetry } from './telemetry-parser.ts';

const SENSOR_CACHE_TTL_MS = 5_000;
const DAY_MS = 24 * 3600 * 1000;
const DELETE_CHUNK = 10_000;
/** The measure a chart shows first when the caller names none. */
const DEFAULT_KEY = 'temperature';

/** What telemetry needs from the devices module, narrowed to what it uses. */
export interface TelemetryDevices {
  findSensorByReference(organizationId: string, reference: string): Promise<{ id: string } | undefined>;
  /** Devices heard from, with the newest values just committed for them. */
  touch(kind: DeviceKind, touches: DeviceTouch[], latest: ReadingRow[]): Promise<void>;
  /** Throws the 404 of a sensor the organization does not have, or has in the trash. */
  assertSensor(organizationId: string, sensorId: string): Promise<void>;
}

/** What a message came to: readings stored, and readings already stored (retries of their ids). */
export interface IngestOutcome {
  accepted: number;
  duplicates: number;
}

/** A record keyed by measure names that holds nothing else: no `constructor` nor `__proto__` inherited. */
const byMeasure = <T>(): Record<string, T> => Object.create(null) as Record<string, T>;

/** The values a sensor reported at one instant, as committed. */
export interface StoredSensorReading {
  organizationId: string;
  sensorId: string;
  ts: Date;
  values: Record<string, number>;
}

/**
 * Readings and latest values: turns a device's telemetry message into stored readings, tells
 * the live views, and serves the history (charts, CSV export, retention, purge).
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
  const SERIES_PAGE = 10_000;
  const touchDevices = async (touches: ReadingTouch[], latest: ReadingRow[]) => {
    for (const kind of DEVICE_KINDS) {
      const ofKind = touches.filter((touch) => touch.kind === kind);
      if (ofKind.length === 0) continue;
      const ids = new Set(ofKind.map((touch) => touch.deviceId));
      await deps.devices.touch(
        kind,
        ofKind,
        latest.filter((row) => ids.has(row.deviceId)),
      );
    }
  };
  const writer = createReadingWriter({
    insert: (rows) => dal.insert(rows),
    touch: touchDevices,
    ...(deps.writeConcurrency === undefined ? {} : { concurrency: deps.writeConcurrency }),
  });
  const sensorCache = new Map<string, { id: string | null; expires: number }>();
  /** Forgets what the cache says of a device (`null`: of every reference that found none). */
  const forgetSensor = (deviceId: string | null) => {
    for (const [key, entry] of sensorCache) if (entry.id === deviceId) sensorCache.delete(key);
  };
  // A sensor moved to the trash is unknown at once; one created or restored is known at once,
  // on every instance (this one is also told directly, before its answer leaves).
  deps.events.subscribeAll((event) => {
    if (event.type !== 'device') return;
    if (event.data.action === 'deleted') forgetSensor(event.data.deviceId);
    if (event.data.action === 'created') forgetSensor(null);
  });

  async function resolveSensor(organizationId: string, reference: string): Promise<string | null> {
    const cacheKey = `${organizationId}|${reference}`;
    const cached = sensorCache.get(cacheKey);
    if (cached && cached.expires > Date.now()) return cached.id;
    const found = await deps.devices.findSensorByReference(organizationId, reference);
    if (sensorCache.size > 10_000) sensorCache.clear();
    sensorCache.set(cacheKey, { id: found?.id ?? null, expires: Date.now() + SENSOR_CACHE_TTL_MS });
    return found?.id ?? null;
  }

  return {
    /**
     * Validates and stores a message; resolves once committed with how many readings were stored,
     * and how many were not because a reading of the same id already was (a retry).
     */
    async ingest(device: DeviceIdentity, payload: unknown): Promise<IngestOutcome> {
      const now = Date.now();
      const parsed = parseTelemetry(payload, {
        now,
        maxAgeMs: deps.retentionDays * DAY_MS,
        allowSensorReference: device.kind === 'emitter',
      });

      const targets = new Map<string, string>();
      for (const reference of new Set(parsed.map((reading) => reading.sensor).filter((s): s is string => s !== null))) {
        const id = await resolveSensor(device.organizationId, reference);
        if (!id) {
          throw new AppError(
            400,
            `Capteur inconnu « ${reference.slice(0, 64)} » : installez-le d'abord avec la clé d'installation de l'organisation. Rien n'a été enregistré.`,
          );
        }
        targets.set(reference, id);
      }

      const rows: ReadingRow[] = [];
      /** Which reading of the message each row is of. */
      const readingOf: number[] = [];
      const touches = new Map<string, ReadingTouch>();
      const touch = (deviceId: string, kind: DeviceKind, emitterId: string | null) => {
        let entry = touches.get(deviceId);
        if (!entry) touches.set(deviceId, (entry = { deviceId, kind, battery: null, emitterId }));
        return entry;
      };
      touch(device.deviceId, device.kind, null);
      for (const [index, reading] of parsed.entries()) {
        const targetId = (reading.sensor && targets.get(reading.sensor)) || device.deviceId;
        const entry = reading.sensor ? touch(targetId, 'sensor', device.deviceId) : touch(targetId, device.kind, null);
        for (const [key, value] of reading.values) {
          rows.push({ deviceId: targetId, key, ts: reading.ts, value, readingId: reading.readingId });
          readingOf.push(index);
          if (key === 'battery') entry.battery = Math.max(0, Math.min(100, value));
        }
      }
      // A verified sensor's temperatures are stored corrected (docs/api.md, Vérifications des capteurs).
      if (deps.correct) await deps.correct(rows);
      const written = await writer.write(rows, [...touches.values()]);
      // A reading is stored when any of its values is; a retry's values are all already there.
      const storedReadings = new Set(readingOf.filter((_, index) => written[index]));
      const kept = rows.filter((_, index) => written[index]);

      const freshest = new Map<string, Map<string, { value: number; ts: Date }>>();
      for (const row of kept) {
        let values = freshest.get(row.deviceId);
        if (!values) freshest.set(row.deviceId, (values = new Map()));
        const previous = values.get(row.key);
        if (!previous || previous.ts <= row.ts) values.set(row.key, { value: row.value, ts: row.ts });
      }

      if (deps.onStored) {
        const stored = new Map<string, StoredSensorReading>();
        for (const row of kept) {
          const kind = touches.get(row.deviceId)?.kind;
          if (kind !== 'sensor') continue;
          const key = `${row.deviceId}|${row.ts.getTime()}`;
          let entry = stored.get(key);
          if (!entry)
            stored.set(key, (entry = { organizationId: device.organizationId, sensorId: row.deviceId, ts: row.ts, values: byMeasure() }));
          entry.values[row.key] = row.value;
        }
        if (stored.size > 0) await deps.onStored([...stored.values()]);
      }

      const seenAt = new Date().toISOString();
      deps.events.publish(
        [...touches.values()].map((entry) => {
          const values: ReadingEvent['values'] = byMeasure();
          for (const [key, latest] of freshest.get(entry.deviceId) ?? [])
            values[key] = { value: latest.value, ts: latest.ts.toISOString() };
          const data: ReadingEvent = { deviceId: entry.deviceId, kind: entry.kind, lastSeenAt: seenAt, battery: entry.battery, values };
          return { organizationId: device.organizationId, type: 'reading' as const, data };
        }),
      );
      return { accepted: storedReadings.size, duplicates: parsed.length - storedReadings.size };
    },

    /** Whether a sensor already holds a reading of `key` near `ts` (± `windowMs`) whose id starts with `idPrefix`. */
    hasReadingNear(deviceId: string, key: string, ts: Date, windowMs: number, idPrefix: string): Promise<boolean> {
      return dal.hasReadingLike(deviceId, key, new Date(ts.getTime() - windowMs), new Date(ts.getTime() + windowMs), idPrefix);
    },

    /** A device left (the trash) or came back: its readings are refused or taken at once here. */
    forgetDevice(deviceId: string): void {
      forgetSensor(deviceId);
      forgetSensor(null);
    },

    /** Stores readings already validated (the demo history), with the devices they touch. */
    async store(rows: ReadingRow[], touches: ReadingTouch[]): Promise<void> {
      await writer.write(rows, touches);
    },

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

    /** Waits for queued writes to commit; later writes are refused. */
    close(): Promise<void> {
      return writer.close();
    },
  };
}

export type TelemetryService = ReturnType<typeof createTelemetryService>;
