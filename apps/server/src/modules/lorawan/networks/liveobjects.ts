import { date, finite, hexBytes, isObject, type NetworkMessage, normalDevEui, requireDevEui, text } from './message.ts';

const LORA_STREAM = 'urn:lo:nsid:lora:';

/**
 * Orange Live Objects (an HTTP push action of a LoRa device's data messages): `{id, streamId:
 * "urn:lo:nsid:lora:<DevEUI>", timestamp, value: {payload}, metadata: {network: {lora: {devEUI,
 * port, fcnt, rssi, snr, …}}}}`, the payload in hexadecimal. A message of another kind of device,
 * or a LoRa message that is not a data uplink, is answered, not stored.
 */
export function fromLiveObjects(body: Record<string, unknown>): NetworkMessage {
  const metadata = isObject(body['metadata']) ? body['metadata'] : null;
  const network = isObject(metadata?.['network']) ? metadata['network'] : null;
  const lora = isObject(network?.['lora']) ? network['lora'] : null;
  const streamId = typeof body['streamId'] === 'string' ? body['streamId'] : '';
  const fromStream = streamId.startsWith(LORA_STREAM) ? streamId.slice(LORA_STREAM.length) : undefined;
  const messageType = text(lora?.['messageType']);
  if ((!lora && fromStream === undefined) || (messageType !== null && !/DATA_UP$/i.test(messageType))) {
    return {
      kind: 'other',
      devEui: normalDevEui(lora?.['devEUI'] ?? fromStream),
      name: (messageType ?? (text(body['model']) || 'non-lora')).slice(0, 64),
    };
  }
  const devEui = requireDevEui(lora?.['devEUI'] ?? fromStream);
  const value = isObject(body['value']) ? body['value'] : {};
  // What a Live Objects decoder added beside the payload, if any.
  const { payload, ...decoded } = value;
  return {
    kind: 'uplink',
    devEui,
    devAddr: text(lora?.['devAddr'])?.toLowerCase() ?? null,
    fCnt: finite(lora?.['fcnt']),
    receptionId: text(body['id']),
    fPort: finite(lora?.['port']),
    bytes: hexBytes(payload, 'value.payload'),
    decoded: Object.keys(decoded).length > 0 ? decoded : null,
    receivedAt: date(body['timestamp']),
    rssi: finite(lora?.['rssi']),
    snr: finite(lora?.['snr']),
    gateway: null,
    versionIds: null,
  };
}
