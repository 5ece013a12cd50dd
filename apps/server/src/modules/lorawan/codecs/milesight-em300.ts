import {
  NNBSP,
  badDeviceTime,
  defineCodec,
  deviceTime,
  done,
  fail,
  hex,
  i16le,
  octets,
  tooShort,
  u32le,
  u8,
  type Outcome,
} from './frame.ts';
import type { Codec, CodecInput, DecodedReading } from './types.ts';

/*
 * Milesight EM300 series frame: a run of channels, each « id (1 byte), type (1 byte), data », the
 * data's length set by the pair. Numbers are little-endian.
 *   0x01 0x75  battery, 1 byte, %
 *   0x03 0x67  temperature, int16, 0.1 °C
 *   0x04 0x68  humidity, uint8, 0.5 %
 *   0x06 0x00  magnet (EM300-MCS), 1 byte: 0 closed, 1 open
 *   0x20 0xCE  history: timestamp (uint32, s) + temperature (int16) + humidity (uint8) + 1 byte
 *              (EM300-MCS: the magnet; EM300-TH: reserved)
 * Channels 0xFF and 0xFE carry the device's attributes (versions, serial number, class, reset,
 * status) and its answers to commands: their lengths below let a frame mixing them with readings be read.
 */
const ATTRIBUTE_LENGTHS: ReadonlyMap<number, number> = new Map([
  [0x01, 1], // IPSO version
  [0x09, 2], // hardware version
  [0x0a, 2], // firmware version
  [0xff, 2], // TSL version
  [0x16, 8], // serial number
  [0x0f, 1], // LoRaWAN class
  [0xfe, 1], // reset event
  [0x0b, 1], // device status
  [0x02, 2], // collection interval
  [0x03, 2], // report interval
  [0x06, 9], // temperature alarm settings
  [0x10, 1], // reboot
  [0x27, 1], // history cleared
  [0x28, 1], // report status
  [0x68, 1], // history enabled
  [0x69, 1], // retransmission enabled
  [0x6a, 3], // retransmission / resend interval
  [0x6d, 1], // transmission stopped
  [0x79, 6], // D2D settings
  [0xea, 3], // calibration settings
]);

const HISTORY_LENGTH = 8;

function channelLength(id: number, type: number, withMagnet: boolean): number | null {
  if (id === 0xff || id === 0xfe) return ATTRIBUTE_LENGTHS.get(type) ?? null;
  if (id === 0x01 && type === 0x75) return 1;
  if (id === 0x03 && type === 0x67) return 2;
  if (id === 0x04 && type === 0x68) return 1;
  if (withMagnet && id === 0x06 && type === 0x00) return 1;
  if (id === 0x20 && type === 0xce) return HISTORY_LENGTH;
  return null;
}

function decodeEm300(input: CodecInput, model: string, withMagnet: boolean): Outcome {
  const { bytes, recvTime } = input;
  const subject = `un ${model}`;
  if (bytes.length < 3) return fail(tooShort(subject, bytes.length, 3));

  const live: Record<string, number> = {};
  const history: DecodedReading[] = [];
  const warnings: string[] = [];
  let problem = false;
  let at = 0;
  while (at < bytes.length) {
    const id = u8(bytes, at);
    const type = u8(bytes, at + 1);
    const length = at + 1 < bytes.length ? channelLength(id, type, withMagnet) : null;
    if (length === null) {
      const rest = bytes.length - at;
      warnings.push(
        at + 1 < bytes.length
          ? `Canal ${hex(id)} ${hex(type)} inconnu d’un ${model}, à l’octet ${at + 1}${NNBSP}: la fin de la trame (${octets(rest)}) est ignorée.`
          : `Trame ${model} tronquée${NNBSP}: un octet isolé (${hex(id)}) la termine, il est ignoré.`,
      );
      problem = true;
      break;
    }
    const data = at + 2;
    if (data + length > bytes.length) {
      const got = bytes.length - data;
      warnings.push(
        `Trame ${model} tronquée${NNBSP}: le canal ${hex(id)} ${hex(type)} annonce ${octets(length)}, ${got} reçu${got > 1 ? 's' : ''}.`,
      );
      problem = true;
      break;
    }
    if (id === 0x01) live['battery'] = u8(bytes, data);
    else if (id === 0x03) live['temperature'] = i16le(bytes, data) / 10;
    else if (id === 0x04) live['humidity'] = u8(bytes, data) / 2;
    else if (id === 0x06) {
      const magnet = u8(bytes, data);
      if (magnet <= 1) live['door'] = magnet;
      else warnings.push(`État d’aimant ${magnet} inconnu d’un ${model} (0 fermé, 1 ouvert attendu)${NNBSP}: ignoré.`);
    } else if (id === 0x20) {
      const seconds = u32le(bytes, data);
      const ts = deviceTime(seconds, recvTime);
      if (ts === null) warnings.push(badDeviceTime(seconds));
      else {
        const values: Record<string, number> = {
          temperature: i16le(bytes, data + 4) / 10,
          humidity: u8(bytes, data + 6) / 2,
        };
        const magnet = u8(bytes, data + 7);
        if (withMagnet && magnet <= 1) values['door'] = magnet;
        history.push({ ts, values });
      }
    }
    at = data + length;
  }

  const readings: DecodedReading[] = Object.keys(live).length > 0 ? [{ ts: null, values: live }, ...history] : history;
  if (readings.length === 0) {
    if (problem) return fail(warnings.join(' '));
    if (warnings.length === 0) warnings.push(`Trame ${model} sans mesure (informations de l’appareil ou réponse à une commande).`);
  }
  return done(readings, warnings);
}

export const milesightEm300Th: Codec = defineCodec({
  id: 'milesight-em300-th',
  vendor: 'Milesight',
  model: 'EM300-TH',
  measures: ['temperature', 'humidity', 'battery'],
  subject: 'un EM300-TH',
  decode: (input) => decodeEm300(input, 'EM300-TH', false),
});

export const milesightEm300Mcs: Codec = defineCodec({
  id: 'milesight-em300-mcs',
  vendor: 'Milesight',
  model: 'EM300-MCS',
  measures: ['door', 'temperature', 'humidity', 'battery'],
  subject: 'un EM300-MCS',
  decode: (input) => decodeEm300(input, 'EM300-MCS', true),
});
