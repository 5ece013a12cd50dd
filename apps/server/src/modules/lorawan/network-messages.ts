/**
 * Each network's message read into one `NetworkMessage`: The Things Stack v3 (webhook or MQTT
 * integration, the message as its API documents it: `end_device_ids`, `uplink_message`,
 * `join_accept`…) and ChirpStack v4 (HTTP integration, JSON encoding, the event named in the query:
 * `up`, `join`, `status`, `ack`, `txack`, `log`, `location`, `integration`) here; Actility
 * ThingPark, Orange Live Objects, Loriot and Helium in `networks/`, one file each.
 */
import type { IntegrationType } from '@vigie/contract';
import { AppError } from '../../errors.ts';
import { fromHelium } from './networks/helium.ts';
import { fromLiveObjects } from './networks/liveobjects.ts';
import { fromLoriot } from './networks/loriot.ts';
import {
  base64Bytes,
  bestGateway,
  date,
  finite,
  isObject,
  MessageRefusal,
  type NetworkMessage,
  normalDevEui,
  requireDevEui,
  text,
} from './networks/message.ts';
import { fromThingPark } from './networks/thingpark.ts';

export { MessageRefusal, type NetworkMessage, normalDevEui } from './networks/message.ts';

/** A body that came as XML (`text/xml`, `application/xml`): kept aside to be refused with its reason once the secret is checked. */
export class XmlBody {
  readonly xml = true;
}

/** A body declared JSON that is not (cut short, another charset, a forbidden character): refused with its reason once the secret is checked. */
export class MalformedBody {
  constructor(readonly reason: string) {}
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

/** The message in one shape; a body that is not one of the server's messages is a `MessageRefusal` with its French reason. */
export function readNetworkMessage(type: IntegrationType, body: unknown, event: string | undefined): NetworkMessage {
  if (body instanceof XmlBody) {
    throw new AppError(
      415,
      type === 'thingpark'
        ? 'ThingPark envoie ici du XML : Vigie ne lit que le JSON. Dans la connexion ThingPark, choisissez le format de contenu JSON.'
        : 'Message en XML : Vigie ne lit que le JSON (Content-Type: application/json).',
    );
  }
  if (body instanceof MalformedBody) throw new MessageRefusal('malformed', body.reason);
  if (!isObject(body)) throw new MessageRefusal('malformed', 'Le message doit être un objet JSON, tel que le serveur de réseau l’envoie.');
  if (type === 'tts') return fromTheThingsStack(body);
  if (type === 'thingpark') return fromThingPark(body);
  if (type === 'liveobjects') return fromLiveObjects(body);
  if (type === 'loriot') return fromLoriot(body);
  if (type === 'helium') return fromHelium(body);
  if (!event)
    throw new MessageRefusal('malformed', 'Paramètre « event » manquant : ChirpStack l’ajoute à l’adresse (?event=up, join, status…).');
  if (!/^[a-z_]{1,32}$/.test(event)) throw new MessageRefusal('malformed', 'Paramètre « event » invalide.');
  return fromChirpStack(body, event);
}
