import type { LatestValue } from '@vigie/contract';
import type { DeviceRecord, DeviceTouch } from './device-types.ts';

/** A listed device: its row and the newest value of each of its keys. */
export interface ListedDevice {
  record: DeviceRecord;
  latest: Record<string, LatestValue>;
}

/** A newest value just committed by the telemetry module. */
export interface LatestRow {
  deviceId: string;
  key: string;
  value: number;
  ts: Date;
}

interface CachedList {
  order: string[];
  devices: Map<string, ListedDevice>;
}

interface Heard {
  touches: readonly DeviceTouch[];
  latest: readonly LatestRow[];
  at: Date;
}

/**
 * The lists of one kind of device, per organization, in memory. The database stays the truth:
 * - a list is read from it the first time it is asked for, and again after any change of a device
 *   of the organization (created, changed, trashed, restored) — `forget`; a purge forgets them all.
 *   Instances sharing PostgreSQL announce their changes on the bus and each forgets as it hears;
 * - readings move a listed device forward in place (`heard`, here and from the bus): last contact,
 *   battery, transmitter, newest values, the newer winning as in the database, so that news heard
 *   twice or late changes nothing;
 * - while news from other instances may be missed (`trusted` false: the bus is down), every list
 *   is read from the database, and memory starts afresh (`clear`) once the bus is back;
 * - what is heard while a list is being read is applied to it once read, so that a reading
 *   committed between the read and its end is not lost; a change in that time discards the read.
 */
export function createDeviceListCache(options: { maxOrganizations?: number; trusted?: () => boolean } = {}) {
  const maxOrganizations = options.maxOrganizations ?? 200;
  const trusted = options.trusted ?? (() => true);
  const lists = new Map<string, CachedList>();
  const organizationOf = new Map<string, string>();
  let generation = 0;
  let reading = 0;
  const heardWhileReading: Heard[] = [];

  function apply(devices: Map<string, ListedDevice>, heard: Heard): void {
    for (const touch of heard.touches) {
      const listed = devices.get(touch.deviceId);
      if (!listed) continue;
      const { record } = listed;
      // Older news (heard late, or twice) leaves the newer contact as it is.
      if (record.lastSeenAt && record.lastSeenAt > heard.at) continue;
      const next: DeviceRecord = { ...record, lastSeenAt: heard.at, battery: touch.battery ?? record.battery };
      if ('emitterId' in record) next.emitterId = touch.emitterId ?? record.emitterId ?? null;
      devices.set(touch.deviceId, { record: next, latest: listed.latest });
    }
    for (const row of heard.latest) {
      const listed = devices.get(row.deviceId);
      if (!listed) continue;
      // Own keys only: a measure named `constructor` is not the object's.
      const current = Object.hasOwn(listed.latest, row.key) ? listed.latest[row.key] : undefined;
      if (current && Date.parse(current.ts) > row.ts.getTime()) continue;
      devices.set(row.deviceId, {
        record: listed.record,
        latest: { ...listed.latest, [row.key]: { value: row.value, ts: row.ts.toISOString() } },
      });
    }
  }

  function drop(organizationId: string): void {
    const list = lists.get(organizationId);
    if (!list) return;
    for (const id of list.order) organizationOf.delete(id);
    lists.delete(organizationId);
  }

  const listed = (list: CachedList): ListedDevice[] => list.order.map((id) => list.devices.get(id) as ListedDevice);

  return {
    /** The organization's devices in the order of the list, from memory or from `read`. */
    async list(organizationId: string, read: () => Promise<ListedDevice[]>): Promise<ListedDevice[]> {
      if (!trusted()) return read();
      const cached = lists.get(organizationId);
      if (cached) {
        // Most recently used last: the least used organization is the first dropped.
        lists.delete(organizationId);
        lists.set(organizationId, cached);
        return listed(cached);
      }
      const started = generation;
      const from = heardWhileReading.length;
      reading += 1;
      let devices: ListedDevice[];
      try {
        devices = await read();
      } finally {
        reading -= 1;
      }
      const stale = started !== generation;
      const list: CachedList = { order: devices.map((device) => device.record.id), devices: new Map(devices.map((d) => [d.record.id, d])) };
      for (const heard of heardWhileReading.slice(from)) apply(list.devices, heard);
      if (reading === 0) heardWhileReading.length = 0;
      if (stale) return listed(list);
      lists.set(organizationId, list);
      for (const id of list.order) organizationOf.set(id, organizationId);
      if (lists.size > maxOrganizations) drop(lists.keys().next().value as string);
      return listed(list);
    },

    /** Devices heard from at `at` (their rows and newest values are committed). */
    heard(touches: readonly DeviceTouch[], latest: readonly LatestRow[], at: Date): void {
      const heard = { touches, latest, at };
      if (reading > 0) heardWhileReading.push(heard);
      const organizations = new Set<string>();
      for (const { deviceId } of [...touches, ...latest]) {
        const organizationId = organizationOf.get(deviceId);
        if (organizationId) organizations.add(organizationId);
      }
      for (const organizationId of organizations) {
        const list = lists.get(organizationId);
        if (list) apply(list.devices, heard);
      }
    },

    /** A device of the organization was created, changed, trashed or restored. */
    forget(organizationId: string): void {
      generation += 1;
      drop(organizationId);
    },

    /** Devices were purged, in any organization. */
    clear(): void {
      generation += 1;
      lists.clear();
      organizationOf.clear();
    },
  };
}

export type DeviceListCache = ReturnType<typeof createDeviceListCache>;
