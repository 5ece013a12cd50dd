import type { CreateDeviceRequest, DeviceKind, DeviceStatus, Sensor, UpdateDeviceRequest } from '@vigie/contract';
import { notFound } from '../../errors.ts';
import type { EventHub } from '../events/event-hub.ts';
import type { DeviceDal, DeviceRecord } from './device-dal.ts';

export function deviceStatus(record: Pick<DeviceRecord, 'lastSeenAt' | 'inactivityTimeoutSeconds'>, now = Date.now()): DeviceStatus {
  if (!record.lastSeenAt) return 'never';
  return now - record.lastSeenAt.getTime() > record.inactivityTimeoutSeconds * 1000 ? 'offline' : 'online';
}

/** The API shape of a device (a sensor adds emitterId; a transmitter has none). */
export function toDevice(record: DeviceRecord, kind: DeviceKind, now = Date.now()): Sensor {
  const latest: Sensor['latest'] = {};
  for (const [key, { value, ts }] of Object.entries(record.latest ?? {})) latest[key] = { value, ts: new Date(ts).toISOString() };
  return {
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
    ...(kind === 'sensor' ? { emitterId: record.emitterId ?? null } : {}),
  } as Sensor;
}

/**
 * Rules for one kind of device. Another organization's device is reported exactly like one
 * that does not exist, so ids never leak across organizations. Every change is broadcast live.
 */
export function createDeviceService(deps: {
  dal: DeviceDal;
  kind: DeviceKind;
  notFoundMessage: string;
  events: EventHub;
  /** Told after a deletion, so the device's credentials and sessions end with it. */
  onDeleted?: (deviceId: string, organizationId: string) => void;
}) {
  const { dal, kind, events } = deps;
  const missing = () => notFound(deps.notFoundMessage);
  const announce = (organizationId: string, action: 'created' | 'updated', device: Sensor) =>
    events.publish([{ organizationId, type: 'device', data: { action, kind, device } }]);

  return {
    kind,
    dal,
    async list(organizationId: string) {
      const now = Date.now();
      return (await dal.list(organizationId)).map((record) => toDevice(record, kind, now));
    },
    async get(organizationId: string, id: string) {
      const record = await dal.find(organizationId, id);
      if (!record) throw missing();
      return toDevice(record, kind);
    },
    async create(
      organizationId: string,
      input: CreateDeviceRequest & { serial?: string; model?: string | undefined; inactivityTimeoutSeconds?: number | undefined },
    ) {
      const device = toDevice(await dal.create(organizationId, input), kind);
      announce(organizationId, 'created', device);
      return device;
    },
    async update(organizationId: string, id: string, changes: UpdateDeviceRequest) {
      const record = await dal.update(organizationId, id, changes);
      if (!record) throw missing();
      const device = toDevice(record, kind);
      announce(organizationId, 'updated', device);
      return device;
    },
    async remove(organizationId: string, id: string) {
      if (!(await dal.remove(organizationId, id))) throw missing();
      deps.onDeleted?.(id, organizationId);
      events.publish([{ organizationId, type: 'device', data: { action: 'deleted', kind, deviceId: id } }]);
    },
  };
}

export type DeviceService = ReturnType<typeof createDeviceService>;
