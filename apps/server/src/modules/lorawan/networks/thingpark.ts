import {
  bestGateway,
  date,
  gatewayId,
  hexBytes,
  isObject,
  type NetworkMessage,
  normalDevEui,
  numeric,
  requireDevEui,
  text,
} from './message.ts';

/** The base stations that heard the frame: `Lrrs.Lrr` is a list (or, read from XML, a single one). */
function stations(uplink: Record<string, unknown>): unknown[] {
  const lrrs = uplink['Lrrs'];
  const list = isObject(lrrs) ? lrrs['Lrr'] : lrrs;
  const heard = Array.isArray(list) ? list : isObject(list) ? [list] : [];
  // The best station's signal as ThingPark reports it beside the list, with its id.
  return [{ Lrrid: uplink['Lrrid'], LrrRSSI: uplink['LrrRSSI'], LrrSNR: uplink['LrrSNR'] }, ...heard.slice(0, 63)];
}

/**
 * Actility ThingPark (a ThingPark Wireless or ThingPark Enterprise connection to an HTTP
 * application server, JSON): `{"DevEUI_uplink": {Time, DevEUI, DevAddr, FPort, FCntUp, payload_hex,
 * LrrRSSI, LrrSNR, Lrrid, Lrrs: {Lrr: […]}, …}}`, its numbers as numbers or as text. Its other
 * messages (`DevEUI_notification`, `DevEUI_location`, `DevEUI_downlink_Sent`…) are answered, not stored.
 */
export function fromThingPark(body: Record<string, unknown>): NetworkMessage {
  const uplink = body['DevEUI_uplink'];
  if (!isObject(uplink)) {
    const name = Object.keys(body)[0] ?? 'inconnu';
    const inner = body[name];
    return { kind: 'other', devEui: isObject(inner) ? normalDevEui(inner['DevEUI']) : null, name: name.slice(0, 64) };
  }
  const devEui = requireDevEui(uplink['DevEUI']);
  const gateway = bestGateway(stations(uplink), (entry) => ({
    rssi: numeric(entry['LrrRSSI']),
    snr: numeric(entry['LrrSNR']),
    id: gatewayId(entry['Lrrid'])?.toLowerCase() ?? null,
  }));
  return {
    kind: 'uplink',
    devEui,
    devAddr: text(uplink['DevAddr'])?.toLowerCase() ?? null,
    fCnt: numeric(uplink['FCntUp']),
    receptionId: null,
    fPort: numeric(uplink['FPort']),
    bytes: hexBytes(uplink['payload_hex'], 'DevEUI_uplink.payload_hex'),
    // A ThingPark driver's decoding, when the connection has one.
    decoded: isObject(uplink['payload']) ? uplink['payload'] : null,
    receivedAt: date(uplink['Time']),
    rssi: gateway.rssi,
    snr: gateway.snr,
    gateway: gateway.id,
    versionIds: null,
  };
}
