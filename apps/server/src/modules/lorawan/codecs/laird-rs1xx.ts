import { NNBSP, badDeviceTime, defineCodec, deviceTime, done, fail, hex, shortFrame, u32be, u8, type Outcome } from './frame.ts';
import type { Codec, CodecInput, DecodedReading } from './types.ts';

/*
 * Laird (Ezurio) Sentrius RS1xx temperature and humidity sensor. Byte 0 the message type, byte 1
 * its option flags. A value is two signed bytes, hundredths first then units (−5.25 °C is −25, −5).
 * A timestamp counts seconds since 2015-01-01 00:00 UTC (uint32, big-endian).
 *   0x01 (11 bytes) a reading: humidity (%), temperature (°C), battery capacity (index 0–5:
 *        0–5, 5–20, 20–40, 40–60, 60–80, 80–100 %), alarm and backlog counts (2 × uint16)
 *   0x02 (11 + 4 n) aggregated readings: alarm count (1), backlog count (uint16), battery capacity,
 *        n, timestamp, then n × (humidity, temperature)
 *   0x03 (10) one logged reading: timestamp, humidity, temperature
 *   0x04 (3 + 8 n) logged readings: n, then n × (timestamp, humidity, temperature)
 *   0x05, 0x06 configuration, 0x07 firmware version, 0x0A battery voltage: no measure.
 * Battery: the middle of the capacity range the device reports (90 % for « 80–100 % »). Of an
 * aggregated message, Vigie keeps the first reading, at the message's time: the others are spaced
 * by the device's reading period, which is in its configuration, not in the message.
 */
const EPOCH_2015 = 1_420_070_400;
const BATTERY_MIDDLE = [3, 13, 30, 50, 70, 90];
const NO_MEASURE: ReadonlyMap<number, string> = new Map([
  [0x05, 'configuration'],
  [0x06, 'configuration avancée'],
  [0x07, 'version du micrologiciel'],
  [0x0a, 'tension de pile'],
]);

const int8 = (byte: number) => (byte > 127 ? byte - 256 : byte);
/** Units and hundredths, two signed bytes (hundredths first), in hundredths then divided: no float noise. */
const value = (bytes: Uint8Array, at: number) => (int8(u8(bytes, at + 1)) * 100 + int8(u8(bytes, at))) / 100;
const humidityTemperature = (bytes: Uint8Array, at: number) => ({ humidity: value(bytes, at), temperature: value(bytes, at + 2) });

function battery(bytes: Uint8Array, at: number, values: Record<string, number>): void {
  const middle = BATTERY_MIDDLE[u8(bytes, at)];
  if (middle !== undefined) values['battery'] = middle;
}

const badLength = (what: string, received: number, expected: string) =>
  `Message RS1xx ${what} de ${received} octet${received > 1 ? 's' : ''}${NNBSP}: ${expected} attendus.`;

function decodeRs1xx(input: CodecInput): Outcome {
  const { bytes, recvTime } = input;
  if (bytes.length < 2) return fail(shortFrame('Trame trop courte pour un RS1xx', bytes.length, 2));
  const type = u8(bytes, 0);
  const what = NO_MEASURE.get(type);
  if (what) return done([], [`Message de ${what} d’un RS1xx, sans mesure.`]);
  const warnings: string[] = [];
  const logged = (at: number): DecodedReading | null => {
    const seconds = u32be(bytes, at);
    const ts = deviceTime(EPOCH_2015 + seconds, recvTime);
    if (ts === null) {
      warnings.push(badDeviceTime(EPOCH_2015 + seconds));
      return null;
    }
    return { ts, values: humidityTemperature(bytes, at + 4) };
  };
  switch (type) {
    case 0x01: {
      if (bytes.length !== 11) return fail(badLength('de mesure', bytes.length, '11'));
      const values: Record<string, number> = humidityTemperature(bytes, 2);
      battery(bytes, 6, values);
      return done([{ ts: null, values }], warnings);
    }
    case 0x02: {
      const count = u8(bytes, 6);
      if (bytes.length < 15 || bytes.length !== 11 + 4 * count)
        return fail(badLength('de mesures groupées', bytes.length, `${11 + 4 * count} (11 + 4 par mesure)`));
      const values: Record<string, number> = humidityTemperature(bytes, 11);
      battery(bytes, 5, values);
      const seconds = u32be(bytes, 7);
      const ts = deviceTime(EPOCH_2015 + seconds, recvTime);
      if (ts === null) {
        warnings.push(
          `Horodatage de l’appareil invalide (${EPOCH_2015 + seconds}\u00A0s depuis 1970, loin de la réception)${NNBSP}: la lecture est datée de sa réception.`,
        );
      }
      return done([{ ts, values }], warnings);
    }
    case 0x03: {
      if (bytes.length !== 10) return fail(badLength('d’historique', bytes.length, '10'));
      const reading = logged(2);
      return done(reading ? [reading] : [], warnings);
    }
    case 0x04: {
      if (bytes.length < 11 || (bytes.length - 3) % 8 !== 0) return fail(badLength('d’historique', bytes.length, '3 + 8 par mesure'));
      const readings: DecodedReading[] = [];
      for (let at = 3; at + 8 <= bytes.length; at += 8) {
        const reading = logged(at);
        if (reading) readings.push(reading);
      }
      return done(readings, warnings);
    }
    default:
      return fail(`Message RS1xx de type ${hex(type)} inconnu (0x01 à 0x04 attendu pour les mesures).`);
  }
}

export const lairdRs1xx: Codec = defineCodec({
  id: 'laird-rs1xx',
  vendor: 'Laird',
  model: 'Sentrius RS1xx (température et humidité)',
  measures: ['temperature', 'humidity', 'battery'],
  subject: 'un RS1xx',
  decode: decodeRs1xx,
});
