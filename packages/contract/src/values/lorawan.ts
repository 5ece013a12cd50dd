/**
 * The three styles makers publish a LoRaWAN codec in, as a pasted codec's test names the one it
 * recognised: LoRa Alliance TS013 `decodeUplink(input)`, ChirpStack v3 `Decode(fPort, bytes,
 * variables)`, The Things Network v2 `Decoder(bytes, port)`.
 */
export const PASTED_CODEC_STYLES = ['ts013', 'chirpstack-v3', 'ttn-v2'] as const;
export type PastedCodecStyle = (typeof PASTED_CODEC_STYLES)[number];

/** How the test console names each style. */
export const PASTED_CODEC_STYLE_LABELS: Record<PastedCodecStyle, string> = {
  ts013: 'LoRa Alliance TS013, decodeUplink(input)',
  'chirpstack-v3': 'ChirpStack v3, Decode(fPort, bytes, variables)',
  'ttn-v2': 'The Things Network v2, Decoder(bytes, port)',
};
