import {
  type CreateDeviceRequest,
  type DeviceKind,
  type DeviceStatus,
  type Sensor,
  TRASH_RETENTION_DAYS,
  type TrashedDevice,
  type UpdateDeviceRequest,
} from '@vigie/contract';
import { notFound } from '../../errors.ts';
import type { EventHub } from '../events/event-hub.ts';
import type { DeviceDal, DeviceRecord } from './device-dal.ts';

const DAY_MS = 24 * 3600 * 1000;
export const NOT_IN_TRASH = 'Cet appareil n’est pas dans la corbeille.';

/** Devices deleted before this moment are due for purge and can no longer be restored. */
export const trashCutoff = (now: Date) => new Date(now.getTime() - TRASH_RETENTION_DAYS * DAY_MS);

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
  /** Told after a restore, so the device's kept token works again at once. */
  onRestored?: (deviceId: string, organizationId: string) => void;
  /** The clock of the trash: deletion time and the 30-day limit. */
  now?: () => Date;
}) {
  const { dal, kind, events } = deps;
  const now = deps.now ?? (() => new Date());
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
    /** Whether the device exists, in the organization, outside the trash. */
    isActive(organizationId: string, id: string) {
      return dal.isActive(organizationId, id);
    },
    /** Moves the device to the trash: gone from every view, its history and token kept for a restore. */
    async remove(organizationId: string, id: string) {
      if (!(await dal.trash(organizationId, id, now()))) throw missing();
      deps.onDeleted?.(id, organizationId);
      events.publish([{ organizationId, type: 'device', data: { action: 'deleted', kind, deviceId: id } }]);
    },
    /** Brings a device back from the trash with its history; its token works again. */
    async restore(organizationId: string, id: string) {
      const record = await dal.restore(organizationId, id, trashCutoff(now()));
      if (!record) throw notFound(NOT_IN_TRASH);
      const device = toDevice(record, kind);
      deps.onRestored?.(id, organizationId);
      announce(organizationId, 'created', device);
      return device;
    },
    async listTrashed(organizationId: string): Promise<TrashedDevice[]> {
      const records = await dal.listTrashed(organizationId, trashCutoff(now()));
      return records.map((record) => ({
        kind,
        id: record.id,
        name: record.name,
        serial: record.serial,
        model: record.model,
        deletedAt: record.deletedAt.toISOString(),
        purgeAt: new Date(record.deletedAt.getTime() + TRASH_RETENTION_DAYS * DAY_MS).toISOString(),
      }));
    },
    /** Ids of trashed devices past the retention period at `at`, a batch at a time. */
    expired(at: Date, limit: number) {
      return dal.expired(trashCutoff(at), limit);
    },
    /** Erases devices past the retention period at `at` (their telemetry must be erased first). */
    purge(ids: string[], at: Date) {
      return dal.purge(ids, trashCutoff(at));
    },
  };
}

export type DeviceService = ReturnType<typeof createDeviceService>;
