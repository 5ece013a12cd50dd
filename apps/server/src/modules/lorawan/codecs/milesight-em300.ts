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
 * Milesight EM300 / EM500 series frame: a run of channels, each « id (1 byte), type (1 byte), data »,
 * the data's length set by the pair. Numbers are little-endian.
 *   0x01 0x75  battery, 1 byte, %
 *   0x03 0x67  temperature, int16, 0.1 °C
 *   0x04 0x68  humidity, uint8, 0.5 %
 *   0x06 0x00  magnet (EM300-MCS), 1 byte: 0 closed, 1 open
 *   0x05 0x00  digital input (EM300-DI), 1 byte: 0 low, 1 high
 *   0x05 0xC8  pulse counter (EM300-DI), uint32
 *   0x06 0xE1  water meter (EM300-DI): 2 conversion factors and a count, 8 bytes, not read
 *   0x83 0xD7  temperature alarm (EM500-PT100): temperature (int16), its change (int16), alarm (1)
 *   0x20 0xCE  history: timestamp (uint32, s) + temperature (int16), then per model:
 *              EM300-TH / EM300-MCS humidity (uint8) + 1 byte (MCS: the magnet; TH: reserved);
 *              EM300-DI humidity + input type (1: level, 2: pulses) + level (1) + pulses (uint32);
 *              EM500-PT100 nothing more
 *   0x21 0xCE  EM300-DI history with a water meter: timestamp, temperature, humidity, then 11 bytes not read
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

type Values = Record<string, number>;

/** A channel of a model: its data's length, and what it adds to the live reading (history entries apart). */
interface Channel {
  length: number;
  read?: (bytes: Uint8Array, at: number, live: Values, warnings: string[], model: string) => void;
  /** A history entry: its time at `at`, its values after it. */
  history?: (bytes: Uint8Array, at: number) => Values;
}

const key = (id: number, type: number) => id * 0x100 + type;
const temperatureAt = (bytes: Uint8Array, at: number) => i16le(bytes, at) / 10;

const BATTERY: [number, Channel] = [key(0x01, 0x75), { length: 1, read: (b, at, live) => (live['battery'] = u8(b, at)) }];
const TEMPERATURE: [number, Channel] = [
  key(0x03, 0x67),
  { length: 2, read: (b, at, live) => (live['temperature'] = temperatureAt(b, at)) },
];
const HUMIDITY: [number, Channel] = [key(0x04, 0x68), { length: 1, read: (b, at, live) => (live['humidity'] = u8(b, at) / 2) }];
const temperatureHumidity = (bytes: Uint8Array, at: number): Values => ({
  temperature: temperatureAt(bytes, at + 4),
  humidity: u8(bytes, at + 6) / 2,
});

const EM300_TH: ReadonlyMap<number, Channel> = new Map([
  BATTERY,
  TEMPERATURE,
  HUMIDITY,
  [key(0x20, 0xce), { length: 8, history: temperatureHumidity }],
]);

const EM300_MCS: ReadonlyMap<number, Channel> = new Map([
  BATTERY,
  TEMPERATURE,
  HUMIDITY,
  [
    key(0x06, 0x00),
    {
      length: 1,
      read: (b, at, live, warnings, model) => {
        const magnet = u8(b, at);
        if (magnet <= 1) live['door'] = magnet;
        else warnings.push(`État d’aimant ${magnet} inconnu d’un ${model} (0 fermé, 1 ouvert attendu)${NNBSP}: ignoré.`);
      },
    },
  ],
  [
    key(0x20, 0xce),
    {
      length: 8,
      history: (b, at) => {
        const values = temperatureHumidity(b, at);
        const magnet = u8(b, at + 7);
        if (magnet <= 1) values['door'] = magnet;
        return values;
      },
    },
  ],
]);

const EM300_DI: ReadonlyMap<number, Channel> = new Map([
  BATTERY,
  TEMPERATURE,
  HUMIDITY,
  [key(0x05, 0x00), { length: 1, read: (b, at, live) => (live['digital_input'] = u8(b, at) ? 1 : 0) }],
  [key(0x05, 0xc8), { length: 4, read: (b, at, live) => (live['pulse'] = u32le(b, at)) }],
  [key(0x06, 0xe1), { length: 8 }],
  [
    key(0x20, 0xce),
    {
      length: 13,
      history: (b, at) => {
        const values = temperatureHumidity(b, at);
        const mode = u8(b, at + 7);
        if (mode === 1) values['digital_input'] = u8(b, at + 8) ? 1 : 0;
        else if (mode === 2) values['pulse'] = u32le(b, at + 9);
        return values;
      },
    },
  ],
  [key(0x21, 0xce), { length: 18, history: temperatureHumidity }],
]);

const EM500_PT100: ReadonlyMap<number, Channel> = new Map([
  BATTERY,
  TEMPERATURE,
  [key(0x83, 0xd7), { length: 5, read: (b, at, live) => (live['temperature'] = temperatureAt(b, at)) }],
  [key(0x20, 0xce), { length: 6, history: (b, at) => ({ temperature: temperatureAt(b, at + 4) }) }],
]);

function channelOf(id: number, type: number, channels: ReadonlyMap<number, Channel>): Channel | null {
  if (id === 0xff || id === 0xfe) {
    const length = ATTRIBUTE_LENGTHS.get(type);
    return length === undefined ? null : { length };
  }
  return channels.get(key(id, type)) ?? null;
}

function decodeMilesight(input: CodecInput, model: string, channels: ReadonlyMap<number, Channel>): Outcome {
  const { bytes, recvTime } = input;
  const subject = `un ${model}`;
  if (bytes.length < 3) return fail(tooShort(subject, bytes.length, 3));

  const live: Values = {};
  const history: DecodedReading[] = [];
  const warnings: string[] = [];
  let problem = false;
  let at = 0;
  while (at < bytes.length) {
    const id = u8(bytes, at);
    const type = u8(bytes, at + 1);
    const channel = at + 1 < bytes.length ? channelOf(id, type, channels) : null;
    if (channel === null) {
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
    if (data + channel.length > bytes.length) {
      const got = bytes.length - data;
      warnings.push(
        `Trame ${model} tronquée${NNBSP}: le canal ${hex(id)} ${hex(type)} annonce ${octets(channel.length)}, ${got} reçu${got > 1 ? 's' : ''}.`,
      );
      problem = true;
      break;
    }
    channel.read?.(bytes, data, live, warnings, model);
    if (channel.history) {
      const seconds = u32le(bytes, data);
      const ts = deviceTime(seconds, recvTime);
      if (ts === null) warnings.push(badDeviceTime(seconds));
      else history.push({ ts, values: channel.history(bytes, data) });
    }
    at = data + channel.length;
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
  decode: (input) => decodeMilesight(input, 'EM300-TH', EM300_TH),
});

export const milesightEm300Mcs: Codec = defineCodec({
  id: 'milesight-em300-mcs',
  vendor: 'Milesight',
  model: 'EM300-MCS',
  measures: ['door', 'temperature', 'humidity', 'battery'],
  subject: 'un EM300-MCS',
  decode: (input) => decodeMilesight(input, 'EM300-MCS', EM300_MCS),
});

export const milesightEm300Di: Codec = defineCodec({
  id: 'milesight-em300-di',
  vendor: 'Milesight',
  model: 'EM300-DI',
  measures: ['temperature', 'humidity', 'digital_input', 'pulse', 'battery'],
  subject: 'un EM300-DI',
  decode: (input) => decodeMilesight(input, 'EM300-DI', EM300_DI),
});

export const milesightEm500Pt100: Codec = defineCodec({
  id: 'milesight-em500-pt100',
  vendor: 'Milesight',
  model: 'EM500-PT100',
  measures: ['temperature', 'battery'],
  subject: 'un EM500-PT100',
  decode: (input) => decodeMilesight(input, 'EM500-PT100', EM500_PT100),
});
