import { createHash } from 'node:crypto';
import { type IntegrationEventResponse, LORAWAN_GATEWAY_MODEL } from '@vigie/contract';
import { isUniqueViolation } from '../../db/connection-errors.ts';
import { AppError } from '../../errors.ts';
import type { DeviceService } from '../devices/device-service.ts';
import type { IngestOutcome, TelemetryService } from '../telemetry/telemetry-service.ts';
import type { DecodedReading } from './codecs/index.ts';
import { isFloodError } from './codec-runner.ts';
import type { LorawanCodecs } from './lorawan-codecs.ts';
import type { IntegrationRecord, LorawanDal, LorawanDeviceRecord } from './lorawan-dal.ts';
import type { LorawanHealth } from './lorawan-health.ts';
import type { NetworkMessage } from './network-messages.ts';

/** How long a device's registration is trusted from memory. */
const MEMORY_MS = 5_000;
/** A device's last signal is written at most this often. */
const SIGNAL_EVERY_MS = 60_000;
/**
 * A gateway speaks for its devices only: silent this long, none of them reached it. Sensors report
 * every 10 to 15 minutes, so half an hour without a frame through it is a gateway down, not a lull.
 */
export const GATEWAY_TIMEOUT_SECONDS = 1800;

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

/**
 * The messages of an authenticated integration: an uplink of a registered device decoded by its
 * codec and stored through the telemetry's own path (through the transmitter of the gateway that
 * heard it), one of an unknown DevEUI kept for adoption, a status's battery stored; and each
 * device's last signal noted.
 */
export function createLorawanUplinks(deps: {
  dal: LorawanDal;
  codecs: Pick<LorawanCodecs, 'decode'>;
  now: () => Date;
  telemetry: () => Pick<TelemetryService, 'ingest' | 'hasReadingNear'>;
  sensors: () => Pick<DeviceService, 'findBySerial' | 'get'>;
  /** The transmitters: a gateway that hears the organization's devices is one (serial = its EUI or id). */
  gateways: () => Pick<DeviceService, 'findBySerial' | 'create'>;
  /** An uplink not stored (unknown device, frame its codec could not read): listed in the integration's health. */
  health?: Pick<LorawanHealth, 'refused'>;
}) {
  const { dal } = deps;
  /**
   * What every uplink needs to know, kept a few seconds (a network server sends many frames a
   * second): a device's registration and sensor. A change made here is seen at once; one made by
   * another instance within `MEMORY_MS`.
   */
  const registrations = new Map<
    string,
    { record: LorawanDeviceRecord | undefined; sensor: { id: string; deletedAt: Date | null } | undefined; until: number }
  >();
  /** When this instance last wrote a device's last signal. */
  const signalAt = new Map<string, { at: number; error: string | null }>();
  /** The transmitter of each gateway heard, by organization and gateway (null: in the trash, left there). */
  const gateways = new Map<string, { id: string | null; until: number }>();
  const bounded = <K, V>(map: Map<K, V>) => {
    if (map.size > 50_000) map.clear();
  };

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
      await deps.health?.refused(
        integration.id,
        {
          reason: 'unknown_device',
          message: 'Appareil inconnu : gardé parmi les nouveaux appareils détectés, à enregistrer pour que ses mesures le soient.',
          devEui: message.devEui,
        },
        true,
      );
      return { status: 'unknown_device', readings: 0, duplicates: 0 };
    }
    if (!sensor || sensor.deletedAt) return { status: 'ignored', readings: 0, duplicates: 0 };

    const result = await deps.codecs.decode(organizationId, registered.codec, message, at);
    const seen = { at: deps.now(), rssi: message.rssi, snr: message.snr, gateway: message.gateway };
    if (!result.ok) {
      await noteSignal(organizationId, message.devEui, { ...seen, error: result.error.slice(0, 300) });
      if (!('refused' in result)) {
        await deps.health?.refused(
          integration.id,
          { reason: 'undecodable', message: `Trame illisible par son décodeur : ${result.error}`, devEui: message.devEui },
          true,
        );
      }
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

  return {
    storeUplink,

    /** A message read from an authenticated integration: stored, kept for adoption, or noted. */
    async handle(integration: IntegrationRecord, message: NetworkMessage): Promise<IntegrationEventResponse> {
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
    },

    /** A device registered anew: its registration is read again, and its next uplink writes its signal at once. */
    forgetDevice(organizationId: string, devEui: string): void {
      registrations.delete(`${organizationId}|${devEui}`);
      signalAt.delete(`${organizationId}|${devEui}`);
    },

    /** The device's next uplink writes its signal at once. */
    forgetSignal(organizationId: string, devEui: string): void {
      signalAt.delete(`${organizationId}|${devEui}`);
    },
  };
}

export type LorawanUplinks = ReturnType<typeof createLorawanUplinks>;
