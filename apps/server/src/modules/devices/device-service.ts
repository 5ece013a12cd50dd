import {
  type CreateDeviceRequest,
  type DeviceEvent,
  type DeviceKind,
  type DeviceStatus,
  type ReadingEvent,
  type UpdateDeviceRequest,
} from '@vigie/contract';
import type { Database } from '../../db/database.ts';
import { notFound } from '../../errors.ts';
import type { EventHub } from '../events/event-hub.ts';
import { createDeviceDal, type DeviceDal } from './device-dal.ts';
import { createDeviceListBodies } from './device-list-body.ts';
import { createDeviceListCache, type LatestRow, type ListedDevice } from './device-list-cache.ts';
import type { DeviceRecord, DeviceTouch, LatestValuesSource, NewDevice } from './device-types.ts';
import { createDeviceTrash } from './device-trash.ts';
import { deviceStatus, type DeviceView, toDeviceView } from './device-view.ts';

export { NOT_IN_TRASH, trashCutoff } from './device-trash.ts';
export { deviceStatus, type DeviceView, toDeviceView } from './device-view.ts';

/** Devices per page when a list is asked with parameters but no `limit`. */
const DEFAULT_PAGE = 100;

export const DEVICE_NOT_FOUND: Record<DeviceKind, string> = { emitter: 'Émetteur introuvable.', sensor: 'Capteur introuvable.' };

/**
 * The DAL as the service uses it: each change, once committed, is followed by `changed` for its
 * organization, so that the list kept in memory is forgotten (here, and elsewhere when `shared`).
 */
function forgettingLists(stored: DeviceDal, changed: (organizationId: string) => void, shared: boolean): DeviceDal {
  /** A change of one device of the organization, followed by `changed` once it is committed. */
  const thenChanged =
    <A extends unknown[], R>(change: (organizationId: string, ...args: A) => Promise<R>) =>
    async (organizationId: string, ...args: A): Promise<R> => {
      const result = await change(organizationId, ...args);
      changed(organizationId);
      return result;
    };
  return {
    ...stored,
    create: thenChanged(stored.create),
    update: thenChanged(stored.update),
    trash: thenChanged(stored.trash),
    restore: thenChanged(stored.restore),
    async purge(ids, cutoff) {
      // No list shows the trash, but a purged transmitter leaves its sensors without one.
      const organizations = await stored.purge(ids, cutoff);
      for (const organizationId of new Set(organizations)) changed(organizationId);
      return organizations;
    },
    async touch(touches) {
      // A sensor heard through another transmitter than before: its card names the new one.
      const moved = await stored.touch(touches);
      if (shared) for (const organizationId of moved) changed(organizationId);
      return moved;
    },
  };
}

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
   * Each organization's list is kept in memory (see `createDeviceListCache`). `alone`: this process
   * makes every change of the devices (the embedded database). Shared: other instances change them
   * too and say so on the bus (`changedElsewhere`, `heardElsewhere`); memory answers only while
   * `trusted` (the bus is heard).
   */
  cacheLists: 'alone' | { trusted: () => boolean };
}) {
  const { kind, events } = deps;
  const stored = createDeviceDal(deps.db, kind);
  const sharedLists = typeof deps.cacheLists === 'object' ? deps.cacheLists : undefined;
  const shared = sharedLists !== undefined;
  const cache = createDeviceListCache(sharedLists ? { trusted: sharedLists.trusted } : {});
  /** A change is committed: this instance forgets the list at once, the others when they hear it. */
  const changed = (organizationId: string) => {
    cache.forget(organizationId);
    if (shared) events.publish([{ organizationId, type: 'devices-changed', data: { kind } }]);
  };
  // Every change goes through this DAL: a list in memory is forgotten once the change is committed.
  const dal = forgettingLists(stored, changed, shared);
  const now = deps.now ?? (() => new Date());
  const missing = () => notFound(DEVICE_NOT_FOUND[kind]);
  const announce = (organizationId: string, events_: DeviceEvent[]) =>
    events.publish(events_.map((data) => ({ organizationId, type: 'device' as const, data })));
  /** The lists as the API answers them, each device written out once (device-list-body.ts). */
  const bodies = createDeviceListBodies(kind);

  async function views(records: DeviceRecord[]): Promise<DeviceView[]> {
    const latest = await deps.latestOf(records.map((record) => record.id));
    const at = Date.now();
    return records.map((record) => toDeviceView(kind, record, latest.get(record.id) ?? {}, at));
  }
  /** How an organization's list is read from the database into memory. */
  const readListed = (organizationId: string) => async (): Promise<ListedDevice[]> => {
    const records = await dal.list(organizationId);
    const latest = await deps.latestOf(records.map((record) => record.id));
    return records.map((record) => ({ record, latest: latest.get(record.id) ?? {} }));
  };
  async function view(record: DeviceRecord): Promise<DeviceView> {
    const [one] = await views([record]);
    if (!one) throw missing();
    return one;
  }
  const trash = createDeviceTrash({
    kind,
    dal,
    now,
    view,
    announce,
    missing,
    onDeleted: deps.onDeleted,
    onRestored: deps.onRestored,
  });

  return {
    kind,
    async list(organizationId: string): Promise<DeviceView[]> {
      const listed = await cache.list(organizationId, readListed(organizationId));
      const at = Date.now();
      return listed.map(({ record, latest }) => toDeviceView(kind, record, latest, at));
    },
    /**
     * Each device of `list`, reduced to its site, status and battery, without writing out the rest of
     * its view: the chain's overview reads them for every device of the organization (10 000 for
     * 500 shops), where building the full views took half of its time.
     */
    async states(organizationId: string): Promise<{ siteId: string; status: DeviceStatus; battery: number | null }[]> {
      const listed = await cache.list(organizationId, readListed(organizationId));
      const at = Date.now();
      return listed.map(({ record }) => ({ siteId: record.siteId, status: deviceStatus(record, at), battery: record.battery ?? null }));
    },
    /**
     * The same list as `list`, as the body the API answers (`{"sensors":[…]}` or `{"emitters":[…]}`),
     * with a weak ETag of it. While no device of the organization changed and no status turned,
     * the same bytes answer again.
     */
    async listBody(organizationId: string): Promise<{ body: Buffer; etag: string }> {
      const at = Date.now();
      const listed = await cache.list(organizationId, readListed(organizationId));
      return bodies.body(organizationId, listed, at);
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
      /** The sites a scoped member sees; undefined, all of them. */
      siteIds?: ReadonlySet<string>,
    ): Promise<{ views: DeviceView[]; total: number; nextCursor: string | null }> {
      const limit = query.limit ?? DEFAULT_PAGE;
      const { records, total } = await dal.page(
        organizationId,
        { q: query.q || undefined, siteId: query.siteId, status: query.status, at: new Date(), siteIds: siteIds && [...siteIds] },
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

    /** Which of these ids are devices of this kind (the trash included), whatever the organization: what an alert is about. */
    known(ids: readonly string[]) {
      return dal.known(ids);
    },

    /** The site of a device of the organization (in the trash too), or undefined: for the scope check. */
    siteOf(organizationId: string, id: string) {
      return dal.siteOf(organizationId, id);
    },

    /** Whether the device exists, in the organization, outside the trash. */
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
      cache.heard(touches, latest, new Date());
    },
    /** Another instance changed a device of the organization (shared lists). */
    changedElsewhere(organizationId: string): void {
      cache.forget(organizationId);
    },
    /** Readings stored by any instance, as the bus tells them (shared lists). */
    heardElsewhere(event: ReadingEvent): void {
      if (!shared) return;
      const at = new Date(event.lastSeenAt);
      const latest = Object.entries(event.values).map(([key, { value, ts }]) => ({
        deviceId: event.deviceId,
        key,
        value,
        ts: new Date(ts),
      }));
      cache.heard([{ deviceId: event.deviceId, battery: event.battery, emitterId: null }], latest, at);
    },
    /** The bus was down: what other instances changed meanwhile is unknown. */
    forgetAll(): void {
      cache.clear();
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

    // The trash (device-trash.ts).
    remove: trash.remove,
    restore: trash.restore,
    listTrashed: trash.listTrashed,
    expired: trash.expired,
    purge: trash.purge,
  };
}

export type DeviceService = ReturnType<typeof createDeviceService>;
