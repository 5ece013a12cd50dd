import type { IntegrationType } from '@vigie/contract';
import { badRequest } from '../../errors.ts';

/**
 * What a network server sends, read into one shape whatever its dialect: The Things Stack v3
 * (webhook or MQTT integration, the message as its API documents it: `end_device_ids`,
 * `uplink_message`, `join_accept`…) and ChirpStack v4 (HTTP integration, JSON encoding, the event
 * named in the query: `up`, `join`, `status`, `ack`, `txack`, `log`, `location`, `integration`).
 */
export type NetworkMessage =
  | {
      kind: 'uplink';
      devEui: string;
      /** The session's device address and frame counter: the same pair twice is the same frame. */
      devAddr: string | null;
      fCnt: number | null;
      /**
       * The network server's name for this reception, when it gives one (ChirpStack's
       * `deduplicationId`, The Things Stack's `as:up:` correlation id): the same message sent again
       * carries it again.
       */
      receptionId: string | null;
      fPort: number | null;
      /** The application payload, when the message carries one. */
      bytes: Uint8Array | null;
      /** The network server's own decoding of the payload, if it made one. */
      decoded: Record<string, unknown> | null;
      receivedAt: Date | null;
      /** The best gateway's signal, and that gateway's EUI (or id). */
      rssi: number | null;
      snr: number | null;
      gateway: string | null;
      /** The maker and model the network server knows (The Things Stack's `version_ids`). */
      versionIds: { brand_id?: string; model_id?: string } | null;
    }
  | { kind: 'status'; devEui: string; battery: number | null; receivedAt: Date | null }
  | { kind: 'other'; devEui: string | null; name: string };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function text(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 && value.length <= 256 ? value : null;
}

function finite(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function date(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms) : null;
}

/** A DevEUI as stored: 16 lower-case hexadecimal digits; null when it is not one. */
export function normalDevEui(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const hex = value.replace(/[\s:-]/g, '').toLowerCase();
  return /^[0-9a-f]{16}$/.test(hex) ? hex : null;
}

function base64Bytes(value: unknown, field: string): Uint8Array | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' || value.length > 2048 || !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) {
    throw badRequest(`« ${field} » doit être la trame en base64 (2 Kio au plus).`);
  }
  return new Uint8Array(Buffer.from(value, 'base64'));
}

/** The strongest signal among the gateways that heard the frame. */
function bestGateway(
  list: unknown,
  read: (entry: Record<string, unknown>) => { rssi: number | null; snr: number | null; id: string | null },
) {
  let best: { rssi: number | null; snr: number | null; id: string | null } = { rssi: null, snr: null, id: null };
  if (!Array.isArray(list)) return best;
  for (const entry of list.slice(0, 64)) {
    if (!isObject(entry)) continue;
    const seen = read(entry);
    if (seen.rssi !== null && (best.rssi === null || seen.rssi > best.rssi)) best = seen;
    else if (best.id === null) best = seen;
  }
  return best;
}

function requireDevEui(value: unknown): string {
  const devEui = normalDevEui(value);
  if (!devEui) throw badRequest('DevEUI absent ou invalide dans le message : 16 chiffres hexadécimaux sont attendus.');
  return devEui;
}

function fromTheThingsStack(body: Record<string, unknown>): NetworkMessage {
  const ids = isObject(body['end_device_ids']) ? body['end_device_ids'] : null;
  const uplink = body['uplink_message'];
  if (!isObject(uplink)) {
    const name = Object.keys(body).find((key) => !['end_device_ids', 'correlation_ids', 'received_at', 'simulated'].includes(key));
    return { kind: 'other', devEui: normalDevEui(ids?.['dev_eui']), name: (name ?? 'inconnu').slice(0, 64) };
  }
  const devEui = requireDevEui(ids?.['dev_eui']);
  const gateway = bestGateway(uplink['rx_metadata'], (entry) => {
    const gatewayIds = isObject(entry['gateway_ids']) ? entry['gateway_ids'] : {};
    return {
      rssi: finite(entry['rssi']) ?? finite(entry['channel_rssi']),
      snr: finite(entry['snr']),
      id: normalDevEui(gatewayIds['eui']) ?? text(gatewayIds['gateway_id']),
    };
  });
  const versionIds = isObject(uplink['version_ids']) ? uplink['version_ids'] : null;
  const fCnt = finite(uplink['f_cnt']);
  return {
    kind: 'uplink',
    devEui,
    devAddr: text(ids?.['dev_addr'])?.toLowerCase() ?? null,
    // The Things Stack leaves out a zero frame counter (proto3 default).
    fCnt: fCnt ?? 0,
    receptionId: Array.isArray(body['correlation_ids'])
      ? (body['correlation_ids']
          .slice(0, 32)
          .find((id): id is string => typeof id === 'string' && id.startsWith('as:up:') && id.length <= 128) ?? null)
      : null,
    fPort: finite(uplink['f_port']),
    bytes: base64Bytes(uplink['frm_payload'], 'uplink_message.frm_payload'),
    decoded: isObject(uplink['decoded_payload']) ? uplink['decoded_payload'] : null,
    receivedAt: date(uplink['received_at']) ?? date(body['received_at']),
    rssi: gateway.rssi,
    snr: gateway.snr,
    gateway: gateway.id,
    versionIds: versionIds
      ? {
          ...(text(versionIds['brand_id']) ? { brand_id: text(versionIds['brand_id']) as string } : {}),
          ...(text(versionIds['model_id']) ? { model_id: text(versionIds['model_id']) as string } : {}),
        }
      : null,
  };
}

function fromChirpStack(body: Record<string, unknown>, event: string): NetworkMessage {
  const info = isObject(body['deviceInfo']) ? body['deviceInfo'] : null;
  if (event === 'up') {
    const devEui = requireDevEui(info?.['devEui']);
    const gateway = bestGateway(body['rxInfo'], (entry) => ({
      rssi: finite(entry['rssi']),
      snr: finite(entry['snr']),
      id: normalDevEui(entry['gatewayId']) ?? text(entry['gatewayId']),
    }));
    return {
      kind: 'uplink',
      devEui,
      devAddr: text(body['devAddr'])?.toLowerCase() ?? null,
      fCnt: finite(body['fCnt']) ?? 0,
      receptionId: text(body['deduplicationId']),
      fPort: finite(body['fPort']),
      bytes: base64Bytes(body['data'], 'data'),
      decoded: isObject(body['object']) ? body['object'] : null,
      receivedAt: date(body['time']),
      rssi: gateway.rssi,
      snr: gateway.snr,
      gateway: gateway.id,
      versionIds: null,
    };
  }
  if (event === 'status') {
    const devEui = requireDevEui(info?.['devEui']);
    const unavailable = body['batteryLevelUnavailable'] === true || body['externalPowerSource'] === true;
    const level = finite(body['batteryLevel']);
    return {
      kind: 'status',
      devEui,
      battery: unavailable || level === null ? null : Math.max(0, Math.min(100, Math.round(level * 10) / 10)),
      receivedAt: date(body['time']),
    };
  }
  return { kind: 'other', devEui: normalDevEui(info?.['devEui']), name: event };
}

/** The message in one shape; a body that is not one of the server's messages is a 400 with a French reason. */
export function readNetworkMessage(type: IntegrationType, body: unknown, event: string | undefined): NetworkMessage {
  if (!isObject(body)) throw badRequest('Le message doit être un objet JSON, tel que le serveur de réseau l’envoie.');
  if (type === 'tts') return fromTheThingsStack(body);
  if (!event) throw badRequest('Paramètre « event » manquant : ChirpStack l’ajoute à l’adresse (?event=up, join, status…).');
  if (!/^[a-z_]{1,32}$/.test(event)) throw badRequest('Paramètre « event » invalide.');
  return fromChirpStack(body, event);
}
