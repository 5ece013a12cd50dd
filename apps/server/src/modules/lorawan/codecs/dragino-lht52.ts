import { NNBSP, defineCodec, done, fail, i16be, octets, tooShort, u16be, u32be, u8, deviceTime, wrongPort, type Outcome } from './frame.ts';
import type { Codec, CodecInput } from './types.ts';

/*
 * Dragino LHT52, numbers big-endian.
 *
 * Port 2, 11 bytes: built-in temperature (int16, 0.01 °C), built-in humidity (int16, 0.1 %),
 * external DS18B20 probe (int16, 0.01 °C; 0x7FFF: no probe or no reading), Ext (1: the external
 * sensor type), the Unix time of the sample (uint32, s). Another length on port 2 is a poll reply
 * or a reset notice: no measure.
 * Port 3: the datalog, which the maker leaves to the application (not read here); port 4: the
 * probe's identifier; port 5: the device's status (model, firmware, band, battery voltage): no measure.
 */
const FRAME = 11;
const NO_READING = 0x7fff;

function decodeLht52(input: CodecInput): Outcome {
  const { bytes, fPort, recvTime } = input;
  if (fPort === 3) return done([], [`Journal d’un LHT52 (port 3)${NNBSP}: non lu par Vigie, qui reçoit déjà chaque mesure sur le port 2.`]);
  if (fPort === 4) return done([], ['Identifiant de la sonde d’un LHT52, sans mesure.']);
  if (fPort === 5) return done([], ['Trame d’état d’un LHT52 (modèle, micrologiciel, bande), sans mesure.']);
  if (fPort !== 2) return fail(wrongPort('un LHT52', fPort, 'les mesures arrivent sur le port 2'));
  if (bytes.length < FRAME) return fail(tooShort('un LHT52', bytes.length, FRAME));
  if (bytes.length > FRAME) {
    return done([], [`Trame du port 2 d’un LHT52 de ${octets(bytes.length)}${NNBSP}: réponse à une requête ou redémarrage, sans mesure.`]);
  }
  const values: Record<string, number> = {};
  if (u16be(bytes, 0) !== NO_READING) values['temperature'] = i16be(bytes, 0) / 100;
  if (u16be(bytes, 2) !== NO_READING) values['humidity'] = i16be(bytes, 2) / 10;
  if (u16be(bytes, 4) !== NO_READING && u8(bytes, 6) !== 0) values['probe_temperature'] = i16be(bytes, 4) / 100;
  const seconds = u32be(bytes, 7);
  const ts = deviceTime(seconds, recvTime);
  const warnings =
    ts === null
      ? [
          `Horodatage de l’appareil invalide (${seconds}\u00A0s depuis 1970, loin de la réception)${NNBSP}: la lecture est datée de sa réception.`,
        ]
      : [];
  return done([{ ts, values }], warnings);
}

export const draginoLht52: Codec = defineCodec({
  id: 'dragino-lht52',
  vendor: 'Dragino',
  model: 'LHT52',
  measures: ['temperature', 'humidity', 'probe_temperature'],
  subject: 'un LHT52',
  decode: decodeLht52,
});
