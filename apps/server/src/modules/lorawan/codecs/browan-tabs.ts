import { LITHIUM_3V6, NNBSP, batteryPercent, defineCodec, done, fail, tooShort, u16le, u8, wrongPort, type Outcome } from './frame.ts';
import type { Codec, CodecInput } from './types.ts';

/*
 * Browan Tabs sensors, 8-byte frames. Common bytes:
 *   byte 1  battery: bits 3–0 a value ν, voltage = (25 + ν) / 10 V (bits 7–4 reserved)
 *   byte 2  temperature: bits 6–0 a value τ, °C = τ − 32 (1 °C steps, −32 to 95 °C)
 * TBHH100 (temperature and humidity), port 103: byte 0 status (bit 3: 1 temperature-humidity
 * sensor, 0 air-quality sensor), byte 3 humidity (bits 6–0, %; 127 = measurement error), bytes 4–7
 * reserved for the air-quality model (0xFF here).
 * TBDW100 (door and window), port 100: byte 0 bit 0 the contact (1 open, 0 closed), byte 2 the
 * board's temperature, bytes 3–4 minutes since the last event, bytes 5–7 the event count.
 * TBHV110 (indoor air quality), port 103: byte 0 status, byte 2 the board's temperature, byte 3
 * humidity, bytes 4–5 eCO₂ (uint16 little-endian, ppm), 6–7 VOC (ppb), 8–9 an air-quality index,
 * byte 10 the sensor's temperature (bits 6–0, °C = τ − 32), which Vigie keeps. An all-zero frame is empty.
 * All answer configuration commands on port 204 and describe themselves on port 222: no measure.
 *
 * Battery: a 3.6 V lithium cell (the maker's examples read 3.6 V), turned into a percentage with
 * the linear map LITHIUM_3V6 (2.5 V empty, 3.6 V full).
 */
const HUMIDITY_ERROR = 127;

function common(bytes: Uint8Array): Record<string, number> {
  return {
    temperature: (u8(bytes, 2) & 0x7f) - 32,
    battery: batteryPercent((25 + (u8(bytes, 1) & 0x0f)) / 10, LITHIUM_3V6.empty, LITHIUM_3V6.full),
  };
}

function information(model: string, fPort: number): Outcome | null {
  if (fPort === 204) return done([], [`Réponse d’un ${model} à une commande de configuration, sans mesure.`]);
  if (fPort === 222) return done([], [`Trame de présentation d’un ${model} (versions), sans mesure.`]);
  return null;
}

function decodeTbhh100(input: CodecInput): Outcome {
  const { bytes, fPort } = input;
  const info = information('TBHH100', fPort);
  if (info) return info;
  if (fPort !== 103) return fail(wrongPort('un TBHH100', fPort, 'les mesures arrivent sur le port 103'));
  if (bytes.length < 4) return fail(tooShort('un TBHH100', bytes.length, 4));
  const values = common(bytes);
  const warnings: string[] = [];
  const humidity = u8(bytes, 3) & 0x7f;
  if (humidity === HUMIDITY_ERROR) warnings.push(`Le TBHH100 signale une erreur de mesure de l’humidité${NNBSP}: valeur ignorée.`);
  else values['humidity'] = humidity;
  return done([{ ts: null, values }], warnings);
}

function decodeTbdw100(input: CodecInput): Outcome {
  const { bytes, fPort } = input;
  const info = information('TBDW100', fPort);
  if (info) return info;
  if (fPort !== 100) return fail(wrongPort('un TBDW100', fPort, 'les mesures arrivent sur le port 100'));
  if (bytes.length < 3) return fail(tooShort('un TBDW100', bytes.length, 3));
  return done([{ ts: null, values: { door: u8(bytes, 0) & 0x01, ...common(bytes) } }], []);
}

function decodeTbhv110(input: CodecInput): Outcome {
  const { bytes, fPort } = input;
  const info = information('TBHV110', fPort);
  if (info) return info;
  if (fPort !== 103) return fail(wrongPort('un TBHV110', fPort, 'les mesures arrivent sur le port 103'));
  if (bytes.length > 0 && bytes.every((byte) => byte === 0)) return done([], ['Trame vide d’un TBHV110, sans mesure.']);
  if (bytes.length < 11) return fail(tooShort('un TBHV110', bytes.length, 11));
  const values: Record<string, number> = { ...common(bytes), temperature: (u8(bytes, 10) & 0x7f) - 32, co2: u16le(bytes, 4) };
  const warnings: string[] = [];
  const humidity = u8(bytes, 3) & 0x7f;
  if (humidity === HUMIDITY_ERROR) warnings.push(`Le TBHV110 signale une erreur de mesure de l’humidité${NNBSP}: valeur ignorée.`);
  else values['humidity'] = humidity;
  return done([{ ts: null, values }], warnings);
}

export const browanTbhh100: Codec = defineCodec({
  id: 'browan-tbhh100',
  vendor: 'Browan',
  model: 'Tabs TBHH100',
  measures: ['temperature', 'humidity', 'battery'],
  subject: 'un TBHH100',
  decode: decodeTbhh100,
});

export const browanTbdw100: Codec = defineCodec({
  id: 'browan-tbdw100',
  vendor: 'Browan',
  model: 'Tabs TBDW100',
  measures: ['door', 'temperature', 'battery'],
  subject: 'un TBDW100',
  decode: decodeTbdw100,
});

export const browanTbhv110: Codec = defineCodec({
  id: 'browan-tbhv110',
  vendor: 'Browan',
  model: 'Tabs TBHV110',
  measures: ['temperature', 'humidity', 'co2', 'battery'],
  subject: 'un TBHV110',
  decode: decodeTbhv110,
});
