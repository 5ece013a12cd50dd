import { NNBSP, defineCodec, done, fail, hex, i16be, i24be, octets, shortFrame, u16be, u32be, u8, type Outcome } from './frame.ts';
import type { Codec, CodecInput } from './types.ts';

/*
 * Cayenne Low Power Payload: a run of « channel (1 byte), type (1 byte), data », the data's length
 * and resolution set by the type (IPSO object id − 3200); numbers are big-endian. The original types
 * (digital and analog in/out, illuminance, presence, temperature, humidity, accelerometer,
 * barometer, gyrometer, GPS) and the common extended ones (generic, voltage, current, frequency,
 * percentage, altitude, power, distance, energy, direction, Unix time, switch, concentration, colour).
 *
 * Names: a type's first value in the frame takes the plain name (`temperature`); the same type on
 * another channel of the same frame adds the channel (`temperature_5`).
 */
interface LppType {
  size: number;
  /** The measure names and values of the data; none for types Vigie does not store. */
  read(bytes: Uint8Array, at: number): [string, number][];
}

const one = (name: string, read: (bytes: Uint8Array, at: number) => number, size: number): LppType => ({
  size,
  read: (bytes, at) => [[name, read(bytes, at)]],
});
const axes = (prefix: string, scale: number): LppType => ({
  size: 6,
  read: (bytes, at) => [
    [`${prefix}_x`, i16be(bytes, at) / scale],
    [`${prefix}_y`, i16be(bytes, at + 2) / scale],
    [`${prefix}_z`, i16be(bytes, at + 4) / scale],
  ],
});
const skipped = (size: number): LppType => ({ size, read: () => [] });

const TYPES: ReadonlyMap<number, LppType> = new Map([
  [0x00, one('digital_input', u8, 1)],
  [0x01, one('digital_output', u8, 1)],
  [0x02, one('analog_input', (b, at) => i16be(b, at) / 100, 2)],
  [0x03, one('analog_output', (b, at) => i16be(b, at) / 100, 2)],
  [0x64, one('generic', u32be, 4)],
  [0x65, one('light', u16be, 2)],
  [0x66, one('occupancy', (b, at) => (u8(b, at) > 0 ? 1 : 0), 1)],
  [0x67, one('temperature', (b, at) => i16be(b, at) / 10, 2)],
  [0x68, one('humidity', (b, at) => u8(b, at) / 2, 1)],
  [0x71, axes('acceleration', 1000)],
  [0x73, one('pressure', (b, at) => u16be(b, at) / 10, 2)],
  [0x74, one('voltage', (b, at) => u16be(b, at) / 100, 2)],
  [0x75, one('current', (b, at) => u16be(b, at) / 1000, 2)],
  [0x76, one('frequency', u32be, 4)],
  [0x78, one('percentage', u8, 1)],
  [0x79, one('altitude', i16be, 2)],
  [0x80, one('power', u16be, 2)],
  [0x82, one('distance', (b, at) => u32be(b, at) / 1000, 4)],
  [0x83, one('energy', (b, at) => u32be(b, at) / 1000, 4)],
  [0x84, one('direction', u16be, 2)],
  [0x85, skipped(4)], // Unix time
  [0x86, axes('gyration', 100)],
  [
    0x88,
    {
      size: 9,
      read: (b, at) => [
        ['latitude', i24be(b, at) / 10000],
        ['longitude', i24be(b, at + 3) / 10000],
        ['altitude', i24be(b, at + 6) / 100],
      ],
    },
  ],
  [0x8e, one('switch', u8, 1)],
  [0x8f, one('concentration', u16be, 2)],
  [0x90, skipped(3)], // colour
]);

const CAYENNE_MEASURES = [...new Set([...TYPES.values()].flatMap((type) => type.read(new Uint8Array(9), 0).map(([name]) => name)))];

function decodeCayenne(input: CodecInput): Outcome {
  const { bytes } = input;
  if (bytes.length < 3) return fail(shortFrame('Trame Cayenne LPP trop courte', bytes.length, 3));
  const values: Record<string, number> = {};
  const warnings: string[] = [];
  let problem = false;
  let at = 0;
  while (at < bytes.length) {
    const channel = u8(bytes, at);
    const code = u8(bytes, at + 1);
    const type = at + 1 < bytes.length ? TYPES.get(code) : undefined;
    if (!type) {
      warnings.push(
        at + 1 < bytes.length
          ? `Type Cayenne ${hex(code)} inconnu sur le canal ${channel}${NNBSP}: la fin de la trame (${octets(bytes.length - at)}) est ignorée.`
          : `Trame Cayenne LPP tronquée${NNBSP}: un octet isolé la termine, il est ignoré.`,
      );
      problem = true;
      break;
    }
    const data = at + 2;
    if (data + type.size > bytes.length) {
      const got = bytes.length - data;
      warnings.push(
        `Trame Cayenne LPP tronquée${NNBSP}: le type ${hex(code)} du canal ${channel} annonce ${octets(type.size)}, ${got} reçu${got > 1 ? 's' : ''}.`,
      );
      problem = true;
      break;
    }
    for (const [name, value] of type.read(bytes, data)) {
      const key = name in values ? `${name}_${channel}` : name;
      if (!(key in values)) values[key] = value;
    }
    at = data + type.size;
  }
  if (Object.keys(values).length === 0) {
    if (problem) return fail(warnings.join(' '));
    return done([], warnings.length > 0 ? warnings : ['Trame Cayenne LPP sans mesure lue par Vigie (heure ou couleur seulement).']);
  }
  return done([{ ts: null, values }], warnings);
}

export const cayenneLpp: Codec = defineCodec({
  id: 'cayenne-lpp',
  vendor: 'myDevices',
  model: 'Cayenne LPP',
  measures: CAYENNE_MEASURES,
  subject: 'le format Cayenne LPP',
  decode: decodeCayenne,
});
