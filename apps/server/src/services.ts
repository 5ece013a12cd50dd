import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import { emitters, sensors } from './db/schema.ts';
import { createAuthService } from './modules/auth/auth-service.ts';
import { createLoginLimiter } from './modules/auth/login-limiter.ts';
import { createTokenService, type TokenService } from './modules/auth/token-service.ts';
import { createDeviceDal } from './modules/devices/device-dal.ts';
import { createDeviceService } from './modules/devices/device-service.ts';
import { createTrashService } from './modules/devices/trash-service.ts';
import { createEventHub } from './modules/events/event-hub.ts';
import { createDeviceCredentials } from './modules/telemetry/device-credentials.ts';
import { createProvisioningService } from './modules/telemetry/provisioning-service.ts';
import { createReadingDal } from './modules/telemetry/reading-dal.ts';
import { createReadingWriter } from './modules/telemetry/reading-writer.ts';
import { createTelemetryService } from './modules/telemetry/telemetry-service.ts';
import { createUserDal } from './modules/users/user-dal.ts';
import { createUserService } from './modules/users/user-service.ts';

/** Every service of the server, wired once; routes and the MQTT broker receive what they use. */
export function createServices(options: {
  config: Config;
  database: DatabaseHandle;
  jwtSecret: string;
  logger: Logger;
  tokens?: TokenService;
  now?: () => Date;
}) {
  const { config, database, logger } = options;
  const db = database.db;
  const userDal = createUserDal(db);
  const users = createUserService(userDal);
  const tokens = options.tokens ?? createTokenService(options.jwtSecret);
  const auth = createAuthService({ users: userDal, tokens, limiter: createLoginLimiter(config.loginLimits) });
  const events = createEventHub(database.pubsub, logger);
  const credentials = createDeviceCredentials(db, (identity) =>
    devices[identity.kind].isActive(identity.organizationId, identity.deviceId),
  );
  const onDeleted = (deviceId: string, organizationId: string) => credentials.revoked(deviceId, organizationId);
  // A device back from the trash: every instance forgets that its kept token was refused.
  const onRestored = (deviceId: string, organizationId: string) => {
    credentials.forgetRefusals();
    events.publish([{ organizationId, type: 'restored', data: { deviceId } }]);
  };
  // A token ended on this instance: every instance forgets it and closes the device's MQTT sessions.
  credentials.onRevoked((deviceId, organizationId) => events.publish([{ organizationId, type: 'revoked', data: { deviceId } }]));
  events.subscribeAll((event) => {
    if (event.type === 'revoked') credentials.forget((event.data as { deviceId: string }).deviceId);
    if (event.type === 'restored') credentials.forgetRefusals();
  });
  const devices = {
    emitter: createDeviceService({
      dal: createDeviceDal(db, emitters),
      kind: 'emitter',
      notFoundMessage: 'Émetteur introuvable.',
      events,
      onDeleted,
      onRestored,
      ...(options.now ? { now: options.now } : {}),
    }),
    sensor: createDeviceService({
      dal: createDeviceDal(db, sensors),
      kind: 'sensor',
      notFoundMessage: 'Capteur introuvable.',
      events,
      onDeleted,
      onRestored,
      ...(options.now ? { now: options.now } : {}),
    }),
  };
  const writer = createReadingWriter(db, database.writeConcurrency);
  const readings = createReadingDal(db);
  const telemetry = createTelemetryService({ writer, sensors: devices.sensor.dal, events, retentionDays: config.retentionDays });
  const provisioning = createProvisioningService({ db, credentials, devices });
  const trash = createTrashService(devices);

  /** What devices need to know to connect; the MQTT port is known once the broker listens. */
  const protocol: { mqttPort: number | null } = { mqttPort: null };

  return {
    protocol,
    users,
    tokens,
    auth,
    events,
    credentials,
    devices,
    writer,
    readings,
    telemetry,
    provisioning,
    trash,
    async close() {
      await writer.close();
      events.close();
    },
  };
}

export type Services = ReturnType<typeof createServices>;
