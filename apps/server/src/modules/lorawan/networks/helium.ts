import { base64Bytes, bestGateway, finite, isObject, millis, type NetworkMessage, normalDevEui, requireDevEui, text } from './message.ts';

/**
 * Helium (an HTTP integration of its console): `{type: "uplink", uuid, dev_eui, devaddr, fcnt, port,
 * payload, reported_at, hotspots: [{id, name, rssi, snr, …}], decoded?}`, the payload in base64 and
 * `reported_at` in milliseconds. Another `type` (`join`…) is answered, not stored.
 */
export function fromHelium(body: Record<string, unknown>): NetworkMessage {
  const type = text(body['type']);
  if (type !== null && type !== 'uplink') return { kind: 'other', devEui: normalDevEui(body['dev_eui']), name: type.slice(0, 64) };
  const devEui = requireDevEui(body['dev_eui']);
  const hotspot = bestGateway(body['hotspots'], (entry) => ({
    rssi: finite(entry['rssi']),
    snr: finite(entry['snr']),
    id: text(entry['id']),
  }));
  // A console function's decoding: `decoded: {status: "success", payload: {…}}`.
  const decoded = isObject(body['decoded']) && isObject(body['decoded']['payload']) ? body['decoded']['payload'] : null;
  return {
    kind: 'uplink',
    devEui,
    devAddr: text(body['devaddr'])?.toLowerCase() ?? null,
    fCnt: finite(body['fcnt']),
    receptionId: text(body['uuid']),
    fPort: finite(body['port']),
    bytes: base64Bytes(body['payload'], 'payload'),
    decoded,
    receivedAt: millis(body['reported_at']),
    rssi: hotspot.rssi,
    snr: hotspot.snr,
    gateway: hotspot.id,
    versionIds: null,
  };
}
