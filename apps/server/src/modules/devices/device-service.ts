import {
  type CreateDeviceRequest,
  type DeviceEvent,
  type DeviceKind,
  type DeviceStatus,
  type Emitter,
  type LatestValue,
  type Sensor,
  TRASH_RETENTION_DAYS,
  type TrashedDevice,
  type UpdateDeviceRequest,
} from '@vigie/contract';
import type { Database } from '../../db/database.ts';
import { notFound } from '../../errors.ts';
import type { EventHub } from '../events/event-hub.ts';
import { createDeviceDal, type DeviceDal } from './device-dal.ts';
import { createDeviceListCache, type LatestRow } from './device-list-cache.ts';
import type { DeviceRecord, DeviceTouch, LatestValuesSource, NewDevice } from './device-types.ts';

const DAY_MS = 24 * 3600 * 1000;
export const NOT_IN_TRASH = 'Cet appareil n’est pas dans la corbeille.';

/** Devices deleted before this moment are due for purge and can no longer be restored. */
export const trashCutoff = (now: Date) => new Date(now.getTime() - TRASH_RETENTION_DAYS * DAY_MS);

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

/** Devices per page when a list is asked with parameters but no `limit`. */
const DEFAULT_PAGE = 100;

const MESSAGES: Record<DeviceKind, string> = { emitter: 'Émetteur introuvable.', sensor: 'Capteur introuvable.' };

/**
 * Rules for one kind of device. Another organization's device is reported exactly like one
 * that does not exist, so ids never leak across organizations. Every change is broadcast live.
 */
export function createDeviceService(deps: {
  db: Database;
  kind: DeviceKind;
  events: EventHub;
  /** The newest values shown with each device (owned by the telemetry module). */
  latestOf: LatestValuesSource;
  /** Told after a deletion, so the device's credentials and sessions end with it. */
  onDeleted?: (deviceId: string, organizationId: string) => void | Promise<void>;
  /** Told after a restore, so the device's kept token works again at once. */
  onRestored?: (deviceId: string, organizationId: string) => void | Promise<void>;
  /** The clock of the trash: deletion time and the 30-day limit. */
  now?: () => Date;
  /**
   * The site a device goes to: the one named (checked to belong to the organization, else the
   * site's 404) or, when none is named, the organization's first site. Asked of the sites module.
   */
  siteFor: (organizationId: string, siteId: string | undefined) => Promise<string>;
  /**
   * Keep each organization's list in memory (see `createDeviceListCache`): only when this process
   * makes every change of the devices, on the embedded database.
   */
  cacheLists?: boolean;
}) {
  const { kind, events } = deps;
  const stored = createDeviceDal(deps.db, kind);
  const cache = deps.cacheLists ? createDeviceListCache() : null;
  // Every change goes through these: a list in memory is forgotten once the change is committed.
  const dal: DeviceDal = cache
    ? {
        ...stored,
        async create(organizationId, input) {
          const record = await stored.create(organizationId, input);
          cache.forget(organizationId);
          return record;
        },
        async update(organizationId, id, changes) {
          const record = await stored.update(organizationId, id, changes);
          cache.forget(organizationId);
          return record;
        },
        async trash(organizationId, id, at) {
          const trashed = await stored.trash(organizationId, id, at);
          cache.forget(organizationId);
          return trashed;
        },
        async restore(organizationId, id, notBefore) {
          const record = await stored.restore(organizationId, id, notBefore);
          cache.forget(organizationId);
          return record;
        },
        async purge(ids, cutoff) {
          const purged = await stored.purge(ids, cutoff);
          cache.clear();
          return purged;
        },
      }
    : stored;
  const now = deps.now ?? (() => new Date());
  const missing = () => notFound(MESSAGES[kind]);
  const announce = (organizationId: string, events_: DeviceEvent[]) =>
    events.publish(events_.map((data) => ({ organizationId, type: 'device' as const, data })));

  async function views(records: DeviceRecord[]): Promise<DeviceView[]> {
    const latest = await deps.latestOf(records.map((record) => record.id));
    const at = Date.now();
    return records.map((record) => toDeviceView(kind, record, latest.get(record.id) ?? {}, at));
  }
  async function view(record: DeviceRecord): Promise<DeviceView> {
    const [one] = await views([record]);
    if (!one) throw missing();
    return one;
  }

  return {
    kind,
    async list(organizationId: string): Promise<DeviceView[]> {
      if (!cache) return views(await dal.list(organizationId));
      const listed = await cache.list(organizationId, async () => {
        const records = await dal.list(organizationId);
        const latest = await deps.latestOf(records.map((record) => record.id));
        return records.map((record) => ({ record, latest: latest.get(record.id) ?? {} }));
      });
      const at = Date.now();
      return listed.map(({ record, latest }) => toDeviceView(kind, record, latest, at));
    },
    /** A page of the list, filtered (`q` in the name or serial, case aside; site; status now). */
    async page(
      organizationId: string,
      query: {
        q?: string | undefined;
        siteId?: string | undefined;
        status?: DeviceStatus | undefined;
        limit?: number | undefined;
        cursor?: string | undefined;
      },
    ): Promise<{ views: DeviceView[]; total: number; nextCursor: string | null }> {
      const limit = query.limit ?? DEFAULT_PAGE;
      const { records, total } = await dal.page(
        organizationId,
        { q: query.q || undefined, siteId: query.siteId, status: query.status, at: new Date() },
        query.cursor,
        limit + 1,
      );
      const shown = records.slice(0, limit);
      const last = shown.at(-1);
      return { views: await views(shown), total, nextCursor: records.length > limit && last ? last.id : null };
    },
    async get(organizationId: string, id: string): Promise<DeviceView> {
      const record = await dal.find(organizationId, id);
      if (!record) throw missing();
      return view(record);
    },
    async create(
      organizationId: string,
      input: CreateDeviceRequest & Omit<NewDevice, 'name' | 'siteId'> & { siteId?: string | undefined },
    ): Promise<DeviceView> {
      const siteId = await deps.siteFor(organizationId, input.siteId);
      const created = await view(await dal.create(organizationId, { ...input, siteId }));
      announce(organizationId, [{ action: 'created', ...created }]);
      return created;
    },
    async update(organizationId: string, id: string, changes: UpdateDeviceRequest): Promise<DeviceView> {
      if (!(await dal.isActive(organizationId, id))) throw missing();
      const siteId = changes.siteId === undefined ? undefined : await deps.siteFor(organizationId, changes.siteId);
      const record = await dal.update(organizationId, id, { ...changes, siteId });
      if (!record) throw missing();
      const updated = await view(record);
      announce(organizationId, [{ action: 'updated', ...updated }]);
      return updated;
    },
    /** How many devices of this kind a site holds, the trash included. */
    countInSite(organizationId: string, siteId: string) {
      return dal.countInSite(organizationId, siteId);
    },
    /** What the alert engine needs of these devices (outside the trash). */
    watched(filter: { ids: string[] } | { organizationId: string; siteId: string }) {
      return dal.watched(filter);
    },
    /** Whether the device exists, in the organization, outside the trash. */
    /** Active devices heard from since `since`, in every organization, by id after `after` (background analysis). */
    seenSince(since: Date, limit: number, after?: string) {
      return dal.seenSince(since, limit, after);
    },

    /** Active devices by id, in every organization, with their names (background analysis, lists). */
    async named(ids: string[]): Promise<{ id: string; organizationId: string; siteId: string; name: string }[]> {
      return (await dal.findMany(ids)).map((record) => ({
        id: record.id,
        organizationId: record.organizationId,
        siteId: record.siteId,
        name: record.name,
      }));
    },

    isActive(organizationId: string, id: string) {
      return dal.isActive(organizationId, id);
    },
    /** A device of the organization by serial, or by id when the reference is a UUID; never a trashed one. */
    findByReference(organizationId: string, reference: string) {
      return dal.findByReference(organizationId, reference);
    },
    /** By serial, trashed devices included (`deletedAt` says so): a trashed device keeps its serial. */
    findBySerial(organizationId: string, serial: string) {
      return dal.findBySerial(organizationId, serial);
    },
    /** Devices heard from now, with the battery and transmitter they reported, and their newest values just committed. */
    async touch(touches: DeviceTouch[], latest: readonly LatestRow[] = []): Promise<void> {
      await dal.touch(touches);
      cache?.heard(touches, latest, new Date());
    },
    /** Broadcasts the devices that went silent for longer than their timeout in the last `windowSeconds`. */
    async announceOffline(): Promise<number> {
      const silent = await dal.claimOffline();
      const records = await dal.findMany(silent.map((device) => device.id));
      const shown = await views(records);
      records.forEach((record, index) => {
        const entry = shown[index];
        if (entry) announce(record.organizationId, [{ action: 'status', ...entry }]);
      });
      return records.length;
    },
    /** Moves the device to the trash: gone from every view, its history and token kept for a restore. */
    async remove(organizationId: string, id: string) {
      if (!(await dal.trash(organizationId, id, now()))) throw missing();
      await deps.onDeleted?.(id, organizationId);
      announce(organizationId, [{ action: 'deleted', kind, deviceId: id }]);
    },
    /** Brings a device back from the trash with its history; its token works again. */
    async restore(organizationId: string, id: string): Promise<DeviceView> {
      const record = await dal.restore(organizationId, id, trashCutoff(now()));
      if (!record) throw notFound(NOT_IN_TRASH);
      const restored = await view(record);
      await deps.onRestored?.(id, organizationId);
      announce(organizationId, [{ action: 'created', ...restored }]);
      return restored;
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
