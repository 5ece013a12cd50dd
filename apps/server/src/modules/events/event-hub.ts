import { randomBytes } from 'node:crypto';
import { PUBSUB_MAX_PAYLOAD, type PubSub } from '../../db/pubsub.ts';

/**
 * `revoked` and `restored` are internal (a device token ended, or a device came back from the
 * trash, on any instance); browsers never see them.
 */
export type LiveEventType = 'reading' | 'device' | 'alert' | 'revoked' | 'restored';
export const BROWSER_EVENT_TYPES: ReadonlySet<LiveEventType> = new Set(['reading', 'device', 'alert']);

export interface LiveEvent {
  /** Unique across instances; a reconnecting client sends it back as Last-Event-ID. */
  id: string;
  organizationId: string;
  type: LiveEventType;
  data: unknown;
}

export interface EventHub {
  /** Broadcasts to every instance; never throws (a live view is best effort, storage is not). */
  publish(events: Omit<LiveEvent, 'id'>[]): void;
  subscribe(organizationId: string, listener: (event: LiveEvent) => void): () => void;
  /** Every event of every organization: for the server's own components, never for a browser. */
  subscribeAll(listener: (event: LiveEvent) => void): () => void;
  /** The organization's events after `lastEventId`, or null when that id is no longer known. */
  since(organizationId: string, lastEventId: string): LiveEvent[] | null;
  /**
   * The organization's events delivered in the last `windowMs`, or null when some of them
   * have already left the replay buffer.
   */
  recent(organizationId: string, windowMs: number): LiveEvent[] | null;
  close(): void;
}

const REPLAY_BUFFER = 500;

export function createEventHub(pubsub: PubSub, log: { warn(obj: object, msg: string): void }): EventHub {
  const instance = randomBytes(4).toString('hex');
  let sequence = 0;
  const listeners = new Map<string, Set<(event: LiveEvent) => void>>();
  const global = new Set<(event: LiveEvent) => void>();
  /** Per organization, its last events for replay, with the time this instance received each. */
  const buffers = new Map<string, { event: LiveEvent; at: number }[]>();

  const deliver = (event: LiveEvent) => {
    for (const listener of global) listener(event);
    if (!BROWSER_EVENT_TYPES.has(event.type)) return;
    let buffer = buffers.get(event.organizationId);
    if (!buffer) buffers.set(event.organizationId, (buffer = []));
    buffer.push({ event, at: Date.now() });
    if (buffer.length > REPLAY_BUFFER) buffer.splice(0, buffer.length - REPLAY_BUFFER);
    for (const listener of listeners.get(event.organizationId) ?? []) listener(event);
  };

  const unsubscribe = pubsub.subscribe((payload) => {
    try {
      for (const event of JSON.parse(payload) as LiveEvent[]) deliver(event);
    } catch (error) {
      log.warn({ err: error }, 'Événement illisible ignoré');
    }
  });

  return {
    publish(events) {
      if (events.length === 0) return;
      const stamped = events.map((event) => ({ ...event, id: `${Date.now().toString(36)}-${instance}-${(sequence += 1).toString(36)}` }));
      // Several NOTIFY messages when one would exceed PostgreSQL's payload limit.
      const chunks: string[] = [];
      let current: string[] = [];
      let size = 2;
      for (const event of stamped) {
        const json = JSON.stringify(event);
        if (json.length + 2 > PUBSUB_MAX_PAYLOAD) {
          log.warn({ type: event.type }, 'Événement trop volumineux pour la diffusion, ignoré');
          continue;
        }
        if (size + json.length + 1 > PUBSUB_MAX_PAYLOAD) {
          chunks.push(`[${current.join(',')}]`);
          current = [];
          size = 2;
        }
        current.push(json);
        size += json.length + 1;
      }
      if (current.length > 0) chunks.push(`[${current.join(',')}]`);
      for (const chunk of chunks) {
        pubsub.publish(chunk).catch((error: unknown) => log.warn({ err: error }, "Diffusion d'un événement impossible"));
      }
    },
    subscribe(organizationId, listener) {
      let set = listeners.get(organizationId);
      if (!set) listeners.set(organizationId, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(organizationId);
      };
    },
    subscribeAll(listener) {
      global.add(listener);
      return () => global.delete(listener);
    },
    since(organizationId, lastEventId) {
      const buffer = buffers.get(organizationId) ?? [];
      const index = buffer.findIndex((entry) => entry.event.id === lastEventId);
      return index === -1 ? null : buffer.slice(index + 1).map((entry) => entry.event);
    },
    recent(organizationId, windowMs) {
      const buffer = buffers.get(organizationId) ?? [];
      const from = Date.now() - windowMs;
      const first = buffer[0];
      if (buffer.length >= REPLAY_BUFFER && first && first.at >= from) return null;
      return buffer.filter((entry) => entry.at >= from).map((entry) => entry.event);
    },
    close() {
      unsubscribe();
      listeners.clear();
      global.clear();
      buffers.clear();
    },
  };
}
