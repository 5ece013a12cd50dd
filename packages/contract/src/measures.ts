/**
 * The measures a device may send (docs/protocole-appareils.md, Mesures): one grammar for their
 * names, and a physical range for each. A value outside its range is refused on every path (HTTP,
 * MQTT, a transmitter for its sensors, every LoRaWAN network and codec), so that no stored value
 * is absurd.
 */

/** A measure's name: a lower-case letter, then lower-case letters, digits and `_`, 32 at most. */
export const MEASURE_NAME_PATTERN = /^[a-z][a-z0-9_]{0,31}$/;

/**
 * Names the grammar allows that a JavaScript object already holds (`constructor`…): refused, so
 * that no reader, in Vigie or in a client's code, ever finds `undefined` or a function there.
 */
export const RESERVED_MEASURE_NAMES: ReadonlySet<string> = new Set([
  'constructor',
  'prototype',
  'hasownproperty',
  'isprototypeof',
  'propertyisenumerable',
  'tolocalestring',
  'tostring',
  'valueof',
]);

export interface MeasureRange {
  min: number;
  max: number;
  /** The unit the range is written in, for the error message (empty: none). */
  unit: string;
  /** A state: 0 or 1 only (a boolean is read as 1 or 0). */
  flag?: true;
}

/** A measure Vigie does not know (a pasted codec's, a custom device's): a finite value of ±10⁹ at most. */
export const CUSTOM_MEASURE_LIMIT = 1e9;

const flag: MeasureRange = { min: 0, max: 1, unit: '', flag: true };

/** The physical range of each measure Vigie names (the codecs' and the simulator's). */
export const MEASURE_RANGES: ReadonlyMap<string, MeasureRange> = new Map<string, MeasureRange>([
  ['temperature', { min: -100, max: 200, unit: '°C' }],
  ['probe_temperature', { min: -100, max: 200, unit: '°C' }],
  ['probe2_temperature', { min: -100, max: 200, unit: '°C' }],
  ['humidity', { min: 0, max: 100, unit: '%' }],
  ['battery', { min: 0, max: 100, unit: '%' }],
  ['door', flag],
  ['contact', flag],
  ['open', flag],
  ['co2', { min: 0, max: 100_000, unit: 'ppm' }],
  ['light', { min: 0, max: 200_000, unit: 'lx' }],
  ['rssi', { min: -200, max: 50, unit: 'dBm' }],
  ['visitors', { min: 0, max: CUSTOM_MEASURE_LIMIT, unit: '' }],
  ['footfall', { min: 0, max: CUSTOM_MEASURE_LIMIT, unit: '' }],
  ['latitude', { min: -90, max: 90, unit: '°' }],
  ['longitude', { min: -180, max: 180, unit: '°' }],
]);

/** The range of a measure: its own, or ±10⁹ for a measure Vigie does not know. */
export function measureRange(name: string): MeasureRange {
  return MEASURE_RANGES.get(name) ?? { min: -CUSTOM_MEASURE_LIMIT, max: CUSTOM_MEASURE_LIMIT, unit: '' };
}

const frenchNumber = (value: number): string => {
  const text =
    value !== 0 && (Math.abs(value) >= 1e7 || Math.abs(value) < 1e-3)
      ? value
          .toExponential(3)
          .replace(/\.?0+e/, 'e')
          .replace('.', ',')
          .replace('e+', ' × 10^')
          .replace('e-', ' × 10^−')
      : new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 3 }).format(value);
  return text.replace(/^-/, '−');
};

/** Why a measure's name is refused (null: a valid name). */
export function measureNameProblem(name: string): string | null {
  if (!MEASURE_NAME_PATTERN.test(name)) {
    return `nom de mesure « ${name.slice(0, 40)} » invalide : une lettre minuscule, puis lettres minuscules, chiffres et _ (32 au plus)`;
  }
  if (RESERVED_MEASURE_NAMES.has(name)) return `nom de mesure « ${name} » réservé : choisissez-en un autre`;
  return null;
}

/** Why a finite value is refused for this measure (null: within its range). */
export function measureValueProblem(name: string, value: number): string | null {
  const range = measureRange(name);
  const unit = range.unit ? ` ${range.unit}` : '';
  if (range.flag)
    return value === 0 || value === 1 ? null : `la mesure « ${name} » vaut ${frenchNumber(value)} : 0 ou 1 (ou un booléen) est attendu`;
  if (value >= range.min && value <= range.max) return null;
  return `la mesure « ${name} » vaut ${frenchNumber(value)}, hors de sa plage physique (de ${frenchNumber(range.min)} à ${frenchNumber(range.max)}${unit})`;
}
