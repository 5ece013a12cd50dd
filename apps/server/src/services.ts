import type { DeviceKind } from '@vigie/contract';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import { createAuthService } from './modules/auth/auth-service.ts';
import { createLoginLimiter } from './modules/auth/login-limiter.ts';
import { createTokenService, type TokenService } from './modules/auth/token-service.ts';
import { createCredentialService } from './modules/credentials/credential-service.ts';
import { createDeviceService, type DeviceService } from './modules/devices/device-service.ts';
import { createTrashService } from './modules/devices/trash-service.ts';
import { createLiveEventHub } from './modules/events/event-hub.ts';
import { createOrganizationService } from './modules/organizations/organization-service.ts';
import { createProvisioningService } from './modules/provisioning/provisioning-service.ts';
import { createTelemetryService } from './modules/telemetry/telemetry-service.ts';
import { createUserService } from './modules/users/user-service.ts';

/**
 * Every service of the server, wired once; routes, adapters and jobs receive what they use.
 * Each module builds its own DAL from the database handle: no one else holds it.
 */
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
  const events = createLiveEventHub(database.pubsub, logger);
  const organizations = createOrganizationService({ db });
  const users = createUserService({ db, organizations });
  const tokens = options.tokens ?? createTokenService(options.jwtSecret);
  const auth = createAuthService({ users, tokens, limiter: createLoginLimiter(config.loginLimits) });

  // Devices and telemetry need each other (latest values shown with a device; a transmitter's
  // readings for its sensors): each receives the other's methods, called only at run time.
  const devices: Record<DeviceKind, DeviceService> = {
    emitter: deviceService('emitter'),
    sensor: deviceService('sensor'),
  };
  const telemetry = createTelemetryService({
    db,
    writeConcurrency: database.writeConcurrency,
    devices: {
      findSensorByReference: (organizationId, reference) => devices.sensor.findByReference(organizationId, reference),
      touch: (kind, touches) => devices[kind].touch(touches),
    },
    events,
    retentionDays: config.retentionDays,
  });
  const credentials = createCredentialService({
    db,
    isActive: (identity) => devices[identity.kind].isActive(identity.organizationId, identity.deviceId),
  });
  // A token ended on this instance: every instance forgets it and closes the device's MQTT sessions.
  credentials.onRevoked((deviceId, organizationId) => events.publish([{ organizationId, type: 'revoked', data: { deviceId } }]));
  events.subscribeAll((event) => {
    if (event.type === 'revoked') credentials.forget(event.data.deviceId);
    if (event.type === 'restored') credentials.forgetRefusals();
  });
  const provisioning = createProvisioningService({ organizations, credentials, devices });
  const trash = createTrashService(devices);

  function deviceService(kind: DeviceKind) {
    return createDeviceService({
      db,
      kind,
      events,
      latestOf: (ids) => telemetry.latestOf(ids),
      // In the trash, its token is refused at once (its sessions closed) but kept for a restore.
      onDeleted: (deviceId, organizationId) => {
        credentials.revoked(deviceId, organizationId);
        telemetry.forgetDevice(deviceId);
      },
      // Back from the trash: every instance forgets that its kept token was refused.
      onRestored: (deviceId, organizationId) => {
        credentials.forgetRefusals();
        telemetry.forgetDevice(deviceId);
        events.publish([{ organizationId, type: 'restored', data: { deviceId } }]);
      },
      ...(options.now ? { now: options.now } : {}),
    });
  }

  /** What devices need to know to connect; the MQTT port is known once the broker listens. */
  const protocol: { mqttPort: number | null } = { mqttPort: null };

  return {
    protocol,
    organizations,
    users,
    tokens,
    auth,
    events,
    credentials,
    devices,
    telemetry,
    provisioning,
    trash,
    async close() {
      await telemetry.close();
      events.close();
    },
  };
}

export type Services = ReturnType<typeof createServices>;
