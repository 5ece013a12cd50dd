import {
  LITHIUM_3V6,
  NNBSP,
  badDeviceTime,
  batteryPercent,
  defineCodec,
  deviceTime,
  done,
  fail,
  hex,
  i16be,
  octets,
  tooShort,
  u16be,
  u32be,
  u8,
  wrongPort,
  type Outcome,
} from './frame.ts';
import type { Codec, CodecInput, DecodedReading } from './types.ts';

/*
 * Dragino LHT65 / LHT65N, numbers big-endian.
 *
 * Port 2, 11 bytes: BAT (2: bits 15–14 battery status, bits 13–0 voltage in mV), built-in
 * temperature (int16, 0.01 °C), built-in humidity (uint16, bits 11–0, 0.1 %), Ext (1: bits 7–6 a
 * poll/retransmission flag, bits 5–0 the external sensor type), external data (4).
 * External types read: 0x01 DS18B20 and 0x02 TMP117 probes (int16, 0.01 °C, then 2 unused bytes),
 * 0x0B SHT31 probe (temperature int16 0.01 °C, humidity), 0x05 illuminance (uint16, lux). With
 * types 0x09 (DS18B20) and 0x0A (TMP117) « with timestamp », the probe's temperature replaces BAT
 * and the external data is the Unix time of the sample (uint32, s). 0x7FFF (327.67 °C) means the
 * probe gives no reading (disconnected).
 *
 * Port 3 (and port 2 when the Ext flag is set: poll reply or retransmission): the datalog, entries of
 * 11 bytes: external data (2), built-in temperature (2), built-in humidity (2), flag and Ext (1),
 * Unix time (4). An entry of 11 zero bytes means « nothing logged in that period ».
 *
 * Port 5: the device's status (model, firmware, band, battery): no measure.
 *
 * LHT65N: the same frames, but its Ext byte keeps the sensor type in bits 3–0 only (bit 7 is its
 * poll flag, or « probe not connected » in a live frame); its type 0x0F carries the DS18B20 probe's
 * identifier in place of the built-in readings (dragino/dragino-end-node-decoder, TTN `lht65n.js`).
 *
 * Battery: the device's built-in 3.6 V lithium cell, turned into a percentage with the linear map
 * LITHIUM_3V6 (2.5 V empty, 3.6 V full).
 */
const ENTRY = 11;
const NO_READING = 0x7fff;
const PROBES = new Set([0x01, 0x02, 0x09, 0x0a, 0x0b]);
/** External types that carry no Vigie measure: interrupt, ADC, counters, identification frames. */
const OTHER_TYPES = new Set([0x00, 0x04, 0x06, 0x07, 0x08, 0x0e, 0x0f, 0x10, 0x20]);
/** Types whose frame carries no built-in temperature and humidity (identification frames). */
const NO_BUILT_IN = new Set([0x0e, 0x0f, 0x10, 0x20]);

/** What differs between the LHT65 and the LHT65N: the name in messages and the bits of the Ext byte that give the sensor type. */
interface Variant {
  model: string;
  typeMask: number;
}
const LHT65: Variant = { model: 'LHT65', typeMask: 0x3f };
const LHT65N: Variant = { model: 'LHT65N', typeMask: 0x0f };

function temperature(bytes: Uint8Array, at: number): number | null {
  const raw = u16be(bytes, at);
  return raw === NO_READING ? null : i16be(bytes, at) / 100;
}

const humidity = (bytes: Uint8Array, at: number): number => (u16be(bytes, at) & 0x0fff) / 10;

/** The readings of one 11-byte datalog entry, or null for an empty entry. */
function datalogEntry(bytes: Uint8Array, at: number, recvTime: Date, warnings: string[]): DecodedReading | null {
  // Both models log the sensor type in bits 3–0 of the entry's Ext byte.
  if (bytes.subarray(at, at + ENTRY).every((byte) => byte === 0)) return null;
  const seconds = u32be(bytes, at + 7);
  const ts = deviceTime(seconds, recvTime);
  if (ts === null) {
    warnings.push(badDeviceTime(seconds));
    return null;
  }
  const values: Record<string, number> = { humidity: humidity(bytes, at + 4) };
  const builtIn = temperature(bytes, at + 2);
  if (builtIn !== null) values['temperature'] = builtIn;
  const type = u8(bytes, at + 6) & 0x0f;
  if (PROBES.has(type)) {
    const probe = temperature(bytes, at);
    if (probe !== null) values['probe_temperature'] = probe;
  } else if (type === 0x05) values['light'] = u16be(bytes, at);
  return { ts, values };
}

function datalog(bytes: Uint8Array, recvTime: Date, { model }: Variant): Outcome {
  if (bytes.length < ENTRY) return fail(tooShort(`un journal de ${model}`, bytes.length, ENTRY));
  const warnings: string[] = [];
  const whole = bytes.length - (bytes.length % ENTRY);
  if (whole < bytes.length) {
    warnings.push(
      `Journal de ${model} tronqué${NNBSP}: ${octets(bytes.length - whole)} après la dernière entrée de 11 octets, ignoré${bytes.length - whole > 1 ? 's' : ''}.`,
    );
  }
  const readings: DecodedReading[] = [];
  for (let at = 0; at < whole; at += ENTRY) {
    const reading = datalogEntry(bytes, at, recvTime, warnings);
    if (reading) readings.push(reading);
  }
  return done(readings, warnings);
}

function live(bytes: Uint8Array, recvTime: Date, { model, typeMask }: Variant): Outcome {
  const ext = u8(bytes, 6);
  const type = ext & typeMask;
  const values: Record<string, number> = {};
  const warnings: string[] = [];
  let ts: Date | null = null;

  if (type === 0x09 || type === 0x0a) {
    const probe = temperature(bytes, 0);
    if (probe !== null) values['probe_temperature'] = probe;
    const seconds = u32be(bytes, 7);
    ts = deviceTime(seconds, recvTime);
    if (ts === null) {
      warnings.push(
        `Horodatage de l’appareil invalide (${seconds}\u00A0s depuis 1970, loin de la réception)${NNBSP}: la lecture est datée de sa réception.`,
      );
    }
  } else {
    values['battery'] = batteryPercent((u16be(bytes, 0) & 0x3fff) / 1000, LITHIUM_3V6.empty, LITHIUM_3V6.full);
    if (type === 0x01 || type === 0x02 || type === 0x0b) {
      const probe = temperature(bytes, 7);
      if (probe !== null) values['probe_temperature'] = probe;
    } else if (type === 0x05) values['light'] = u16be(bytes, 7);
    else if (!OTHER_TYPES.has(type)) {
      warnings.push(`Capteur externe de type ${hex(type)} inconnu d’un ${model}${NNBSP}: seules les mesures intégrées sont lues.`);
    }
  }
  if (!NO_BUILT_IN.has(type)) {
    const builtIn = temperature(bytes, 2);
    if (builtIn !== null) values['temperature'] = builtIn;
    values['humidity'] = humidity(bytes, 4);
  }
  return done([{ ts, values }], warnings);
}

function decodeLht65(input: CodecInput, variant: Variant): Outcome {
  const { bytes, fPort, recvTime } = input;
  const { model } = variant;
  const expected = 'les mesures arrivent sur le port 2, le journal sur le port 3';
  if (fPort === 5) return done([], [`Trame d’état d’un ${model} (modèle, micrologiciel, bande), sans mesure.`]);
  if (fPort === 3) {
    if (bytes.length >= ENTRY && bytes.length % ENTRY === 0) return datalog(bytes, recvTime, variant);
    if (bytes.length < ENTRY) return fail(tooShort(`un journal de ${model}`, bytes.length, ENTRY));
    return fail(
      `Trame du port 3 d’un ${model} non reconnue${NNBSP}: ${octets(bytes.length)}, alors que le journal est fait d’entrées de 11 octets.`,
    );
  }
  if (fPort !== 2) return fail(wrongPort(`un ${model}`, fPort, expected));
  if (bytes.length < ENTRY) return fail(tooShort(`un ${model}`, bytes.length, ENTRY));
  // A poll reply or a retransmission sent on port 2: datalog entries. A single entry whose time
  // cannot be right is rather a live frame with bit 7 set, which older firmware used for « probe not connected ».
  if (u8(bytes, 6) >> 6 !== 0 && (bytes.length > ENTRY || deviceTime(u32be(bytes, 7), recvTime) !== null)) {
    return datalog(bytes, recvTime, variant);
  }
  return live(bytes, recvTime, variant);
}

export const draginoLht65: Codec = defineCodec({
  id: 'dragino-lht65',
  vendor: 'Dragino',
  model: 'LHT65',
  measures: ['temperature', 'humidity', 'probe_temperature', 'light', 'battery'],
  subject: 'un LHT65',
  decode: (input) => decodeLht65(input, LHT65),
});

export const draginoLht65n: Codec = defineCodec({
  id: 'dragino-lht65n',
  vendor: 'Dragino',
  model: 'LHT65N',
  measures: ['temperature', 'humidity', 'probe_temperature', 'light', 'battery'],
  subject: 'un LHT65N',
  decode: (input) => decodeLht65(input, LHT65N),
});
