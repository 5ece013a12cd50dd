import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { acquireDataDirLock } from './data-dir-lock.ts';
import { type Database, type DatabaseHandle, type DatabaseOptions, migrationsFolder, pingDatabase } from './database.ts';
import { createLocalPubSub } from './pubsub.ts';
import { schema } from './schema.ts';

/** Opens PGlite persisted under dataDir (locked for this process), or in memory when dataDir is undefined. */
export async function openPglite(dataDir: string | undefined, _options: DatabaseOptions): Promise<DatabaseHandle> {
  const lock = dataDir ? acquireDataDirLock(dataDir) : { release() {} };
  const directory = dataDir ? path.join(dataDir, 'pglite') : undefined;
  let client: PGlite | undefined;
  try {
    client = await PGlite.create(directory);
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
