import { type Config, loadConfigOrExit } from '../config.ts';
import { DataDirLockedError } from '../db/data-dir-lock.ts';
import { openDatabase, type DatabaseHandle } from '../db/database.ts';
import { createLogger } from '../logger.ts';

/** Ends a command with its French message on standard error. */
export function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** The database of this configuration, for a command; a data folder held by a running server ends it with the lock's message. */
export async function openCliDatabase(config: Config = loadConfigOrExit()): Promise<DatabaseHandle> {
  const logger = createLogger({ logLevel: 'warn' });
  try {
    return await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, retentionDays: config.retentionDays, logger });
  } catch (error) {
    if (error instanceof DataDirLockedError) fail(error.message);
    throw error;
  }
}
