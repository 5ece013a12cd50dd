import type { Query, QueryClient, QueryKey } from '@tanstack/react-query';
import type { DeviceEvent, ReadingEvent } from '@vigie/contract';
import { deviceKeys, type Device, type DeviceKind } from './device-kinds';
import type { SseMessage } from '@/lib/sse-parser';

// Light shape checks rather than the contract's zod schemas: zod stays out of the dashboard's bundle.
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isKind = (value: unknown): value is DeviceKind => value === 'emitter' || value === 'sensor';

function isReadingEvent(data: unknown): data is ReadingEvent {
  return (
    isObject(data) &&
    typeof data['deviceId'] === 'string' &&
    isKind(data['kind']) &&
    typeof data['lastSeenAt'] === 'string' &&
    isObject(data['values']) &&
    Object.values(data['values']).every((value) => isObject(value) && typeof value['value'] === 'number' && typeof value['ts'] === 'string')
  );
}

function isDeviceEvent(data: unknown): data is DeviceEvent {
  if (!isObject(data) || !isKind(data['kind'])) return false;
  if (data['action'] === 'deleted') return typeof data['deviceId'] === 'string';
  const device = data['device'];
  return (
    (data['action'] === 'created' || data['action'] === 'updated' || data['action'] === 'status') &&
    isObject(device) &&
    typeof device['id'] === 'string' &&
    isObject(device['latest'])
  );
}

type Latest = Device['latest'];

/** `base` with each value of `incoming` that is not older than its own (a tie goes to `incoming`). */
function mergeLatest(base: Latest, incoming: Latest): Latest {
  const latest = { ...base };
  for (const [key, value] of Object.entries(incoming)) {
    const current = latest[key];
    if (!current || Date.parse(current.ts) <= Date.parse(value.ts)) latest[key] = value;
  }
  return latest;
}

/** The later of two instants (a tie, or no `base`, goes to `incoming`). */
function laterOf(base: string | null, incoming: string | null): string | null {
  return base && (!incoming || Date.parse(incoming) < Date.parse(base)) ? base : incoming;
}

/** A device with a reading applied: newer values win, older ones never overwrite. */
export function withReading(device: Device, reading: ReadingEvent): Device {
  return {
    ...device,
    latest: mergeLatest(device.latest, reading.values),
    lastSeenAt: laterOf(device.lastSeenAt, reading.lastSeenAt),
    battery: reading.battery ?? device.battery,
    status: 'online',
  };
}

/** `device` from an event, with any value of `current` that is newer than its own. */
function keepNewerValues(device: Device, current: Device): Device {
  return { ...device, latest: mergeLatest(current.latest, device.latest), lastSeenAt: laterOf(current.lastSeenAt, device.lastSeenAt) };
}

/** Replaces the device of the same id, or appends it when the list does not have it yet. */
export function upsert(list: Device[], device: Device): Device[] {
  const index = list.findIndex((item) => item.id === device.id);
  if (index === -1) return [...list, device];
  const next = list.slice();
  next[index] = keepNewerValues(device, list[index] as Device);
  return next;
}

function listKey(kind: DeviceKind, owner: string) {
  return deviceKeys.list(kind, owner);
}

type ListUpdate = (list: Device[]) => Device[];

/** Updates waiting for the list fetch that was in flight when their event arrived. */
const waitingForFetch = new WeakMap<Query, ListUpdate[]>();

/**
 * Applies `update` to a cached list. A fetch of that list already in flight answers with what
 * the server had before the event, and its answer would wipe the event out (a device created
 * while the tab loads would stay missing until the next reload). So the update is applied
 * again to whatever that fetch brings back. Every update is idempotent (newer values win, a
 * created device is added once, a deleted one removed), so applying it twice is harmless.
 */
function updateList(queryClient: QueryClient, queryKey: QueryKey, update: ListUpdate): void {
  queryClient.setQueryData<Device[]>(queryKey, (list) => list && update(list));
  const cache = queryClient.getQueryCache();
  const query = cache.find({ queryKey, exact: true });
  if (!query || query.state.fetchStatus === 'idle') return;

  const queued = waitingForFetch.get(query);
  if (queued) {
    queued.push(update);
    return;
  }
  const updates = [update];
  waitingForFetch.set(query, updates);
  const unsubscribe = cache.subscribe((event) => {
    if (event.query !== query) return;
    const settled =
      event.type === 'removed' ||
      (event.type === 'updated' &&
        ((event.action.type === 'success' && !event.action.manual) ||
          event.action.type === 'error' ||
          (event.action.type === 'setState' && query.state.fetchStatus === 'idle')));
    if (!settled) return;
    unsubscribe();
    waitingForFetch.delete(query);
    if (event.type === 'removed') return;
    queryClient.setQueryData<Device[]>(queryKey, (list) => list && updates.reduce((current, apply) => apply(current), list));
  });
}

/** Readings waiting to be applied, by kind then device, in their order of arrival. */
type PendingReadings = Map<DeviceKind, Map<string, ReadingEvent[]>>;

/** One pass over each cached list for all the readings of `pending`, then each detail once. */
function applyReadings(queryClient: QueryClient, owner: string, pending: PendingReadings): void {
  for (const [kind, byDevice] of pending) {
    const apply = (device: Device): Device => byDevice.get(device.id)?.reduce(withReading, device) ?? device;
    updateList(queryClient, listKey(kind, owner), (list) => list.map(apply));
    for (const [deviceId, readings] of byDevice) {
      queryClient.setQueryData<Device>(
        deviceKeys.detail(kind, owner, deviceId),
        (device) => device && readings.reduce(withReading, device),
      );
    }
  }
  pending.clear();
}

function applyDeviceEvent(queryClient: QueryClient, owner: string, event: DeviceEvent): void {
  if (event.action === 'deleted') {
    updateList(queryClient, listKey(event.kind, owner), (list) => list.filter((device) => device.id !== event.deviceId));
    queryClient.removeQueries({ queryKey: deviceKeys.detail(event.kind, owner, event.deviceId), exact: true });
    // It went to the trash: an open Corbeille shows it.
    void queryClient.invalidateQueries({ queryKey: deviceKeys.trash(owner) });
    return;
  }
  // Restored elsewhere (a device comes back with a `created` event): it leaves the trash.
  if (event.action === 'created') void queryClient.invalidateQueries({ queryKey: deviceKeys.trash(owner) });
  const device: Device = event.device;
  // Created, updated or a status change: an update of a device the list missed adds it too.
  updateList(queryClient, listKey(event.kind, owner), (list) => upsert(list, device));
  queryClient.setQueryData<Device>(
    deviceKeys.detail(event.kind, owner, device.id),
    (current) => current && keepNewerValues(device, current),
  );
}

/**
 * Applies events of endpoints.stream.open, in their order, to the cached lists and details of
 * `owner`, so the screens change without a reload. Unknown or malformed events are ignored.
 *
 * Consecutive readings are applied together: a fleet of 10 000 sensors sending a thousand
 * readings a second costs one pass over the list per batch, not one per reading.
 */
export function applyLiveEvents(queryClient: QueryClient, owner: string, messages: readonly SseMessage[]): void {
  const pending: PendingReadings = new Map();
  for (const message of messages) {
    if (message.event === 'resync') {
      pending.clear();
      void queryClient.invalidateQueries({ queryKey: deviceKeys.all });
      continue;
    }
    if (message.event !== 'reading' && message.event !== 'device') continue;
    let data: unknown;
    try {
      data = JSON.parse(message.data);
    } catch {
      continue;
    }
    if (message.event === 'reading') {
      if (!isReadingEvent(data)) continue;
      const reading = data;
      let byDevice = pending.get(reading.kind);
      if (!byDevice) pending.set(reading.kind, (byDevice = new Map()));
      const readings = byDevice.get(reading.deviceId);
      if (readings) readings.push(reading);
      else byDevice.set(reading.deviceId, [reading]);
      for (const listener of readingListeners) listener(reading);
      continue;
    }
    if (!isDeviceEvent(data)) continue;
    // A device event applies after the readings that came before it.
    applyReadings(queryClient, owner, pending);
    applyDeviceEvent(queryClient, owner, data);
  }
  applyReadings(queryClient, owner, pending);
}

/** Applies one event of endpoints.stream.open (see `applyLiveEvents`). */
export function applyLiveEvent(queryClient: QueryClient, owner: string, message: SseMessage): void {
  applyLiveEvents(queryClient, owner, [message]);
}

type ReadingListener = (reading: ReadingEvent) => void;
const readingListeners = new Set<ReadingListener>();

/** Lets a chart follow the readings of the stream; returns the unsubscribe function. */
export function onLiveReading(listener: ReadingListener): () => void {
  readingListeners.add(listener);
  return () => readingListeners.delete(listener);
}
