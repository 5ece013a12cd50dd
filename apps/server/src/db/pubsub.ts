import { EventEmitter } from 'node:events';

/**
 * A broadcast channel between server instances sharing one database. On PostgreSQL it is
 * LISTEN/NOTIFY (every instance hears every message, its own included); on the embedded
 * database there is only one instance, so it stays in process.
 */
export interface PubSub {
  /** Sends the payloads in this order, in one message to the database where it can. */
  publish(payloads: string[]): Promise<void>;
  subscribe(handler: (payload: string) => void): () => void;
  /**
   * Whether this instance hears every message now. While it does not (PostgreSQL's listening
   * connection dropped), what other instances announce may be missed: memory must not be trusted.
   */
  live(): boolean;
  /** Called each time this instance starts hearing again: what was announced meanwhile is lost. */
  onResumed(handler: () => void): () => void;
  /**
   * Bytes (UTF-8) a message travels best within: publishers group small events up to it. A larger
   * message is still delivered, by a slower path (PostgreSQL: through a table).
   */
  readonly preferredMaxBytes: number;
}

export const PUBSUB_CHANNEL = 'vigie_events';
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more (bytes, not characters). */
export const PUBSUB_MAX_PAYLOAD_BYTES = 7800;

export function createLocalPubSub(): PubSub & { close(): void } {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    async publish(payloads) {
      // Asynchronous like NOTIFY: subscribers never run inside the publisher's call stack.
      setImmediate(() => {
        for (const payload of payloads) emitter.emit('message', payload);
      });
    },
    subscribe(handler) {
      emitter.on('message', handler);
      return () => emitter.off('message', handler);
    },
    live: () => true,
    onResumed: () => () => undefined,
    // In process nothing limits a message; events are grouped as on PostgreSQL all the same.
    preferredMaxBytes: PUBSUB_MAX_PAYLOAD_BYTES,
    close() {
      emitter.removeAllListeners();
    },
  };
}
