import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type SQL, sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { DatabaseUnavailableError } from './connection-errors.ts';
import type { PubSub } from './pubsub.ts';
import type { Schema } from './schema.ts';

/** The one database type the rest of the server knows: no code outside src/db knows the driver. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

/**
 * A transaction under way: what one module lends another's DAL so that both write in it (an
 * accepted invitation and the account it creates commit together).
 */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/** The rows a raw statement answered, whichever driver ran it. */
export async function rowsOf<T>(db: Database, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  const found = typeof result === 'object' && result !== null && 'rows' in result ? result.rows : undefined;
  return Array.isArray(found) ? (found as T[]) : [];
}

export interface DatabaseHandle {
  readonly db: Database;
  /** Human-readable description for logs, e.g. "PGlite (./data/pglite)". */
  readonly description: string;
  /** How many write transactions are worth running at once (PGlite runs one at a time). */
  readonly writeConcurrency: number;
  /** Whether other server instances may use this database at the same time (PostgreSQL). */
  readonly sharedByInstances: boolean;
  /** Whether readings are partitioned by month (PostgreSQL), or one plain table (the embedded database). */
  readonly readingsPartitioned: boolean;
  /** Broadcast between the server instances that share this database. */
  readonly pubsub: PubSub;
  /** Resolves when the database answers a trivial query within the timeout. */
  ping(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface DatabaseOptions {
  databaseUrl: string | undefined;
  dataDir: string;
  /** Name shown in pg_stat_activity, so operators can find the server's connections. */
  applicationName?: string;
  logger: DatabaseLogger;
  /** Days readings are kept (RETENTION_DAYS): PostgreSQL prepares the month partitions they need. */
  retentionDays?: number;
  /** Embedded database in memory instead of DATA_DIR: for tests that need no persistence. */
  inMemory?: boolean;
  /**
   * A migrated embedded database saved as a file (`writeMemoryTemplate`): a new embedded database
   * (in memory, or a DATA_DIR without one yet) starts from it instead of being created, four times
   * faster (PGLITE_TEMPLATE). For the test suites, which open many; the migrations still run, and
   * find what the file lacks. An existing database is never touched by it.
   */
  memoryTemplate?: string;
}

/** RETENTION_DAYS when a caller opens the database without the configuration's value. */
export const DEFAULT_RETENTION_DAYS = 400;

/** The versioned SQL migrations, found from wherever this module runs (source or bundle). */
export function migrationsFolder(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i += 1) {
    const candidate = path.join(dir, 'drizzle');
    if (fs.existsSync(path.join(candidate, 'meta', '_journal.json'))) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error('Dossier des migrations introuvable (apps/server/drizzle).');
}

export async function pingDatabase(db: Database, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DatabaseUnavailableError('ping timeout')), timeoutMs);
  });
  try {
    await Promise.race([db.execute(sql`select 1`), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Opens PostgreSQL when a URL is configured, the embedded PGlite database otherwise, and migrates it. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const { openPostgres } = await import('./postgres.ts');
    return openPostgres(options.databaseUrl, options);
  }
  const { openPglite } = await import('./pglite.ts');
  return openPglite(options.inMemory ? undefined : options.dataDir, options);
}
