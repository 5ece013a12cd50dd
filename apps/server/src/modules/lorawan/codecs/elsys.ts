import {
  LITHIUM_3V6,
  NNBSP,
  batteryPercent,
  defineCodec,
  done,
  fail,
  hex,
  i16be,
  octets,
  tooShort,
  u16be,
  u32be,
  u8,
  type Outcome,
} from './frame.ts';
import type { Codec, CodecInput } from './types.ts';

/*
 * Elsys generic payload (ERS, ERS Lite, ERS CO2 and the rest of the range): a run of « type (1 byte),
 * data », the data's length set by the type; numbers are big-endian. The types read here:
 *   0x01 temperature, int16, 0.1 °C        0x07 supply voltage, uint16, mV
 *   0x02 humidity, uint8, %                0x0C external temperature, int16, 0.1 °C
 *   0x04 light, uint16, lux                0x11 occupancy, uint8: 0 none, 1 entering or leaving, 2 occupied
 *   0x05 motion count (PIR), uint8         0x14 pressure, uint32, 0.001 hPa
 *   0x06 CO₂, uint16, ppm
 * For the EMS (door, water leak and accelerometer sensor) also: 0x0A pulse count (uint16: its
 * door switch's openings) and 0x0D external digital input (uint8).
 * The other documented types are skipped by their length; 0x3E (settings) carries its own length
 * in its first byte.
 */
const LENGTHS: ReadonlyMap<number, number> = new Map([
  [0x01, 2], // temperature
  [0x02, 1], // humidity
  [0x03, 3], // acceleration x, y, z
  [0x04, 2], // light
  [0x05, 1], // motion count
  [0x06, 2], // CO₂
  [0x07, 2], // supply voltage
  [0x08, 2], // analog input 1
  [0x09, 6], // GPS
  [0x0a, 2], // pulse count 1
  [0x0b, 4], // pulse count 1, absolute
  [0x0c, 2], // external temperature
  [0x0d, 1], // external digital input
  [0x0e, 2], // external distance
  [0x0f, 1], // acceleration-detected motion
  [0x10, 4], // IR temperature, internal and external
  [0x11, 1], // occupancy
  [0x12, 1], // water leak level
  [0x13, 65], // Grid-EYE
  [0x14, 4], // pressure
  [0x15, 2], // sound, peak and average
  [0x16, 2], // pulse count 2
  [0x17, 4], // pulse count 2, absolute
  [0x18, 2], // analog input 2
  [0x19, 2], // external temperature 2
  [0x1a, 1], // external digital input 2
  [0x1b, 4], // external analog, µV
  [0x1c, 2], // TVOC
  [0x3d, 4], // debug
]);
const SETTINGS = 0x3e;

/*
 * Battery: the ERS family runs on a 3.6 V lithium AA cell; its supply voltage (0x07) is turned into
 * a percentage with the linear map LITHIUM_3V6 (2.5 V empty, 3.6 V full).
 */
const ERS_MEASURES = ['temperature', 'humidity', 'light', 'motion', 'co2', 'occupancy', 'pressure', 'probe_temperature', 'battery'];
const EMS_MEASURES = ['temperature', 'humidity', 'pulse', 'digital_input', 'probe_temperature', 'battery'];

/** The values of the types each model reads (`measures`): a type of the other family is skipped by its length. */
function decodeElsys(input: CodecInput, measures: readonly string[]): Outcome {
  const { bytes } = input;
  if (bytes.length < 2) return fail(tooShort('un capteur Elsys', bytes.length, 2));
  const values: Record<string, number> = {};
  const warnings: string[] = [];
  let problem = false;
  let at = 0;
  while (at < bytes.length) {
    const type = u8(bytes, at);
    const length = type === SETTINGS ? (at + 1 < bytes.length ? 1 + u8(bytes, at + 1) : 1) : LENGTHS.get(type);
    if (length === undefined) {
      warnings.push(
        `Type ${hex(type)} inconnu d’une trame Elsys, à l’octet ${at + 1}${NNBSP}: la fin de la trame (${octets(bytes.length - at)}) est ignorée.`,
      );
      problem = true;
      break;
    }
    const data = at + 1;
    if (data + length > bytes.length) {
      const got = bytes.length - data;
      warnings.push(`Trame Elsys tronquée${NNBSP}: le type ${hex(type)} annonce ${octets(length)}, ${got} reçu${got > 1 ? 's' : ''}.`);
      problem = true;
      break;
    }
    // A type repeated in the frame keeps its last value, as the maker's decoder does.
    const set = (key: string, value: number) => {
      if (measures.includes(key)) values[key] = value;
    };
    switch (type) {
      case 0x01:
        set('temperature', i16be(bytes, data) / 10);
        break;
      case 0x02:
        set('humidity', u8(bytes, data));
        break;
      case 0x04:
        set('light', u16be(bytes, data));
        break;
      case 0x05:
        set('motion', u8(bytes, data));
        break;
      case 0x06:
        set('co2', u16be(bytes, data));
        break;
      case 0x07:
        set('battery', batteryPercent(u16be(bytes, data) / 1000, LITHIUM_3V6.empty, LITHIUM_3V6.full));
        break;
      case 0x0c:
        set('probe_temperature', i16be(bytes, data) / 10);
        break;
      case 0x0a:
        // The EMS counts its door switch's openings (and the pulses of its input) here.
        set('pulse', u16be(bytes, data));
        break;
      case 0x0d:
        set('digital_input', u8(bytes, data) ? 1 : 0);
        break;
      case 0x11:
        // Someone entering, leaving or sitting counts as present.
        set('occupancy', u8(bytes, data) > 0 ? 1 : 0);
        break;
      case 0x14:
        set('pressure', u32be(bytes, data) / 1000);
        break;
    }
    at = data + length;
  }
  if (Object.keys(values).length === 0) {
    if (problem) return fail(warnings.join(' '));
    if (warnings.length === 0) warnings.push('Trame Elsys sans mesure lue par Vigie (réglages ou données d’un autre type).');
    return done([], warnings);
  }
  return done([{ ts: null, values }], warnings);
}

export const elsysErs: Codec = defineCodec({
  id: 'elsys-ers',
  vendor: 'Elsys',
  model: 'ERS / ERS Lite / ERS CO2',
  measures: ERS_MEASURES,
  subject: 'un capteur Elsys',
  decode: (input) => decodeElsys(input, ERS_MEASURES),
});

export const elsysEms: Codec = defineCodec({
  id: 'elsys-ems',
  vendor: 'Elsys',
  model: 'EMS / EMS Door / EMS Lite',
  measures: EMS_MEASURES,
  subject: 'un capteur Elsys',
  decode: (input) => decodeElsys(input, EMS_MEASURES),
});
