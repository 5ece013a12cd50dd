import { randomBytes } from 'node:crypto';

/**
 * Milesight EM300-TH, its maker's example: battery 92 %, 30,8 °C, 50,5 % (channels 01 75, 03 67, 04 68).
 * Source: Milesight-IoT/SensorDecoders, EM_Series/EM300_Series/EM300-TH/README.md.
 */
export const EM300_FRAME = Buffer.from('0175' + '5c' + '0367' + '3401' + '0468' + '65', 'hex');

/** A random DevEUI (16 hexadecimal digits, lower case). */
export const devEui = (): string => randomBytes(8).toString('hex');

/** A gateway that heard a frame, as The Things Stack's `rx_metadata` names it. */
export interface HeardBy {
  id: string;
  eui: string;
  rssi: number;
  snr: number;
}

/** Two gateways of a shop, the reserve's heard best. */
export const LYON_GATEWAYS: readonly HeardBy[] = [
  { id: 'passerelle-lyon', eui: 'B827EBFFFE6C2A11', rssi: -97, snr: 6.2 },
  { id: 'passerelle-reserve', eui: 'B827EBFFFE6C2A12', rssi: -71, snr: 9.5 },
];

/** The Things Stack v3's uplink message, as its webhook posts it and its MQTT integration publishes it. */
export function ttsUplink(
  eui: string,
  options: { fCnt?: number; frame?: Buffer; receivedAt?: Date; versionIds?: object; devAddr?: string; heardBy?: readonly HeardBy[] } = {},
) {
  const receivedAt = (options.receivedAt ?? new Date()).toISOString();
  return {
    end_device_ids: {
      device_id: `eui-${eui}`,
      application_ids: { application_id: 'magasin-lyon' },
      dev_eui: eui.toUpperCase(),
      join_eui: '24E124C0002A0001',
      dev_addr: options.devAddr ?? '260B1A2F',
    },
    correlation_ids: ['as:up:01HZX'],
    received_at: receivedAt,
    uplink_message: {
      session_key_id: 'AYx1',
      f_port: 85,
      f_cnt: options.fCnt ?? 1,
      frm_payload: (options.frame ?? EM300_FRAME).toString('base64'),
      rx_metadata: (options.heardBy ?? LYON_GATEWAYS).map((gateway) => ({
        gateway_ids: { gateway_id: gateway.id, eui: gateway.eui },
        rssi: gateway.rssi,
        channel_rssi: gateway.rssi,
        snr: gateway.snr,
      })),
      settings: { data_rate: { lora: { bandwidth: 125000, spreading_factor: 7 } }, frequency: '868100000' },
      received_at: receivedAt,
      ...(options.versionIds ? { version_ids: options.versionIds } : {}),
    },
  };
}
