import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { openDatabase } from './db/database.ts';
import { startJobs } from './jobs/start-jobs.ts';
import { resolveJwtSecret } from './modules/auth/jwt-secret.ts';
import { type AdminSocket, startAdminSocket } from './adapters/admin-socket/admin-socket.ts';
import { connectExternalBroker } from './adapters/mqtt/external-broker.ts';
import { type MqttBroker, startMqttBroker } from './adapters/mqtt/mqtt-broker.ts';
import { DEMO_ACCOUNT, seedDemo } from './seed.ts';
import { startDemoShop } from './simulator/demo-shop.ts';

export class PortInUseError extends Error {
  constructor(
    readonly port: number,
    readonly variable: 'PORT' | 'MQTT_PORT',
  ) {
    super(`Le port ${port} est déjà utilisé. Libérez-le ou choisissez-en un autre avec la variable ${variable}.`);
  }
}

/** Opens the database, seeds it when asked, and builds the app; closing the app closes everything. */
export async function createServer(config: Config, logger: Logger): Promise<FastifyInstance> {
  const jwtSecret = resolveJwtSecret(config.jwtSecret, config.dataDir);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    retentionDays: config.retentionDays,
    logger,
  });
  let app: FastifyInstance;
  try {
    app = await buildApp({ config, database, jwtSecret, logger });
  } catch (error) {
    await database.close();
    throw error;
  }
  app.addHook('onClose', async () => {
    await database.close();
  });
  app.log.info({ database: database.description }, 'Base de données prête');
  if (config.seedDemo && (await seedDemo(app.services))) {
    app.log.info('Compte de démonstration créé, avec l’historique du mois');
  }
  if (config.seedDemo) {
    app.log.info(`Compte de démonstration : ${DEMO_ACCOUNT.email} / ${DEMO_ACCOUNT.password}`);
  }
  return app;
}

/**
 * Listens for HTTP and MQTT and starts the periodic jobs; `mqtt` is null when its default port was busy.
 * On the embedded database, which only this process can open, the command-line tools reach the
 * server through a Unix socket in DATA_DIR (decision 0015).
 */
export async function startServer(
  app: FastifyInstance,
  config: Config,
  logger: Logger,
): Promise<{ address: string; mqtt: MqttBroker | null }> {
  let broker: MqttBroker | null = null;
  let adminSocket: AdminSocket | null = null;
  let stopJobs = () => {};
  let stopRevocations = () => {};
  let stopDemo = () => {};
  // Before the HTTP server stops: no more MQTT readings, then the writer drains (onClose).
  app.addHook('preClose', async () => {
    stopJobs();
    stopDemo();
    stopRevocations();
    await broker?.close();
    await adminSocket?.close();
  });
  // Before HTTP: once the server answers, `npm run user:create` can already use it.
  if (!config.databaseUrl)
    adminSocket = await startAdminSocket({
      dataDir: config.dataDir,
      users: app.services.users,
      importDevices: (devices) => app.services.claiming.importBatch(devices),
      logger,
    });
  // An external broker first: a token issued by the first requests must already reach it.
  const external = config.mqttBroker
    ? await connectExternalBroker({
        ...config.mqttBroker,
        credentials: app.services.credentials,
        telemetry: app.services.telemetry,
        logger,
      })
    : null;
  broker = external;
  let address: string;
  try {
    address = await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new PortInUseError(config.port, 'PORT');
    throw error;
  }
  let mqtt: MqttBroker | null = null;
  try {
    mqtt =
      external ??
      (await startMqttBroker({
        port: config.mqttPort,
        host: config.mqttHost,
        credentials: app.services.credentials,
        telemetry: app.services.telemetry,
        maxMessagesPerSecond: config.mqttMaxMessagesPerSecond,
        logger,
      }));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    if (config.mqttPortExplicit) throw new PortInUseError(config.mqttPort, 'MQTT_PORT');
    // Another broker (often Mosquitto) already owns 1883: the web app and HTTP telemetry still run.
    logger.warn(
      `Le port MQTT ${config.mqttPort} est déjà utilisé (un autre broker ?) : MQTT est désactivé. ` +
        'Choisissez un port libre avec la variable MQTT_PORT pour l’activer ; la télémétrie HTTP fonctionne.',
    );
  }
  broker = mqtt;
  app.services.protocol.mqttPort = mqtt?.port ?? null;
  stopRevocations = app.services.events.subscribeAll((event) => {
    if (event.type === 'revoked') broker?.disconnectDevice(event.data.deviceId);
  });
  stopJobs = startJobs(app.services, {
    retentionDays: config.retentionDays,
    insightsIntervalSeconds: config.insightsIntervalSeconds,
    logger,
  });
  if (config.seedDemo && config.demoSimulator) {
    const demo = await startDemoShop(app.services, { organizationName: DEMO_ACCOUNT.organizationName, logger }).catch((error: unknown) => {
      logger.warn({ err: error }, 'Magasin de démonstration non démarré');
      return null;
    });
    if (demo) stopDemo = demo.stop;
  }
  return { address, mqtt };
}
