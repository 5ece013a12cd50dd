import { randomBytes } from 'node:crypto';
import type { PubSub } from '../../db/pubsub.ts';
import { BROWSER_EVENT_TYPES, type LiveEventPayload, liveEventSchema } from './live-event.ts';

/** A payload of the bus: a type and the data that type carries. */
export interface EventPayload {
  type: string;
  data: unknown;
}

/** A payload stamped for delivery: unique across instances; a reconnecting client sends the id back as Last-Event-ID. */
export type Stamped<P extends EventPayload> = P & { id: string; organizationId: string };

/** The bus, typed by the union of its payloads (`LiveEventPayload` in the server). */
export interface EventHub<P extends EventPayload = LiveEventPayload> {
  /** Broadcasts to every instance; never throws (a live view is best effort, storage is not). */
  publish(events: (P & { organizationId: string })[]): void;
  /**
   * Broadcasts, and resolves once this instance has heard the events back from the bus: by then
   * the database has sent them to every instance listening. Resolves after `timeoutMs` anyway.
   */
  publishHeard(events: (P & { organizationId: string })[], timeoutMs?: number): Promise<void>;
  subscribe(organizationId: string, listener: (event: Stamped<P>) => void): () => void;
  /** Every event of every organization: for the server's own components, never for a browser. */
  subscribeAll(listener: (event: Stamped<P>) => void): () => void;
  /** The organization's events after `lastEventId`, or null when that id is no longer known. */
  since(organizationId: string, lastEventId: string): Stamped<P>[] | null;
  /**
   * The organization's events delivered in the last `windowMs`, or null when some of them
   * have already left the replay buffer.
   */
  recent(organizationId: string, windowMs: number): Stamped<P>[] | null;
  /**
   * The newest event of the organization this instance delivered: read before an answer is
   * built, it is where a stream must resume for that answer to miss nothing (see stream.ts).
   */
  lastId(organizationId: string): string | null;
  close(): void;
}

export interface EventHubOptions<P extends EventPayload> {
  /** Checks an event received from another instance; an unreadable one is dropped. */
  parse: (value: unknown) => Stamped<P> | null;
  /** The types browsers receive (and that the replay buffer keeps). */
  browserTypes: ReadonlySet<string>;
  /** The clock of the replay buffer's window, in milliseconds (tests hold it); the system's by default. */
  clock?: () => number;
}

/** The server's bus: the live events of the contract, plus the internal ones. */
export function createLiveEventHub(pubsub: PubSub, log: { warn(obj: object, msg: string): void }, clock?: () => number): EventHub {
  return createEventHub<LiveEventPayload>(pubsub, log, {
    ...(clock ? { clock } : {}),
    parse: (value) => {
      const parsed = liveEventSchema.safeParse(value);
      return parsed.success ? parsed.data : null;
    },
    browserTypes: BROWSER_EVENT_TYPES,
  });
}

const REPLAY_BUFFER = 500;

export function createEventHub<P extends EventPayload>(
  pubsub: PubSub,
  log: { warn(obj: object, msg: string): void },
  options: EventHubOptions<P>,
): EventHub<P> {
  type Event = Stamped<P>;
  const instance = randomBytes(4).toString('hex');
  let sequence = 0;
  const listeners = new Map<string, Set<(event: Event) => void>>();
  const global = new Set<(event: Event) => void>();
  /** Per organization, its last events for replay, with the time this instance received each. */
  const buffers = new Map<string, { event: Event; at: number }[]>();
  const clock = options.clock ?? Date.now;

  /** Events published by `publishHeard`, until this instance hears them back. */
  const awaited = new Map<string, () => void>();

  const deliver = (event: Event) => {
    for (const listener of global) listener(event);
    awaited.get(event.id)?.();
    if (!options.browserTypes.has(event.type)) return;
    let buffer = buffers.get(event.organizationId);
    if (!buffer) buffers.set(event.organizationId, (buffer = []));
    buffer.push({ event, at: clock() });
    if (buffer.length > REPLAY_BUFFER) buffer.splice(0, buffer.length - REPLAY_BUFFER);
    for (const listener of listeners.get(event.organizationId) ?? []) listener(event);
  };

  /** Stamped events waiting for the bus, and whether a publication is on its way. */
  const outbox: Event[] = [];
  let sending = false;

  /**
   * The outbox as bus messages: events grouped, in order, up to the bus's preferred size in bytes
   * (what PostgreSQL counts, not characters). An event larger than that alone travels by itself,
   * never dropped: the bus delivers it by its slower path.
   */
  function payloads(events: Event[]): string[] {
    const limit = pubsub.preferredMaxBytes;
    const chunks: string[] = [];
    let current: string[] = [];
    let size = 2;
    for (const event of events) {
      const json = JSON.stringify(event);
      const bytes = Buffer.byteLength(json);
      if (current.length > 0 && size + bytes + 1 > limit) {
        chunks.push(`[${current.join(',')}]`);
        current = [];
        size = 2;
      }
      current.push(json);
      size += bytes + 1;
    }
    if (current.length > 0) chunks.push(`[${current.join(',')}]`);
    return chunks;
  }

  /**
   * One publication at a time, in order: what is published meanwhile leaves with the next one,
   * so a busy instance sends a few full NOTIFY payloads in one statement instead of one
   * statement per event (the group commit of the bus).
   */
  async function drain(): Promise<void> {
    try {
      while (outbox.length > 0) {
        try {
          await pubsub.publish(payloads(outbox.splice(0)));
        } catch (error) {
          log.warn({ err: error }, "Diffusion d'un événement impossible");
        }
      }
    } finally {
      sending = false;
    }
  }

  function send(events: (P & { organizationId: string })[]): string[] {
    if (events.length === 0) return [];
    const stamped = events.map((event) => ({ ...event, id: `${Date.now().toString(36)}-${instance}-${(sequence += 1).toString(36)}` }));
    for (const event of stamped) outbox.push(event);
    if (!sending) {
      sending = true;
      void drain();
    }
    return stamped.map((event) => event.id);
  }

  const unsubscribe = pubsub.subscribe((payload) => {
    try {
      const received: unknown = JSON.parse(payload);
      for (const value of Array.isArray(received) ? received : []) {
        const event = options.parse(value);
        if (event) deliver(event);
        else log.warn({}, 'Événement illisible ignoré');
      }
    } catch (error) {
      log.warn({ err: error }, 'Événement illisible ignoré');
    }
  });

  return {
    publish(events) {
      send(events);
    },
    async publishHeard(events, timeoutMs = 2000) {
      const ids = send(events);
      // An instance that does not hear the bus now would only wait for nothing.
      if (!pubsub.live()) return;
      await Promise.all(
        ids.map(
          (id) =>
            new Promise<void>((resolve) => {
              const done = () => {
                clearTimeout(timer);
                awaited.delete(id);
                resolve();
              };
              const timer = setTimeout(done, timeoutMs);
              awaited.set(id, done);
            }),
        ),
      );
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
    lastId(organizationId) {
      return buffers.get(organizationId)?.at(-1)?.event.id ?? null;
    },
    recent(organizationId, windowMs) {
      const buffer = buffers.get(organizationId) ?? [];
      const from = clock() - windowMs;
      const first = buffer[0];
      if (buffer.length >= REPLAY_BUFFER && first && first.at >= from) return null;
      return buffer.filter((entry) => entry.at >= from).map((entry) => entry.event);
    },
    close() {
      unsubscribe();
      outbox.length = 0;
      listeners.clear();
      global.clear();
      buffers.clear();
    },
  };
}
