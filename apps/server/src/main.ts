import closeWithGrace from 'close-with-grace';
import { loadConfigOrExit } from './config.ts';
import { DataDirLockedError } from './db/data-dir-lock.ts';
import { createLogger } from './logger.ts';
import { createServer, PortInUseError, startServer, StartupInterrupted } from './server.ts';

function fail(message: string): never {
  console.error(`\n${message}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(config);

  let app;
  try {
    app = await createServer(config, logger);
  } catch (error) {
    if (error instanceof DataDirLockedError) fail(error.message);
    logger.fatal({ err: error }, 'Démarrage impossible');
    fail(`Démarrage impossible : ${error instanceof Error ? error.message : String(error)}`);
  }

  // SIGTERM/SIGINT: stop accepting, let in-flight requests finish, then close the database.
  closeWithGrace({ delay: 10_000, logger }, async ({ signal, err }) => {
    if (err) logger.error({ err }, 'Arrêt après une erreur non gérée');
    else logger.info({ signal }, 'Arrêt demandé');
    await app.close();
  });

  try {
    const { address, mqtt } = await startServer(app, config, logger);
    logger.info(`Vigie est prêt sur ${address.replace('0.0.0.0', 'localhost')}${mqtt ? ` (MQTT sur le port ${mqtt.port})` : ''}`);
  } catch (error) {
    // A signal during start-up: close-with-grace is already closing the app.
    if (error instanceof StartupInterrupted) return;
    await app.close();
    if (error instanceof PortInUseError) fail(error.message);
    logger.fatal({ err: error }, 'Démarrage impossible');
    fail(`Démarrage impossible : ${error instanceof Error ? error.message : String(error)}`);
  }
}

await main();
