import { type Config, loadConfigOrExit } from '../config.ts';
import { DataDirLockedError } from '../db/data-dir-lock.ts';
import { openDatabase, type DatabaseHandle } from '../db/database.ts';
import { createLogger } from '../logger.ts';

/** Ends a command with its French message on standard error. */
export function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/**
 * What a command says when a server holds the embedded database but did not answer on its local
 * channel: the commands work with the server running (through that channel) or stopped (on the
 * database itself), so it says both ways out, not only « stop it ».
 */
export function heldByServerMessage(error: DataDirLockedError): string {
  return (
    `Un serveur Vigie (PID ${error.ownerPid}) utilise le dossier de données «\u202f${error.dataDir}\u202f» sans répondre sur son canal d’administration local (voir ses journaux). ` +
    'Cette commande marche serveur lancé comme serveur arrêté\u202f: redémarrez le serveur pour qu’elle passe par lui, ou arrêtez-le, puis relancez-la.'
  );
}

/** The database of this configuration, for a command; a data folder held by a running server that did not answer ends it with a French message. */
export async function openCliDatabase(config: Config = loadConfigOrExit()): Promise<DatabaseHandle> {
  const logger = createLogger({ logLevel: 'warn' });
  try {
    return await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      retentionDays: config.retentionDays,
      ...(config.pgliteTemplate ? { memoryTemplate: config.pgliteTemplate } : {}),
      logger,
    });
  } catch (error) {
    if (error instanceof DataDirLockedError) fail(heldByServerMessage(error));
    throw error;
  }
}
