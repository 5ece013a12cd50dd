import { DEVICE_KINDS, type DeviceKind, type ReadingEvent } from '@vigie/contract';
import { AppError } from '../../errors.ts';
import type { DeviceIdentity } from '../devices/credential-service.ts';
import type { DeviceTouch } from '../devices/device-types.ts';
import type { EventHub } from '../events/event-hub.ts';
import type { ReadingDal, ReadingRow } from './reading-dal.ts';
import { createReadingWriter, type ReadingTouch } from './reading-writer.ts';
import { parseTelemetry } from './telemetry-parser.ts';

const SENSOR_CACHE_TTL_MS = 5_000;
const DAY_MS = 24 * 3600 * 1000;

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
 * The way in of readings: a device's telemetry message validated, its sensors' references
 * resolved, its readings corrected and committed through the writer with the devices they touch,
 * then told to the alert engine and the analysis (`onStored`) and to the live views.
 */
export function createTelemetryIngest(deps: {
  dal: Pick<ReadingDal, 'insert'>;
  writeConcurrency?: number;
  devices: TelemetryDevices;
  events: EventHub;
  retentionDays: number;
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
  const { dal } = deps;
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

    /** A device left (the trash) or came back: its readings are refused or taken at once here. */
    forgetDevice(deviceId: string): void {
      forgetSensor(deviceId);
      forgetSensor(null);
    },

    /** Stores readings already validated (the demo history), with the devices they touch. */
    async store(rows: ReadingRow[], touches: ReadingTouch[]): Promise<void> {
      await writer.write(rows, touches);
    },

    /** Waits for queued writes to commit; later writes are refused. */
    close(): Promise<void> {
      return writer.close();
    },
  };
}

export type TelemetryIngest = ReturnType<typeof createTelemetryIngest>;
