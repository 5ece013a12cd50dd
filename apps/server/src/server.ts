import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { endpoints } from '@vigie/contract';
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

/** Start-up was stopped (SIGTERM, SIGINT) while it waited: nothing failed. */
export class StartupInterrupted extends Error {
  constructor() {
    super('Démarrage interrompu : arrêt demandé.');
  }
}

/** How start-up waits for an external broker that does not answer yet. */
export interface BrokerStartup {
  /** Attempts before giving up; the delay between two doubles from `firstDelayMs` up to `maxDelayMs`. */
  attempts: number;
  firstDelayMs: number;
  maxDelayMs: number;
  /** How long a dynamic-security request waits for the broker's answer (the adapter's default when absent). */
  commandTimeoutMs?: number;
}

/** Ten attempts, 1 s apart at first and at most 30 s apart: two and a half minutes of waits in all. */
export const BROKER_STARTUP: BrokerStartup = { attempts: 10, firstDelayMs: 1_000, maxDelayMs: 30_000 };

const STARTING_MESSAGE = 'Vigie démarre : il attend le broker MQTT. Réessayez dans un instant.';

/** The broker turned Vigie's account down: trying again will not help. */
const refusedAccount = (error: unknown) => error instanceof Error && /refuse le compte/.test(error.message);

/** Opens the database, seeds it when asked, and builds the app; closing the app closes everything. */
export async function createServer(config: Config, logger: Logger): Promise<FastifyInstance> {
  const jwtSecret = resolveJwtSecret(config.jwtSecret, config.dataDir);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    retentionDays: config.retentionDays,
    ...(config.pgliteTemplate ? { memoryTemplate: config.pgliteTemplate } : {}),
    logger,
  });
  let app: FastifyInstance;
  try {
    app = await buildApp({ config, database, jwtSecret, logger });
  } catch (error) {
    await database.close();
    throw error;
  }
  // Fastify runs onClose hooks last-registered first: this one, registered after the app's own,
  // would close the database before the services finish what they had under way (an e-mail sent
  // but not yet marked as sent would leave again at the next start). So it closes them first.
  app.addHook('onClose', async () => {
    await app.services.close();
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
  options: { brokerStartup?: BrokerStartup } = {},
): Promise<{ address: string; mqtt: MqttBroker | null }> {
  let broker: MqttBroker | null = null;
  let adminSocket: AdminSocket | null = null;
  let stopJobs = () => {};
  let stopRevocations = () => {};
  let stopDemo = () => {};
  const stopping = new AbortController();
  // While an external broker is awaited, the API (health and readiness included) answers 503: a
  // token issued now would not reach the broker, and a load balancer sends requests elsewhere.
  let starting = Boolean(config.mqttBroker);
  app.addHook('onRequest', async (request, reply) => {
    if (starting && request.url.startsWith('/api/')) return reply.code(503).header('retry-after', '5').send({ message: STARTING_MESSAGE });
  });
  // Before the HTTP server stops: no more MQTT readings, then the writer drains (onClose).
  app.addHook('preClose', async () => {
    stopping.abort();
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
  let address: string;
  try {
    address = await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new PortInUseError(config.port, 'PORT');
    throw error;
  }
  const brokerConfig = config.mqttBroker;
  const external = brokerConfig
    ? await connectPatiently(options.brokerStartup ?? BROKER_STARTUP, stopping.signal, logger, () =>
        connectExternalBroker({
          ...brokerConfig,
          credentials: app.services.credentials,
          telemetry: app.services.telemetry,
          logger,
          commandTimeoutMs: options.brokerStartup?.commandTimeoutMs,
        }),
      )
    : null;
  broker = external;
  starting = false;
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

/**
 * Connects to the external broker, again with a growing delay while it does not answer (it may be
 * busy, restarting, or another instance's changes may have closed this one's connections), and
 * logs each failure; refused credentials and the last attempt end the start-up.
 */
async function connectPatiently(
  startup: BrokerStartup,
  signal: AbortSignal,
  logger: Logger,
  connect: () => Promise<MqttBroker>,
): Promise<MqttBroker> {
  for (let attempt = 1; ; attempt += 1) {
    if (signal.aborted) throw new StartupInterrupted();
    try {
      const connected = await connect();
      // Stopped while it connected: what it opened closes with it.
      if (signal.aborted) {
        await connected.close();
        throw new StartupInterrupted();
      }
      if (attempt > 1) logger.info({ attempt }, 'Broker MQTT joint : Vigie est prêt');
      return connected;
    } catch (error) {
      if (error instanceof StartupInterrupted || refusedAccount(error)) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      if (attempt >= startup.attempts) {
        throw new Error(`le broker MQTT ne répond toujours pas après ${attempt} essais (${reason})`, { cause: error });
      }
      const wait = Math.min(startup.firstDelayMs * 2 ** (attempt - 1), startup.maxDelayMs);
      logger.warn(
        { err: error, attempt, attempts: startup.attempts, retryInMs: wait },
        `Broker MQTT pas encore prêt (essai ${attempt} sur ${startup.attempts}) : ${reason} Nouvel essai dans ${Math.ceil(wait / 1000)} s ; ${endpoints.health.live.path} répond 503 d’ici là.`,
      );
      await delay(wait, undefined, { signal }).catch(() => undefined);
    }
  }
}
