import type { DeviceKind } from '@vigie/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { Logger } from 'pino';
import type { Database } from '../../db/database.ts';
import type { AlertRuleService } from '../alerts/alert-rule-service.ts';
import type { EventHub } from '../events/event-hub.ts';
import type { LiveEvent } from '../events/live-event.ts';
import type { OrganizationService } from '../organizations/organization-service.ts';
import type { RateLimits } from '../rate-limits/rate-limits.ts';
import type { SiteService } from '../sites/site-service.ts';
import type { TelemetryService } from '../telemetry/telemetry-service.ts';
import { claimRoutes } from './claim-routes.ts';
import { createClaimingService } from './claiming-service.ts';
import { createCredentialService } from './credential-service.ts';
import { deviceProtocolRoutes } from './device-protocol-routes.ts';
import { deviceRoutes } from './device-routes.ts';
import { createDeviceService, type DeviceService } from './device-service.ts';
import { announceOfflineDevices } from './offline-devices.ts';
import { createProvisioningService } from './provisioning-service.ts';
import { createTrashService } from './trash-service.ts';
import { purgeTrash } from './trash-purge.ts';
import { trashRoutes } from './trash-routes.ts';

/**
 * The devices module: emitters and sensors, their trash, their tokens (credentials), their
 * installation (provisioning, with the organization's key) and the factory devices claimed with
 * the code of their label; it keeps the emitters, sensors, device credentials and factory devices.
 * In: the organizations (installation keys), the rate limits, the event hub, and — created later,
 * so called at run time only — the telemetry (latest values, history, ingestion, erasure), the
 * sites (where a device goes) and the alert rules (a claimed sensor's first rules). Out: its
 * services; what the telemetry asks of devices (`findSensorByReference`, `assertSensor`, `touch`) and the sites
 * (`countInSite`); the handlers of the bus; the offline and trash jobs; the device protocol's
 * public routes and the devices' routes.
 */
export function createDevicesModule(options: {
  db: Database;
  events: EventHub;
  logger: Pick<Logger, 'warn'>;
  /** The clock of claims; the trash's is `trashClock`, the system clock unless given. */
  now: () => Date;
  trashClock?: (() => Date) | undefined;
  /** Instances share the database: the lists in memory are trusted while `busLive()` (others say what they change). */
  sharedByInstances: boolean;
  busLive: () => boolean;
  /** The MQTT port devices are told, known once the broker listens. */
  mqttPort: number | null;
  organizations: Pick<OrganizationService, 'findByInstallationKey'>;
  rateLimits: RateLimits;
  telemetry: () => Pick<TelemetryService, 'latestOf' | 'forgetDevice' | 'eraseDevices' | 'history' | 'csv' | 'ingest'>;
  sites: () => Pick<SiteService, 'siteFor' | 'siteNamed' | 'get'>;
  rules: () => Pick<AlertRuleService, 'create' | 'list'>;
}) {
  const { db, events, logger, telemetry, sites } = options;

  function deviceService(kind: DeviceKind) {
    return createDeviceService({
      db,
      kind,
      events,
      latestOf: (ids) => telemetry().latestOf(ids),
      // Lists in memory; shared by instances, kept current by what the others say on the bus.
      cacheLists: options.sharedByInstances ? { trusted: options.busLive } : 'alone',
      // In the trash, its token is refused at once (its sessions closed) but kept for a restore.
      // An external broker that cannot be reached leaves the device connected there, but what it
      // publishes is dropped: a device in the trash is refused by the consumer as well.
      onDeleted: async (deviceId, organizationId) => {
        telemetry().forgetDevice(deviceId);
        await credentials
          .suspend(deviceId, organizationId)
          .catch((error: unknown) => logger.warn({ err: error, deviceId }, 'Compte MQTT de l’appareil non suspendu dans le broker'));
      },
      // Back from the trash: every instance forgets that its kept token was refused.
      siteFor: (organizationId, siteId) => sites().siteFor(organizationId, siteId),
      onRestored: async (deviceId, organizationId) => {
        telemetry().forgetDevice(deviceId);
        events.publish([{ organizationId, type: 'restored', data: { deviceId } }]);
        await credentials
          .resume(deviceId)
          .catch((error: unknown) => logger.warn({ err: error, deviceId }, 'Compte MQTT de l’appareil non rétabli dans le broker'));
      },
      ...(options.trashClock ? { now: options.trashClock } : {}),
    });
  }
  // Devices and telemetry need each other (latest values shown with a device; a transmitter's
  // readings for its sensors): each receives the other's methods, called only at run time.
  const devices: Record<DeviceKind, DeviceService> = { emitter: deviceService('emitter'), sensor: deviceService('sensor') };
  const credentials = createCredentialService({
    db,
    isActive: (identity) => devices[identity.kind].isActive(identity.organizationId, identity.deviceId),
  });
  // A token ended on this instance: every instance forgets it and closes the device's MQTT sessions.
  credentials.onRevoked((deviceId, organizationId) => events.publish([{ organizationId, type: 'revoked', data: { deviceId } }]));
  const provisioning = createProvisioningService({
    rateLimits: options.rateLimits,
    organizations: options.organizations,
    credentials,
    devices,
    siteNamed: (organizationId, reference) => sites().siteNamed(organizationId, reference),
  });
  const claiming = createClaimingService({
    db,
    rateLimits: options.rateLimits,
    devices,
    credentials,
    assertSite: async (organizationId, siteId) => void (await sites().get(organizationId, siteId)),
    createRule: (organizationId, rule) => options.rules().create(organizationId, rule),
    ruleCount: async (organizationId, sensorId) => (await options.rules().list(organizationId, { sensorId })).length,
    now: options.now,
  });
  const trash = createTrashService(devices);
  /** What devices need to know to connect; the MQTT port is known once the broker listens. */
  const protocol: { mqttPort: number | null } = { mqttPort: options.mqttPort };

  const publicRoutes: FastifyPluginAsync = async (app) => {
    await app.register(deviceProtocolRoutes, { provisioning, claiming, credentials, telemetry: telemetry(), protocol });
  };
  const routes: FastifyPluginAsync = async (app) => {
    await app.register(trashRoutes, { trash });
    await app.register(claimRoutes, { claiming });
    for (const kind of ['emitter', 'sensor'] as const) {
      await app.register(deviceRoutes, { resource: kind, service: devices[kind], provisioning, telemetry: telemetry() });
    }
  };

  return {
    devices,
    sensors: devices.sensor,
    credentials,
    provisioning,
    claiming,
    trash,
    protocol,
    /** How many devices (both kinds, the trash included: a trashed device keeps its site) a site holds. */
    countInSite: async (organizationId: string, siteId: string) =>
      (await devices.emitter.countInSite(organizationId, siteId)) + (await devices.sensor.countInSite(organizationId, siteId)),
    findSensorByReference: (organizationId: string, reference: string) => devices.sensor.findByReference(organizationId, reference),
    assertSensor: async (organizationId: string, sensorId: string) => void (await devices.sensor.get(organizationId, sensorId)),
    /** Each sensor's site, status and battery, for the overview of the sites. */
    overviewSensors: (organizationId: string) => devices.sensor.states(organizationId),
    touch: (kind: DeviceKind, ...args: Parameters<DeviceService['touch']>) => devices[kind].touch(...args),
    handlers: {
      /** What other instances changed or heard (their own news too, which changes nothing). */
      liveEvent(event: LiveEvent): void {
        if (event.type === 'devices-changed') devices[event.data.kind].changedElsewhere(event.organizationId);
        if (event.type === 'reading') devices[event.data.kind].heardElsewhere(event.data);
        if (event.type === 'revoked') credentials.forget(event.data.deviceId);
        if (event.type === 'restored') credentials.forgetRefusals();
      },
      /** The bus was deaf for a while: the lists in memory may have missed a change. */
      busResumed(): void {
        for (const service of Object.values(devices)) service.forgetAll();
      },
    },
    jobs: {
      announceOffline: () => announceOfflineDevices({ devices }),
      purgeTrash: () => purgeTrash({ devices, telemetry: telemetry(), credentials }),
    },
    publicRoutes,
    routes,
    services: { devices, credentials, provisioning, claiming, trash, protocol },
  };
}

export type DevicesModule = ReturnType<typeof createDevicesModule>;
