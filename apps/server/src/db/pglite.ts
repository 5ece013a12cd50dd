import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { acquireDataDirLock } from './data-dir-lock.ts';
import { type Database, type DatabaseHandle, type DatabaseOptions, migrationsFolder, pingDatabase } from './database.ts';
import { createLocalPubSub } from './pubsub.ts';
import { schema } from './schema.ts';

/** The longest the embedded database may run queries back to back before the event loop turns. */
export const PGLITE_TURN_MS = 10;

/**
 * PGlite runs in this thread and answers each query through promises only: a loop of queries (a
 * storm of alerts planned one by one) is one chain of microtasks, and the event loop does not turn
 * until it ends — no request is read, no timer fires, for seconds. Every message to the database
 * ends with a turn of the event loop once `turnMs` have passed since the last one, so that other
 * work (a health check, a request) waits at most that long behind the database.
 */
export function yieldingToEventLoop(client: PGlite, turnMs = PGLITE_TURN_MS): void {
  const execProtocolStream = client.execProtocolStream.bind(client);
  let lastTurn = performance.now();
  client.execProtocolStream = async (...args: Parameters<PGlite['execProtocolStream']>) => {
    const result = await execProtocolStream(...args);
    if (performance.now() - lastTurn >= turnMs) {
      await nextTurn();
      lastTurn = performance.now();
    }
    return result;
  };
}

/** Opens PGlite persisted under dataDir (locked for this process), or in memory when dataDir is undefined. */
export async function openPglite(dataDir: string | undefined, options: Pick<DatabaseOptions, 'memoryTemplate'>): Promise<DatabaseHandle> {
  const lock = dataDir ? acquireDataDirLock(dataDir) : { release() {} };
  const directory = dataDir ? path.join(dataDir, 'pglite') : undefined;
  let client: PGlite | undefined;
  try {
    // A database created now (in memory, or a data folder without one yet) starts from the template
    // when there is one; an existing one is opened as it is.
    const fresh = directory === undefined || !fs.existsSync(path.join(directory, 'PG_VERSION'));
    client = fresh && options.memoryTemplate ? await createFromTemplate(directory, options.memoryTemplate) : await PGlite.create(directory);
    yieldingToEventLoop(client);
    const db = drizzle(client, { schema });
    await migrate(db, { migrationsFolder: migrationsFolder() });
    const opened = client;
    const pubsub = createLocalPubSub();
    return {
      pubsub,
      writeConcurrency: 1,
      sharedByInstances: false,
      readingsPartitioned: false,
      db: db as unknown as Database,
      description: `PGlite (${directory ?? 'en mémoire'})`,
      ping: (timeoutMs = 2000) => pingDatabase(db as unknown as Database, timeoutMs),
      async close() {
        pubsub.close();
        try {
          await opened.close();
        } finally {
          lock.release();
        }
      },
    };
  } catch (error) {
    await client?.close().catch(() => undefined);
    lock.release();
    throw error;
  }
}

/**
 * A new database loaded from a migrated template (`writeMemoryTemplate`) rather than created and
 * migrated from nothing, which is most of a first start. A template that cannot be read (another
 * PGlite version, a damaged file) is set aside: the database is then created as without one.
 */
async function createFromTemplate(directory: string | undefined, template: string): Promise<PGlite> {
  let archive: Blob;
  try {
    archive = new Blob([fs.readFileSync(template)]);
  } catch {
    return PGlite.create(directory);
  }
  try {
    return await PGlite.create(directory, { loadDataDir: archive });
  } catch {
    if (directory) fs.rmSync(directory, { recursive: true, force: true });
    return PGlite.create(directory);
  }
}

/**
 * Creates and migrates an embedded database in memory and saves it to `file` (written aside, then
 * renamed, so that a reader never sees half of it): the template of `memoryTemplate`.
 */
export async function writeMemoryTemplate(file: string): Promise<void> {
  const client = await PGlite.create();
  try {
    await migrate(drizzle(client, { schema }), { migrationsFolder: migrationsFolder() });
    const dump = await client.dumpDataDir('none');
    const partial = `${file}.${process.pid}.partial`;
    fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(partial, file);
  } finally {
    await client.close();
  }
}
