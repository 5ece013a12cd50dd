import type { ReadingEvent } from '@vigie/contract';
import { AppError } from '../../errors.ts';
import type { DeviceDal } from '../devices/device-dal.ts';
import type { EventHub } from '../events/event-hub.ts';
import type { DeviceIdentity } from './device-credentials.ts';
import type { DeviceTouch, ReadingRow, ReadingWriter } from './reading-writer.ts';
import { parseTelemetry } from './telemetry-parser.ts';

const SENSOR_CACHE_TTL_MS = 5_000;

/** Turns a device's telemetry message into stored readings, then tells the live views. */
export function createTelemetryService(deps: { writer: ReadingWriter; sensors: DeviceDal; events: EventHub; retentionDays: number }) {
  const sensorCache = new Map<string, { id: string | null; expires: number }>();

  async function resolveSensor(organizationId: string, reference: string): Promise<string | null> {
    const cacheKey = `${organizationId}|${reference}`;
    const cached = sensorCache.get(cacheKey);
    if (cached && cached.expires > Date.now()) return cached.id;
    const found = await deps.sensors.findByReference(organizationId, reference);
    if (sensorCache.size > 10_000) sensorCache.clear();
    sensorCache.set(cacheKey, { id: found?.id ?? null, expires: Date.now() + SENSOR_CACHE_TTL_MS });
    return found?.id ?? null;
  }

  return {
    /** Validates and stores a message; resolves with the number of readings once they are committed. */
    async ingest(device: DeviceIdentity, payload: unknown): Promise<number> {
      const now = Date.now();
      const parsed = parseTelemetry(payload, {
        now,
        maxAgeMs: deps.retentionDays * 24 * 3600 * 1000,
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
      const touches = new Map<string, DeviceTouch>();
      const touch = (deviceId: string, kind: DeviceTouch['kind'], emitterId: string | null) => {
        let entry = touches.get(deviceId);
        if (!entry) touches.set(deviceId, (entry = { deviceId, kind, battery: null, emitterId }));
        return entry;
      };
      touch(device.deviceId, device.kind, null);
      const freshest = new Map<string, Map<string, { value: number; ts: Date }>>();
      for (const reading of parsed) {
        const targetId = reading.sensor ? (targets.get(reading.sensor) as string) : device.deviceId;
        const entry = reading.sensor ? touch(targetId, 'sensor', device.deviceId) : touch(targetId, device.kind, null);
        let values = freshest.get(targetId);
        if (!values) freshest.set(targetId, (values = new Map()));
        for (const [key, value] of reading.values) {
          rows.push({ deviceId: targetId, key, ts: reading.ts, value, readingId: reading.readingId });
          const previous = values.get(key);
          if (!previous || previous.ts <= reading.ts) values.set(key, { value, ts: reading.ts });
          if (key === 'battery') entry.battery = Math.max(0, Math.min(100, value));
        }
      }

      await deps.writer.write(rows, [...touches.values()]);

      const seenAt = new Date().toISOString();
      deps.events.publish(
        [...touches.values()].map((entry) => {
          const values: ReadingEvent['values'] = {};
          for (const [key, latest] of freshest.get(entry.deviceId) ?? [])
            values[key] = { value: latest.value, ts: latest.ts.toISOString() };
          const data: ReadingEvent = { deviceId: entry.deviceId, kind: entry.kind, lastSeenAt: seenAt, battery: entry.battery, values };
          return { organizationId: device.organizationId, type: 'reading' as const, data };
        }),
      );
      return parsed.length;
    },
  };
}

export type TelemetryService = ReturnType<typeof createTelemetryService>;
