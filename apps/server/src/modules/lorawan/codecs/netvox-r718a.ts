import {
  LITHIUM_3V6,
  NNBSP,
  batteryPercent,
  defineCodec,
  done,
  fail,
  hex,
  i16be,
  tooShort,
  u16be,
  u8,
  wrongPort,
  type Outcome,
} from './frame.ts';
import type { Codec, CodecInput } from './types.ts';

/*
 * Netvox R718A (and the models that share its report: R711/R712, R718AB, R720A), numbers big-endian.
 * Port 6, 11 bytes: version (1), device type (1), report type (1), then 8 bytes:
 *   report type 0x00: software and hardware versions, date code — no measure;
 *   report type 0x01: battery (1: bit 7 « low battery », bits 6–0 the voltage in 0.1 V),
 *   temperature (int16, 0.01 °C), humidity (uint16, 0.01 %), 3 reserved bytes.
 * Port 7 carries the answers to configuration commands: no measure.
 *
 * Battery: the R718A's 3.6 V lithium cells, turned into a percentage with the linear map
 * LITHIUM_3V6 (2.5 V empty, 3.6 V full); the device's own low-battery flag becomes a warning.
 */
const DEVICE_TYPES: ReadonlyMap<number, string> = new Map([
  [0x01, 'R711/R712'],
  [0x0b, 'R718A'],
  [0x13, 'R718AB'],
  [0x6e, 'R720A'],
]);

function decodeR718a(input: CodecInput): Outcome {
  const { bytes, fPort } = input;
  if (fPort === 7) return done([], ['Réponse d’un appareil Netvox à une commande de configuration, sans mesure.']);
  if (fPort !== 6) return fail(wrongPort('un R718A', fPort, 'les mesures arrivent sur le port 6'));
  if (bytes.length < 3) return fail(tooShort('un R718A', bytes.length, 3));
  const deviceType = u8(bytes, 1);
  const model = DEVICE_TYPES.get(deviceType);
  if (!model) {
    return fail(
      `Appareil Netvox de type ${hex(deviceType)}${NNBSP}: ce décodeur lit le R718A (type 0x0B) et les modèles au même format (R711, R718AB, R720A).`,
    );
  }
  const report = u8(bytes, 2);
  if (report === 0x00) return done([], [`Trame de version d’un ${model}, sans mesure.`]);
  if (report !== 0x01) return fail(`Type de rapport ${hex(report)} inconnu d’un ${model} (0x01 attendu pour les mesures).`);
  if (bytes.length < 8) return fail(tooShort(`un ${model}`, bytes.length, 8));
  const battery = u8(bytes, 3);
  const warnings = battery & 0x80 ? [`Le ${model} signale une pile faible.`] : [];
  const values = {
    temperature: i16be(bytes, 4) / 100,
    humidity: u16be(bytes, 6) / 100,
    battery: batteryPercent((battery & 0x7f) / 10, LITHIUM_3V6.empty, LITHIUM_3V6.full),
  };
  return done([{ ts: null, values }], warnings);
}

export const netvoxR718a: Codec = defineCodec({
  id: 'netvox-r718a',
  vendor: 'Netvox',
  model: 'R718A',
  measures: ['temperature', 'humidity', 'battery'],
  subject: 'un R718A',
  decode: decodeR718a,
});
