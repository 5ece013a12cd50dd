import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  type Codec as CodecView,
  type CreateIntegrationRequest,
  type CodecOutcome,
  type CreateRuleRequest,
  endpoints,
  installUseRule,
  type Integration,
  type IntegrationEventResponse,
  type IntegrationType,
  type LorawanDevice,
  LORAWAN_GATEWAY_MODEL,
  pathOf,
  type PendingLorawanDevice,
  type RegisterLorawanDeviceRequest,
  registerLorawanDeviceRequestSchema,
  type SaveCodecRequest,
  saveCodecRequestSchema,
  type TestCodecRequest,
  testCodecRequestSchema,
} from '@vigie/contract';
import { isUniqueViolation } from '../../db/connection-errors.ts';
import type { Database } from '../../db/database.ts';
import { AppError, badRequest, conflict, notFound, unauthorized } from '../../errors.ts';
import type { DeviceService, DeviceView } from '../devices/device-service.ts';
import type { IngestOutcome, TelemetryService } from '../telemetry/telemetry-service.ts';
import { CODECS, codecById, type CodecResult, type DecodedReading, suggestCodec } from './codecs/index.ts';
import { type CodecRun, createCodecRunner, isFloodError } from './codec-runner.ts';
import { flatMeasures } from './codec-sandbox.ts';
import { createLorawanDal, type IntegrationRecord, type LorawanDeviceRecord, type PastedCodecRecord } from './lorawan-dal.ts';
import { type NetworkMessage, readNetworkMessage } from './network-messages.ts';
import { MqttServerError, type MqttTarget, resolveMqttServer } from './mqtt-bridge.ts';
import type { SecretBox } from '../auth/secret-box.ts';

/** The codec that keeps the network server's own decoding (`decoded_payload`, `object`). */
export const NETWORK_CODEC = 'network';
/** How often a LoRaWAN sensor reports when its codec does not say (ten minutes, the makers' usual default). */
export const LORAWAN_CADENCE_SECONDS = 600;

/** A sensor is offline once it missed about three uplinks: max(3 × cadence, cadence + 5 min). */
export function silenceLimitSeconds(cadenceSeconds: number): number {
  return Math.max(3 * cadenceSeconds, cadenceSeconds + 300);
}

const NETWORK_CODEC_VIEW: CodecView = {
  id: NETWORK_CODEC,
  vendor: 'Serveur de réseau',
  model: 'Décodage fait par le serveur de réseau',
  measures: [],
};
const WRONG_SECRET = 'Secret d’intégration absent ou faux : copiez-le dans l’en-tête « Authorization: Bearer … » du serveur de réseau.';
const MISSING = 'Intégration introuvable.';
/** How long an integration or a device's registration is trusted from memory. */
const MEMORY_MS = 5_000;
/** An integration's last activity and a device's last signal are written at most this often. */
const HEARD_EVERY_MS = 60_000;
const SIGNAL_EVERY_MS = 60_000;
/**
 * A gateway speaks for its devices only: silent this long, none of them reached it. Sensors report
 * every 10 to 15 minutes, so half an hour without a frame through it is a gateway down, not a lull.
 */
export const GATEWAY_TIMEOUT_SECONDS = 1800;

const hashOf = (secret: string) => createHash('sha256').update(secret).digest();
/** A pasted codec's id, as devices name it. */
const CUSTOM_PREFIX = 'custom:';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const pastedView = (record: PastedCodecRecord): CodecView => ({
  id: `${CUSTOM_PREFIX}${record.id}`,
  vendor: 'Décodeur de l’organisation',
  model: record.name,
  measures: record.measures,
});

/** The network server's own decoding, kept where it is a flat object of finite numbers (or booleans) under valid measure names. */
function fromNetworkDecoding(decoded: Record<string, unknown> | null): CodecResult {
  if (!decoded)
    return { ok: false, error: 'Le serveur de réseau n’a pas décodé cette trame, et aucun décodeur n’est choisi pour l’appareil.' };
  const { values } = flatMeasures(decoded);
  if (Object.keys(values).length === 0)
    return { ok: false, error: 'Le décodage du serveur de réseau ne contient aucune valeur numérique.' };
  return { ok: true, readings: [{ ts: null, values }], warnings: [] };
}

/**
 * How far apart two receptions of the same frame may be (a device's retransmission, heard again by
 * the network): the same session, counter and payload this close is the same frame; further apart
 * (an ABP device whose counter restarted, sending the same values), another one. The same message
 * sent again (a webhook's retry, MQTT beside the webhook) carries the same reception and is
 * recognized however late. A sensor reports every few minutes: no two frames of it are this close.
 */
export const FRAME_WINDOW_MS = 30_000;

const digest = (...parts: (string | number | null)[]) =>
  createHash('sha256')
    .update(parts.map((part) => (part === null ? '' : String(part))).join('\u0000'))
    .digest('hex');

/**
 * A frame's identity: its session (device address), counter and payload (its bytes, and the values
 * read from it: the network server's decoding may differ under the same bytes); and its
 * reception's: the network server's name for it, and when it was received.
 */
function frameIdentity(
  message: Extract<NetworkMessage, { kind: 'uplink' }>,
  readings: DecodedReading[],
  at: Date,
): { frame: string; reception: string } {
  const bytes = message.bytes ? Buffer.from(message.bytes).toString('hex') : null;
  const values = JSON.stringify(readings.map((reading) => reading.values));
  return {
    frame: digest(message.devEui, message.devAddr, message.fCnt, message.fPort, bytes, values).slice(0, 20),
    reception: digest(message.receptionId, at.getTime()).slice(0, 12),
  };
}

/** A codec's result as the API tells it (dates as ISO strings). */
function outcome(result: CodecResult): CodecOutcome {
  if (!result.ok) return { ok: false, error: result.error };
  return {
    ok: true,
    readings: result.readings.map((reading) => ({ ts: reading.ts?.toISOString() ?? null, values: reading.values })),
    warnings: result.warnings,
  };
}

/**
 * LoRaWAN through a network server: the integrations (address and secret to paste in The Things
 * Stack or ChirpStack), the devices registered by DevEUI with their codec, and the uplinks of
 * unknown DevEUIs kept for adoption. An uplink's readings go through the telemetry's own path
 * (stored before the answer, a frame sent twice stored once, alerts and analysis as for any
 * sensor): the network server's 2xx means committed.
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
  const runner = createCodecRunner({ now: deps.now });
  /** The organization's pasted codec of this id (`custom:<uuid>`), if any. */
  async function pastedCodec(organizationId: string, id: string): Promise<PastedCodecRecord | undefined> {
    const uuid = id.slice(CUSTOM_PREFIX.length);
    if (!id.startsWith(CUSTOM_PREFIX) || !UUID.test(uuid)) return undefined;
    // Kept a few seconds, as a registration is: a pasted codec never changes, and a flood of frames then costs no query each.
    const key = `${organizationId}|${uuid}`;
    const known = pastedCodecs.get(key);
    if (known && known.until > Date.now()) return known.record;
    const record = await dal.codec(organizationId, uuid);
    bounded(pastedCodecs);
    pastedCodecs.set(key, { record, until: Date.now() + MEMORY_MS });
    return record;
  }
  const pastedCodecs = new Map<string, { record: PastedCodecRecord | undefined; until: number }>();
  const sampleOf = (input: { payloadHex: string; fPort?: number | undefined }) => ({
    bytes: new Uint8Array(Buffer.from(input.payloadHex, 'hex')),
    fPort: input.fPort ?? 1,
    recvTime: deps.now(),
  });
  const urlOf = (id: string) => `${deps.publicUrl}${pathOf(endpoints.integrations.events, { id })}`;
  const view = (record: IntegrationRecord): Integration => ({
    id: record.id,
    type: record.type,
    name: record.name,
    url: urlOf(record.id),
    lastEventAt: record.lastEventAt?.toISOString() ?? null,
    // Only on an MQTT integration: a webhook's view stays the contract's five fields.
    ...(record.mqttServer && record.mqttUsername
      ? {
          mqtt: {
            server: record.mqttServer,
            username: record.mqttUsername,
            state: record.mqttState ?? 'connecting',
            error: record.mqttError,
          },
        }
      : {}),
  });

  /**
   * What every uplink needs to know, kept a few seconds (a network server sends many frames a
   * second): the integration, and a device's registration and sensor. A change made here is seen at
   * once; one made by another instance within `MEMORY_MS`.
   */
  const integrations = new Map<string, { record: IntegrationRecord | undefined; until: number }>();
  const registrations = new Map<
    string,
    { record: LorawanDeviceRecord | undefined; sensor: { id: string; deletedAt: Date | null } | undefined; until: number }
  >();
  /** When this instance last wrote an integration's last activity, and a device's last signal. */
  const heardAt = new Map<string, number>();
  const signalAt = new Map<string, { at: number; error: string | null }>();
  /** The transmitter of each gateway heard, by organization and gateway (null: in the trash, left there). */
  const gateways = new Map<string, { id: string | null; until: number }>();
  const bounded = <K, V>(map: Map<K, V>) => {
    if (map.size > 50_000) map.clear();
  };

  async function integrationOf(id: string): Promise<IntegrationRecord | undefined> {
    const now = Date.now();
    const known = integrations.get(id);
    if (known && known.until > now) return known.record;
    const record = await dal.integration(id);
    bounded(integrations);
    integrations.set(id, { record, until: now + MEMORY_MS });
    return record;
  }

  async function registrationOf(organizationId: string, devEui: string) {
    const key = `${organizationId}|${devEui}`;
    const now = Date.now();
    const known = registrations.get(key);
    if (known && known.until > now) return known;
    const record = await dal.device(organizationId, devEui);
    const sensor = record ? await deps.sensors().findBySerial(organizationId, devEui) : undefined;
    const entry = { record, sensor: sensor ? { id: sensor.id, deletedAt: sensor.deletedAt } : undefined, until: now + MEMORY_MS };
    bounded(registrations);
    registrations.set(key, entry);
    return entry;
  }

  /** A device's last signal, written at most once a minute unless its decoding error changes. */
  async function noteSignal(
    organizationId: string,
    devEui: string,
    seen: { at: Date; rssi: number | null; snr: number | null; gateway: string | null; error: string | null },
  ): Promise<void> {
    const key = `${organizationId}|${devEui}`;
    const last = signalAt.get(key);
    const same = last?.error === seen.error || (isFloodError(last?.error ?? null) && isFloodError(seen.error));
    if (last && same && seen.at.getTime() - last.at < SIGNAL_EVERY_MS) return;
    await dal.deviceHeard(organizationId, devEui, seen);
    bounded(signalAt);
    signalAt.set(key, { at: seen.at.getTime(), error: seen.error });
  }

  /**
   * The transmitter that stands for the gateway which heard a frame best, created in the sensor's
   * shop the first time the organization hears of it. A gateway moved to the trash stays there: its
   * devices' frames are stored as the sensors' own.
   */
  async function gatewayOf(organizationId: string, gateway: string | null, sensorId: string): Promise<string | null> {
    if (gateway === null || gateway.length > 64) return null;
    const key = `${organizationId}|${gateway}`;
    const now = Date.now();
    const known = gateways.get(key);
    if (known && known.until > now) return known.id;
    const transmitters = deps.gateways();
    let found = await transmitters.findBySerial(organizationId, gateway);
    if (!found) {
      const { device } = await deps.sensors().get(organizationId, sensorId);
      const name = `Passerelle ${/^[0-9a-f]{16}$/.test(gateway) ? gateway.slice(-6) : gateway}`.slice(0, 100);
      const input = { name, serial: gateway, model: LORAWAN_GATEWAY_MODEL, siteId: device.siteId };
      try {
        await transmitters.create(organizationId, { ...input, inactivityTimeoutSeconds: GATEWAY_TIMEOUT_SECONDS });
      } catch (error) {
        // Another instance created it at the same moment: the serial is unique in the organization.
        if (!isUniqueViolation(error)) throw error;
      }
      found = await transmitters.findBySerial(organizationId, gateway);
    }
    const id = found && !found.deletedAt ? found.id : null;
    bounded(gateways);
    gateways.set(key, { id, until: now + MEMORY_MS });
    return id;
  }

  async function authenticate(id: string, authorization: string | undefined): Promise<IntegrationRecord> {
    const integration = await integrationOf(id);
    const secret = /^Bearer\s+(\S{1,200})\s*$/i.exec(authorization ?? '')?.[1];
    // The same answer for an unknown integration and a wrong secret: nothing is learnt by trying.
    if (!integration || !secret) throw unauthorized(WRONG_SECRET);
    const expected = Buffer.from(integration.secretHash, 'hex');
    const given = hashOf(secret);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw unauthorized(WRONG_SECRET);
    return integration;
  }

  async function storeUplink(
    integration: IntegrationRecord,
    message: Extract<NetworkMessage, { kind: 'uplink' }>,
  ): Promise<IntegrationEventResponse> {
    const organizationId = integration.organizationId;
    const at = message.receivedAt ?? deps.now();
    const { record: registered, sensor } = await registrationOf(organizationId, message.devEui);
    if (!registered) {
      await dal.keepPending({
        organizationId,
        devEui: message.devEui,
        integrationId: integration.id,
        at: deps.now(),
        brand: message.versionIds?.brand_id ?? null,
        model: message.versionIds?.model_id ?? null,
        fPort: message.fPort,
        payloadHex: message.bytes ? Buffer.from(message.bytes).toString('hex') : null,
      });
      return { status: 'unknown_device', readings: 0, duplicates: 0 };
    }
    if (!sensor || sensor.deletedAt) return { status: 'ignored', readings: 0, duplicates: 0 };

    const codec = registered.codec === NETWORK_CODEC ? null : codecById(registered.codec);
    // A pasted codec's frame refused (its queue full, its codec suspended) before anything is looked up: a flood costs little.
    const refused =
      registered.codec.startsWith(CUSTOM_PREFIX) && message.bytes ? runner.refusal({ organizationId, codec: registered.codec }) : null;
    const pasted = codec || refused ? undefined : await pastedCodec(organizationId, registered.codec);
    const frame = message.bytes ? { bytes: message.bytes, fPort: message.fPort ?? 0, recvTime: at } : null;
    let result: CodecRun;
    if (refused) result = { ok: false, refused: true, error: refused };
    else if ((codec || pasted) && !frame) result = { ok: true, readings: [], warnings: [] };
    else if (codec && frame) result = codec.decode(frame);
    else if (pasted && frame) result = await runner.run(pasted.source, frame, { organizationId, codec: registered.codec });
    else if (registered.codec.startsWith(CUSTOM_PREFIX)) result = { ok: false, error: 'Le décodeur collé de cet appareil a été supprimé.' };
    else result = fromNetworkDecoding(message.decoded);
    const seen = { at: deps.now(), rssi: message.rssi, snr: message.snr, gateway: message.gateway };
    if (!result.ok) {
      await noteSignal(organizationId, message.devEui, { ...seen, error: result.error.slice(0, 300) });
      // A frame refused by the codecs' queue (codec-runner.ts) is still answered 200: the device's page says why.
      return { status: 'refused' in result ? 'refused' : 'undecoded', readings: 0, duplicates: 0 };
    }
    // A frame's readings keep an id of the frame (session, counter, payload) and of its reception:
    // the same message again is stored once, and so is the same frame heard again within the window.
    const { frame: frameKey, reception } = frameIdentity(message, result.readings, at);
    const payload = result.readings
      .filter((reading) => Object.keys(reading.values).length > 0)
      .map((reading, index) => ({
        id: `lw-${frameKey}-${reception}-${index}`,
        ts: (reading.ts ?? at).toISOString(),
        values: reading.values,
      }));
    let stored: IngestOutcome = { accepted: 0, duplicates: 0 };
    const first = payload[0];
    const firstKey = first ? Object.keys(first.values)[0] : undefined;
    if (
      first &&
      firstKey &&
      (await deps.telemetry().hasReadingNear(sensor.id, firstKey, new Date(first.ts), FRAME_WINDOW_MS, `lw-${frameKey}-`))
    ) {
      await noteSignal(organizationId, message.devEui, { ...seen, error: null });
      return { status: 'duplicate', readings: 0, duplicates: payload.length };
    }
    if (payload.length > 0) {
      try {
        // Through the gateway's transmitter when one heard it: both are seen, the sensor is its.
        const via = await gatewayOf(organizationId, message.gateway, sensor.id);
        stored = via
          ? await deps.telemetry().ingest(
              { deviceId: via, kind: 'emitter', organizationId },
              payload.map((reading) => ({ ...reading, sensor: sensor.id })),
            )
          : await deps.telemetry().ingest({ deviceId: sensor.id, kind: 'sensor', organizationId }, payload);
      } catch (error) {
        // A reading the telemetry refuses (a clock far off, a value out of bounds): the device's page says why.
        if (error instanceof AppError && error.statusCode === 400) {
          await noteSignal(organizationId, message.devEui, { ...seen, error: error.message.slice(0, 300) });
          return { status: 'refused', readings: 0, duplicates: 0 };
        }
        throw error;
      }
    }
    await noteSignal(organizationId, message.devEui, { ...seen, error: null });
    const status = stored.accepted > 0 ? 'stored' : stored.duplicates > 0 ? 'duplicate' : 'ignored';
    return { status, readings: stored.accepted, duplicates: stored.duplicates };
  }

  /** A message of an authenticated integration: stored, kept for adoption, or noted. */
  async function handle(integration: IntegrationRecord, event: string | undefined, body: unknown): Promise<IntegrationEventResponse> {
    const message = readNetworkMessage(integration.type, body, event);
    const now = deps.now();
    // Its last activity, written at most once a minute by this instance (the list shows it to the minute).
    if (now.getTime() - (heardAt.get(integration.id) ?? -Infinity) >= HEARD_EVERY_MS) {
      await dal.heard(integration.id, now);
      bounded(heardAt);
      heardAt.set(integration.id, now.getTime());
    }
    if (message.kind === 'uplink') return storeUplink(integration, message);
    if (message.kind === 'status' && message.battery !== null) {
      const { record: registered, sensor } = await registrationOf(integration.organizationId, message.devEui);
      if (!sensor || sensor.deletedAt) return { status: registered ? 'ignored' : 'unknown_device', readings: 0, duplicates: 0 };
      const at = (message.receivedAt ?? deps.now()).toISOString();
      const stored = await deps
        .telemetry()
        .ingest({ deviceId: sensor.id, kind: 'sensor', organizationId: integration.organizationId }, [
          { ts: at, values: { battery: message.battery } },
        ]);
      return { status: stored.accepted > 0 ? 'stored' : 'duplicate', readings: stored.accepted, duplicates: stored.duplicates };
    }
    return { status: 'ignored', readings: 0, duplicates: 0 };
  }

  return {
    /** The built-in codecs, the network server's own decoding, then the organization's pasted codecs. */
    async codecs(organizationId: string): Promise<CodecView[]> {
      return [
        ...CODECS.map(({ id, vendor, model, measures }) => ({ id, vendor, model, measures: [...measures] })),
        NETWORK_CODEC_VIEW,
        ...(await dal.listCodecs(organizationId)).map(pastedView),
      ];
    },

    /** A pasted codec tried on a sample frame, in its sandbox. */
    async testCodec(organizationId: string, input: TestCodecRequest): Promise<CodecOutcome> {
      const { source, payloadHex, fPort } = testCodecRequestSchema.parse(input);
      return outcome(await runner.run(source, sampleOf({ payloadHex, fPort }), { organizationId }));
    },

    /** Saved once its sample frame decodes: a codec that fails, loops or overflows is refused with its reason. */
    async saveCodec(organizationId: string, input: SaveCodecRequest): Promise<CodecView> {
      const { name, source, payloadHex, fPort } = saveCodecRequestSchema.parse(input);
      const tried = await runner.run(source, sampleOf({ payloadHex, fPort }), { organizationId });
      if (!tried.ok) throw badRequest(`Décodeur refusé : ${tried.error}`);
      const measures = [...new Set(tried.readings.flatMap((reading) => Object.keys(reading.values)))];
      return pastedView(await dal.saveCodec({ organizationId, name, source, measures }));
    },

    async removeCodec(organizationId: string, id: string): Promise<PastedCodecRecord> {
      const record = await dal.codec(organizationId, id);
      if (!record) throw notFound('Décodeur introuvable.');
      if ((await dal.devicesUsing(organizationId, `${CUSTOM_PREFIX}${id}`)) > 0) {
        throw conflict('Des appareils lisent encore leurs trames avec ce décodeur : choisissez-leur-en un autre d’abord.');
      }
      await dal.removeCodec(organizationId, id);
      pastedCodecs.delete(`${organizationId}|${id}`);
      return record;
    },

    close: () => runner.close(),

    async createIntegration(organizationId: string, input: CreateIntegrationRequest): Promise<Integration & { secret: string }> {
      const secret = `vlw_${randomBytes(24).toString('base64url')}`;
      const id = randomUUID();
      let mqtt: { server: string; username: string; sealedPassword: string } | undefined;
      if (input.mqtt) {
        // The address is checked now, as it will be at each connection (a DNS answer may change).
        await resolveMqttServer(input.mqtt.server, deps.allowPrivate).catch((error: unknown) => {
          throw error instanceof MqttServerError ? badRequest(error.message) : error;
        });
        const sealedPassword = deps.box.seal(input.mqtt.password, `lorawan-mqtt:${id}`);
        mqtt = { server: input.mqtt.server, username: input.mqtt.username, sealedPassword };
      }
      const record = await dal.createIntegration({
        id,
        organizationId,
        type: input.type as IntegrationType,
        name: input.name,
        secretHash: hashOf(secret).toString('hex'),
        mqtt,
      });
      if (mqtt) deps.mqttChanged?.();
      return { ...view(record), secret };
    },

    /** The integrations through an MQTT server, their keys opened (one sealed by a key no longer known is left out). */
    async mqttTargets(): Promise<MqttTarget[]> {
      const targets: MqttTarget[] = [];
      for (const record of await dal.mqttIntegrations()) {
        if (!record.mqttServer || !record.mqttUsername || !record.mqttPassword) continue;
        try {
          const password = deps.box.open(record.mqttPassword, `lorawan-mqtt:${record.id}`);
          targets.push({ id: record.id, server: record.mqttServer, username: record.mqttUsername, password });
        } catch {
          await dal.setMqttState(
            record.id,
            'error',
            'Clé d’API illisible (la clé de chiffrement du serveur a changé) : recréez l’intégration.',
          );
        }
      }
      return targets;
    },
    setMqttState: (id: string, state: 'connecting' | 'connected' | 'error', error: string | null) => dal.setMqttState(id, state, error),
    /** An uplink read from the integration's MQTT server: stored as its webhook would be. */
    async deliverMqtt(id: string, body: unknown): Promise<void> {
      const integration = await integrationOf(id);
      if (!integration) return;
      try {
        await handle(integration, undefined, body);
      } catch (error) {
        // A message the server should not have sent (not an uplink Vigie reads): acknowledged, not stored.
        if (error instanceof AppError && error.statusCode === 400) return;
        throw error;
      }
    },
    async listIntegrations(organizationId: string): Promise<Integration[]> {
      return (await dal.listIntegrations(organizationId)).map(view);
    },
    async getIntegration(organizationId: string, id: string): Promise<Integration> {
      const record = await dal.integration(id);
      if (!record || record.organizationId !== organizationId) throw notFound(MISSING);
      return view(record);
    },
    async removeIntegration(organizationId: string, id: string): Promise<void> {
      if (!(await dal.removeIntegration(organizationId, id))) throw notFound(MISSING);
      integrations.delete(id);
      deps.mqttChanged?.();
    },

    /** A message of the network server: authenticated by the integration's secret, then stored, kept for adoption, or noted. */
    async receive(
      id: string,
      authorization: string | undefined,
      event: string | undefined,
      body: unknown,
    ): Promise<IntegrationEventResponse> {
      const answer = await handle(await authenticate(id, authorization), event, body);
      // `duplicates` only when some were: the answer of a frame stored as sent stays `{status, readings}`.
      return answer.duplicates ? answer : { status: answer.status, readings: answer.readings };
    },

    async devices(organizationId: string): Promise<LorawanDevice[]> {
      return (await dal.listDevices(organizationId)).map((record) => ({
        devEui: record.devEui,
        sensorId: record.sensorId,
        codec: record.codec,
        lastUplinkAt: record.lastUplinkAt?.toISOString() ?? null,
        rssi: record.rssi,
        snr: record.snr,
        gateway: record.gateway,
        lastError: record.lastError,
      }));
    },

    async pending(organizationId: string): Promise<PendingLorawanDevice[]> {
      return (await dal.listPending(organizationId)).map((record) => ({
        devEui: record.devEui,
        integrationId: record.integrationId,
        firstSeenAt: record.firstSeenAt.toISOString(),
        lastSeenAt: record.lastSeenAt.toISOString(),
        uplinks: record.uplinks,
        brand: record.brand,
        model: record.model,
        suggestedCodec: suggestCodec({
          ...(record.brand ? { brand_id: record.brand } : {}),
          ...(record.model ? { model_id: record.model } : {}),
        }),
        fPort: record.fPort,
        payloadHex: record.payloadHex,
      }));
    },
    async dismiss(organizationId: string, devEui: string): Promise<void> {
      if (!(await dal.dropPending(organizationId, devEui)))
        throw notFound('Cet appareil ne figure pas parmi les nouveaux appareils détectés.');
    },

    /** Registers a device by DevEUI: its sensor (serial = DevEUI), its codec, and its rule when a use is given. */
    async register(organizationId: string, body: RegisterLorawanDeviceRequest): Promise<Extract<DeviceView, { kind: 'sensor' }>> {
      const input = registerLorawanDeviceRequestSchema.parse(body);
      const codec = input.codec === NETWORK_CODEC ? null : codecById(input.codec);
      const pasted = codec ? undefined : await pastedCodec(organizationId, input.codec);
      if (!codec && !pasted && input.codec !== NETWORK_CODEC) {
        throw badRequest(`Décodeur inconnu « ${input.codec.slice(0, 64)} » : choisissez-en un de la liste des décodeurs.`);
      }
      if (input.siteId) await deps.assertSite(organizationId, input.siteId);
      const sensors = deps.sensors();
      const existing = await sensors.findBySerial(organizationId, input.devEui);
      if (existing && !existing.deletedAt && (await dal.device(organizationId, input.devEui))) {
        const { device } = await sensors.get(organizationId, existing.id);
        throw conflict(`Ce DevEUI est déjà enregistré dans votre organisation (« ${device.name} »).`);
      }
      let sensor: DeviceView;
      let created = false;
      if (existing?.deletedAt) sensor = await sensors.restore(organizationId, existing.id);
      else if (existing) sensor = await sensors.get(organizationId, existing.id);
      else {
        const model = codec ? `${codec.vendor} ${codec.model}` : pasted ? pasted.name.slice(0, 64) : 'LoRaWAN';
        sensor = await sensors.create(organizationId, {
          name: input.name ?? `${model} ${input.devEui.slice(-6)}`.slice(0, 100),
          serial: input.devEui,
          model,
          siteId: input.siteId,
          // Offline only when it missed several of its uplinks, not at the first one a little late.
          inactivityTimeoutSeconds: silenceLimitSeconds(LORAWAN_CADENCE_SECONDS),
        });
        created = true;
      }
      await dal.saveDevice({ organizationId, devEui: input.devEui, sensorId: sensor.device.id, codec: input.codec });
      registrations.delete(`${organizationId}|${input.devEui}`);
      signalAt.delete(`${organizationId}|${input.devEui}`);
      const heard = (await dal.listPending(organizationId)).find((record) => record.devEui === input.devEui);
      await dal.dropPending(organizationId, input.devEui);
      const measures = codec ? codec.measures : (pasted?.measures ?? []);
      const rule = input.preset ? installUseRule(input.preset, sensor.device.id, measures) : null;
      if (rule && created) await deps.createRule(organizationId, rule);
      if (sensor.kind !== 'sensor') throw new Error('A LoRaWAN device is a sensor');
      // The frame heard while it waited for adoption is its first reading, now rather than one interval later.
      const integration = heard?.payloadHex ? await dal.integration(heard.integrationId) : undefined;
      if (heard?.payloadHex && integration) {
        await storeUplink(integration, {
          kind: 'uplink',
          devEui: input.devEui,
          devAddr: null,
          fCnt: null,
          receptionId: `pending-${heard.lastSeenAt.getTime()}`,
          fPort: heard.fPort,
          bytes: Buffer.from(heard.payloadHex, 'hex'),
          decoded: null,
          receivedAt: heard.lastSeenAt,
          rssi: null,
          snr: null,
          gateway: null,
          versionIds: null,
        });
        // The waiting frame kept no signal: the next uplink writes its own at once.
        signalAt.delete(`${organizationId}|${input.devEui}`);
        return (await sensors.get(organizationId, sensor.device.id)) as typeof sensor;
      }
      return sensor;
    },
  };
}

export type LorawanService = ReturnType<typeof createLorawanService>;
