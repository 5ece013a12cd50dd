import type { DeviceKind, DeviceStatus, Emitter, LatestValue, Sensor } from '@vigie/contract';
import type { DeviceRecord } from './device-types.ts';

export function deviceStatus(record: Pick<DeviceRecord, 'lastSeenAt' | 'inactivityTimeoutSeconds'>, now = Date.now()): DeviceStatus {
  if (!record.lastSeenAt) return 'never';
  return now - record.lastSeenAt.getTime() > record.inactivityTimeoutSeconds * 1000 ? 'offline' : 'online';
}

/** A device in its API shape, tagged with its kind (a sensor adds emitterId; a transmitter has none). */
export type DeviceView = { kind: 'emitter'; device: Emitter } | { kind: 'sensor'; device: Sensor };

export function toDeviceView(kind: DeviceKind, record: DeviceRecord, latest: Record<string, LatestValue>, now = Date.now()): DeviceView {
  const device: Emitter = {
    id: record.id,
    name: record.name,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
    serial: record.serial,
    model: record.model,
    status: deviceStatus(record, now),
    lastSeenAt: record.lastSeenAt?.toISOString() ?? null,
    latest,
    battery: record.battery,
    inactivityTimeoutSeconds: record.inactivityTimeoutSeconds,
    siteId: record.siteId,
  };
  return kind === 'sensor' ? { kind, device: { ...device, emitterId: record.emitterId ?? null } } : { kind, device };
}
