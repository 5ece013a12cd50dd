import type { CreateRuleRequest, IntegrationEventResponse } from '@vigie/contract';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { SecretBox } from '../auth/secret-box.ts';
import type { DeviceService } from '../devices/device-service.ts';
import type { TelemetryService } from '../telemetry/telemetry-service.ts';
import { createLorawanCodecs } from './lorawan-codecs.ts';
import { createLorawanDal, type IntegrationRecord } from './lorawan-dal.ts';
import { createLorawanDevices } from './lorawan-devices.ts';
import { createLorawanHealth } from './lorawan-health.ts';
import { createLorawanHealthDal } from './lorawan-health-dal.ts';
import { createLorawanIntegrations } from './lorawan-integrations.ts';
import { createLorawanUplinks } from './lorawan-uplinks.ts';
import { MessageRefusal, readNetworkMessage } from './network-messages.ts';

export { NETWORK_CODEC } from './lorawan-codecs.ts';
export { LORAWAN_CADENCE_SECONDS, silenceLimitSeconds } from './lorawan-devices.ts';
export { FRAME_WINDOW_MS, GATEWAY_TIMEOUT_SECONDS } from './lorawan-uplinks.ts';

/**
 * LoRaWAN through a network server: the integrations (address and secret to paste in The Things
 * Stack or ChirpStack), the devices registered by DevEUI with their codec, and the uplinks of
 * unknown DevEUIs kept for adoption. An uplink's readings go through the telemetry's own path
 * (stored before the answer, a frame sent twice stored once, alerts and analysis as for any
 * sensor): the network server's 2xx means committed.
 *
 * Composes four jobs, each its own factory: the codecs (lorawan-codecs.ts), the integrations
 * (lorawan-integrations.ts), the uplinks (lorawan-uplinks.ts) and the registered and waiting
 * devices (lorawan-devices.ts).
 */
export function createLorawanService(deps: {
  db: Database;
  now: () => Date;
  /** Where the network server reaches Vigie (`PUBLIC_URL`). */
  publicUrl: string;
  telemetry: () => Pick<TelemetryService, 'ingest' | 'hasReadingNear'>;
  sensors: () => Pick<DeviceService, 'findBySerial' | 'create' | 'restore' | 'get'>;
  /** The transmitters: a gateway that hears the organization's devices is one (serial = its EUI or id). */
  gateways: () => Pick<DeviceService, 'findBySerial' | 'create'>;
  assertSite: (organizationId: string, siteId: string) => Promise<void>;
  createRule: (organizationId: string, rule: CreateRuleRequest) => Promise<unknown>;
  /** Seals the API keys of MQTT integrations (bound to the integration's id). */
  box: Pick<SecretBox, 'seal' | 'open'>;
  /** Whether an MQTT server may be on loopback or a private network (`WEBHOOK_ALLOW_PRIVATE`). */
  allowPrivate: boolean;
  /** Told when an MQTT integration is created or removed (the connections are looked at again at once). */
  mqttChanged?: () => void;
}) {
  const dal = createLorawanDal(deps.db);
  const codecs = createLorawanCodecs({ dal, now: deps.now });
  const health = createLorawanHealth({ dal: createLorawanHealthDal(deps.db), now: deps.now });
  const integrations = createLorawanIntegrations({
    dal,
    publicUrl: deps.publicUrl,
    box: deps.box,
    allowPrivate: deps.allowPrivate,
    mqttChanged: deps.mqttChanged,
    wrongSecret: (id, message) => health.refused(id, { reason: 'bad_secret', message, devEui: null }, false),
  });
  const uplinks = createLorawanUplinks({
    dal,
    codecs,
    now: deps.now,
    telemetry: deps.telemetry,
    sensors: deps.sensors,
    gateways: deps.gateways,
    health,
  });
  const devices = createLorawanDevices({
    dal,
    codecs,
    uplinks,
    sensors: deps.sensors,
    assertSite: deps.assertSite,
    createRule: deps.createRule,
  });

  /** A message of an authenticated integration: its activity noted, then stored, kept for adoption, or noted. */
  async function handle(integration: IntegrationRecord, event: string | undefined, body: unknown): Promise<IntegrationEventResponse> {
    let message;
    try {
      message = readNetworkMessage(integration.type, body, event);
    } catch (error) {
      if (!(error instanceof MessageRefusal)) throw error;
      // Its content is wrong, not its sender: answered 202 with the reason, listed in the integration's health.
      await integrations.heard(integration.id, deps.now());
      await health.refused(integration.id, { reason: error.reason, message: error.message, devEui: error.devEui }, true);
      return { status: 'refused', readings: 0, reason: error.reason, message: error.message };
    }
    await integrations.heard(integration.id, deps.now());
    const answer = await uplinks.handle(integration, message);
    // Not stored for want of its device or of a codec that reads it: counted there, with its reason.
    if (answer.status !== 'unknown_device' && answer.status !== 'undecoded') await health.message(integration.id);
    return answer;
  }

  return {
    codecs: codecs.codecs,
    testCodec: codecs.testCodec,
    saveCodec: codecs.saveCodec,
    removeCodec: codecs.removeCodec,
    close: codecs.close,

    createIntegration: integrations.createIntegration,
    mqttTargets: integrations.mqttTargets,
    setMqttState: integrations.setMqttState,
    /** An uplink read from the integration's MQTT server: stored as its webhook would be. */
    async deliverMqtt(id: string, body: unknown): Promise<void> {
      const integration = await integrations.integrationOf(id);
      if (!integration) return;
      try {
        // A message the server should not have sent (not an uplink Vigie reads): acknowledged, not stored, listed in the health.
        await handle(integration, undefined, body);
      } catch (error) {
        if (error instanceof AppError && error.statusCode === 400) return;
        throw error;
      }
    },
    listIntegrations: integrations.listIntegrations,
    getIntegration: integrations.getIntegration,
    removeIntegration: integrations.removeIntegration,

    /** A message of the network server: authenticated by the integration's secret, then stored, kept for adoption, or noted. */
    async receive(
      id: string,
      authorization: string | undefined,
      event: string | undefined,
      body: unknown,
    ): Promise<IntegrationEventResponse> {
      const answer = await handle(await integrations.authenticate(id, authorization), event, body);
      if (answer.reason) return answer;
      // `duplicates` only when some were: the answer of a frame stored as sent stays `{status, readings}`.
      return answer.duplicates ? answer : { status: answer.status, readings: answer.readings };
    },

    /** The integration's health (docs/api.md, Santé d'une intégration); another organization's is not found. */
    async integrationHealth(organizationId: string, id: string) {
      const integration = await integrations.getIntegration(organizationId, id);
      return health.health(id, integration.lastEventAt ? new Date(integration.lastEventAt) : null);
    },

    devices: devices.devices,
    pending: devices.pending,
    dismiss: devices.dismiss,
    register: devices.register,
  };
}

export type LorawanService = ReturnType<typeof createLorawanService>;
