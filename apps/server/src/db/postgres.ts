import { setTimeout as delay } from 'node:timers/promises';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { isDatabaseUnavailable } from './connection-errors.ts';
import {
  type Database,
  type DatabaseHandle,
  type DatabaseOptions,
  DEFAULT_RETENTION_DAYS,
  migrationsFolder,
  pingDatabase,
} from './database.ts';
import { type PubSub, PUBSUB_CHANNEL, PUBSUB_MAX_PAYLOAD_BYTES } from './pubsub.ts';
import { partitionReadings } from './reading-partitions.ts';
import { schema } from './schema.ts';

/** Any constant shared by every Vigie instance: serializes migrations across instances. */
const MIGRATION_LOCK_KEY = 7_414_367_501;
const STARTUP_ATTEMPTS = 15;
/** A notification that names a spilled message: `spill:<id>` (bus messages are JSON arrays, `[…`). */
const SPILL_PREFIX = 'spill:';
/** Listeners read a spilled message within moments; it is kept a while for a slow one. */
const SPILL_KEEP_MINUTES = 10;

async function migrateWithLock(pool: pg.Pool, options: DatabaseOptions): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      const db = drizzle(client, { schema });
      await migrate(db, { migrationsFolder: migrationsFolder() });
      // PostgreSQL only: readings partitioned by day (the embedded database keeps its plain table).
      await partitionReadings(db as unknown as Database, {
        now: new Date(),
        retentionDays: options.retentionDays ?? DEFAULT_RETENTION_DAYS,
        logger: options.logger,
      });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

export async function openPostgres(url: string, options: DatabaseOptions): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    application_name: options.applicationName ?? 'vigie',
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
    // A query stuck behind a broken network must not hold a request forever.
    query_timeout: 30_000,
  });
  // An idle client whose connection drops emits here; without a listener it would crash the process.
  pool.on('error', (error) => {
    options.logger.warn({ err: error }, 'Connexion PostgreSQL perdue ; une nouvelle sera ouverte au besoin');
  });
  // The pool listens to its idle clients only: a client checked out between two statements (in a
  // transaction, say) whose connection drops would emit an unhandled 'error' and crash the
  // process. Its pending and next queries fail instead, and the pool discards it on release.
  pool.on('connect', (client) => {
    client.on('error', (error) => options.logger.warn({ err: error }, 'Connexion PostgreSQL perdue pendant son emploi'));
  });

  for (let attempt = 1; ; attempt += 1) {
    try {
      await migrateWithLock(pool, options);
      break;
    } catch (error) {
      if (!isDatabaseUnavailable(error) || attempt >= STARTUP_ATTEMPTS) {
        await pool.end().catch(() => undefined);
        throw error;
      }
      options.logger.warn({ attempt }, 'PostgreSQL ne répond pas encore ; nouvelle tentative dans 1 s');
      await delay(1000);
    }
  }

  const db = drizzle(pool, { schema });
  // drizzle's own pool transaction sends BEGIN before its try block: a BEGIN that meets a
  // connection which died in the pool never releases its client, and the pool shrinks for good
  // (every later request then waits for a connection). Transactions run here instead on a client
  // checked out and always released — discarded when its connection failed.
  const transaction = async (...[run, config]: Parameters<typeof db.transaction>) => {
    const client = await pool.connect();
    let failure: unknown;
    try {
      return await drizzle(client, { schema }).transaction(run, config);
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      client.release(failure instanceof Error && isDatabaseUnavailable(failure) ? failure : undefined);
    }
  };
  Object.assign(db, { transaction });
  const database = db as unknown as Database;
  const pubsub = createListenNotify(pool, url, options);
  const { hostname, port, pathname } = new URL(url);
  return {
    db: database,
    description: `PostgreSQL (${hostname}:${port || '5432'}${pathname})`,
    pubsub,
    writeConcurrency: 4,
    sharedByInstances: true,
    readingsPartitioned: true,
    ping: (timeoutMs = 2000) => pingDatabase(database, timeoutMs),
    async close() {
      await pubsub.close();
      await pool.end();
    },
  };
}

/**
 * NOTIFY through the pool; LISTEN on one dedicated connection that reconnects by itself after
 * a drop (messages sent while it is down are lost: live clients then resynchronise).
 */
function createListenNotify(pool: pg.Pool, url: string, options: DatabaseOptions): PubSub & { close(): Promise<void> } {
  const handlers = new Set<(payload: string) => void>();
  const resumed = new Set<() => void>();
  let listener: pg.Client | undefined;
  /** The listening connection has run LISTEN and has not dropped since. */
  let listening = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (delayMs: number): Promise<void> => {
    if (closed || handlers.size === 0 || listener) return;
    const client = new pg.Client({ connectionString: url, application_name: `${options.applicationName ?? 'vigie'}-listen` });
    listener = client;
    const reconnect = (error?: Error) => {
      if (listener !== client) return;
      listener = undefined;
      listening = false;
      client.removeAllListeners();
      client.on('error', () => undefined);
      void client.end().catch(() => undefined);
      if (closed) return;
      if (error) options.logger.warn({ err: error }, 'Écoute des événements PostgreSQL interrompue ; reconnexion');
      retry = setTimeout(() => void connect(Math.min(delayMs * 2, 10_000)), delayMs);
    };
    client.on('error', reconnect);
    client.on('end', () => reconnect());
    client.on('notification', (message) => {
      if (message.channel !== PUBSUB_CHANNEL || message.payload === undefined) return;
      receive(message.payload);
    });
    try {
      await client.connect();
      await client.query(`listen ${PUBSUB_CHANNEL}`);
      if (listener !== client) return;
      listening = true;
      for (const handler of resumed) handler();
    } catch (error) {
      reconnect(error as Error);
    }
  };

  /**
   * A message too large for NOTIFY is written to `pubsub_spill` and only its reference is notified;
   * listeners read it back. Rows older than a few minutes are dropped on the way.
   */
  async function spill(payload: string): Promise<string> {
    const { rows } = await pool.query<{ id: string }>(
      `with purged as (delete from pubsub_spill where created_at < now() - interval '${SPILL_KEEP_MINUTES} minutes')
       insert into pubsub_spill (payload) values ($1) returning id::text`,
      [payload],
    );
    const id = rows[0]?.id;
    if (!id) throw new Error('Message du bus non enregistré');
    return `${SPILL_PREFIX}${id}`;
  }

  async function notify(payloads: string[]): Promise<void> {
    // One statement, one transaction: PostgreSQL delivers its notifications in the order sent.
    // (A JSON array: node-postgres would escape a text[] parameter character by character.)
    await pool.query('select pg_notify($1, payload) from json_array_elements_text($2::json) as payload', [
      PUBSUB_CHANNEL,
      JSON.stringify(payloads),
    ]);
  }

  /**
   * Received messages are handed on one at a time, in the order they arrived: a spilled one is
   * read back from its table before the messages that followed it are delivered.
   */
  let inbound: Promise<void> = Promise.resolve();
  function receive(payload: string): void {
    inbound = inbound.then(async () => {
      let message: string | undefined = payload;
      if (payload.startsWith(SPILL_PREFIX)) {
        try {
          const { rows } = await pool.query<{ payload: string }>('select payload from pubsub_spill where id = $1', [
            payload.slice(SPILL_PREFIX.length),
          ]);
          message = rows[0]?.payload;
          if (message === undefined) options.logger.warn({ ref: payload }, 'Message volumineux du bus introuvable ; ignoré');
        } catch (error) {
          message = undefined;
          options.logger.warn({ err: error, ref: payload }, 'Message volumineux du bus illisible ; ignoré');
        }
      }
      if (message !== undefined) for (const handler of handlers) handler(message);
    });
  }

  return {
    preferredMaxBytes: PUBSUB_MAX_PAYLOAD_BYTES,
    async publish(payloads) {
      if (payloads.length === 0) return;
      const sendable = await Promise.all(
        payloads.map((payload) => (Buffer.byteLength(payload) > PUBSUB_MAX_PAYLOAD_BYTES ? spill(payload) : payload)),
      );
      try {
        await notify(sendable);
      } catch (error) {
        if (sendable.length === 1) throw error;
        // One message the database refused must not take the others with it: each is sent alone.
        let failure: unknown;
        for (const payload of sendable) await notify([payload]).catch((single: unknown) => (failure = single));
        if (failure) throw failure;
      }
    },
    subscribe(handler) {
      handlers.add(handler);
      void connect(500);
      return () => handlers.delete(handler);
    },
    live: () => listening,
    onResumed(handler) {
      resumed.add(handler);
      return () => resumed.delete(handler);
    },
    async close() {
      closed = true;
      listening = false;
      clearTimeout(retry);
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => undefined);
    },
  };
}
