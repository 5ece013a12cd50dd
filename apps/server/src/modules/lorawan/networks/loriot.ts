import { bestGateway, finite, gatewayId, hexBytes, millis, type NetworkMessage, normalDevEui, requireDevEui, text } from './message.ts';

/**
 * Loriot (an HTTP Push application output): `{cmd: "rx", EUI, ts, fcnt, port, data, rssi, snr, …}`,
 * `ts` in milliseconds and `data` in hexadecimal; `cmd: "gw"` is the same uplink with the list of
 * gateways that heard it (`gws`). Its other messages (`tx`, `txd`…) are answered, not stored.
 */
export function fromLoriot(body: Record<string, unknown>): NetworkMessage {
  const cmd = text(body['cmd']) ?? 'inconnu';
  if (cmd !== 'rx' && cmd !== 'gw') return { kind: 'other', devEui: normalDevEui(body['EUI']), name: cmd.slice(0, 64) };
  const devEui = requireDevEui(body['EUI']);
  const heard = bestGateway(body['gws'], (entry) => ({
    rssi: finite(entry['rssi']),
    snr: finite(entry['snr']),
    id: gatewayId(entry['gweui']),
  }));
  return {
    kind: 'uplink',
    devEui,
    devAddr: text(body['devaddr'])?.toLowerCase() ?? null,
    fCnt: finite(body['fcnt']),
    receptionId: null,
    fPort: finite(body['port']),
    // Left encrypted (`encdata`, no application key given to Loriot): no bytes, the codec says so.
    bytes: hexBytes(body['data'], 'data'),
    decoded: null,
    receivedAt: millis(body['ts']),
    rssi: heard.rssi ?? finite(body['rssi']),
    snr: heard.rssi === null ? finite(body['snr']) : heard.snr,
    gateway: heard.id,
    versionIds: null,
  };
}
