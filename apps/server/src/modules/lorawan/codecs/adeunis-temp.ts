import { NNBSP, defineCodec, done, fail, hex, i16be, tooShort, u32be, u8, deviceTime, type Outcome } from './frame.ts';
import type { Codec, CodecInput, DecodedReading } from './types.ts';

/*
 * Adeunis TEMP (version 4), numbers big-endian. Byte 0 the frame code, byte 1 the status: bits 7–5
 * a frame counter, bit 4 « two channels », bit 2 « timestamp at the end », bit 1 « low battery ».
 * A timestamp counts seconds since 2013-01-01 00:00 UTC (uint32).
 *   0x57 periodic data: the samples, newest first, each channel's value (int16, 0.1 °C) in turn,
 *        then the timestamp if flagged
 *   0x30 keep-alive: channel 1 (int16, 0.1 °C), channel 2 if flagged, then the timestamp if flagged
 *   0x58 alarm: per channel its alarm state (1) and value (int16, 0.1 °C), then the timestamp if flagged
 *   0x10 configuration, 0x20 network configuration, 0x2F downlink acknowledgement, 0x33 register
 *        status, 0x36 alert, 0x37 software version: no measure.
 * Channel 1 is the device's built-in sensor (`temperature`), channel 2 its external probe
 * (`probe_temperature`). Of a 0x57 frame, Vigie keeps the newest sample: the older ones are
 * spaced by the device's sampling period, which is in its configuration, not in the frame.
 */
const EPOCH_2013 = 1_356_998_400;
const NO_MEASURE: ReadonlyMap<number, string> = new Map([
  [0x10, 'configuration'],
  [0x20, 'configuration réseau'],
  [0x2f, 'accusé de réception d’une commande'],
  [0x33, 'état d’un registre'],
  [0x36, 'alerte de l’appareil'],
  [0x37, 'versions du logiciel'],
]);

function decodeAdeunisTemp(input: CodecInput): Outcome {
  const { bytes, recvTime } = input;
  if (bytes.length < 2) return fail(tooShort('un Adeunis TEMP', bytes.length, 2));
  const code = u8(bytes, 0);
  const status = u8(bytes, 1);
  const channels = status & 0x10 ? 2 : 1;
  const stamped = (status & 0x04) !== 0;
  const warnings = status & 0x02 ? ['L’Adeunis TEMP signale une pile faible.'] : [];
  const what = NO_MEASURE.get(code);
  if (what) return done([], [...warnings, `Trame de ${what} d’un Adeunis TEMP, sans mesure.`]);

  // Where each channel's value is, and the length the frame must have.
  let offsets: number[];
  if (code === 0x57 || code === 0x30) offsets = channels === 2 ? [2, 4] : [2];
  else if (code === 0x58) offsets = channels === 2 ? [3, 6] : [3];
  else return fail(`Trame Adeunis TEMP de code ${hex(code)} inconnue (0x57, 0x30 ou 0x58 attendu pour les mesures).`);
  const end = Math.max(...offsets) + 2;
  const needed = end + (stamped ? 4 : 0);
  if (bytes.length < needed) return fail(tooShort('un Adeunis TEMP', bytes.length, needed));

  let ts: Date | null = null;
  if (stamped) {
    const seconds = u32be(bytes, code === 0x57 ? bytes.length - 4 : end);
    ts = deviceTime(EPOCH_2013 + seconds, recvTime);
    if (ts === null) {
      warnings.push(
        `Horodatage de l’appareil invalide (${seconds}\u00A0s depuis 2013, loin de la réception)${NNBSP}: la lecture est datée de sa réception.`,
      );
    }
  }
  const names = ['temperature', 'probe_temperature'];
  const values: Record<string, number> = {};
  offsets.forEach((at, index) => (values[names[index] as string] = i16be(bytes, at) / 10));
  const reading: DecodedReading = { ts, values };
  return done([reading], warnings);
}

export const adeunisTemp: Codec = defineCodec({
  id: 'adeunis-temp',
  vendor: 'Adeunis',
  model: 'TEMP',
  measures: ['temperature', 'probe_temperature'],
  subject: 'un Adeunis TEMP',
  decode: decodeAdeunisTemp,
});
