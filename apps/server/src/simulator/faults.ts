/**
 * Faults of the simulated cold chain, labelled with their true start and end, so that what the
 * predictive analysis finds can be scored against what really happened. `measure` in
 * `shop-model.ts` applies them deterministically:
 *
 * - `compressor_failing`: the compressor's cooling power declines over hours; its cycles get
 *   longer and longer, the unit runs warmer, then can no longer hold and climbs past +8 °C a few
 *   hours after the start;
 * - `door_left_open`: the cabinet settles a few degrees warmer while the door stays open, and the
 *   door's contact sensor reports it open all along;
 * - `defrost_stuck`: the defrost heater comes on and does not stop;
 * - `sensor_drift`: the probe's offset grows steadily while the unit is fine;
 * - `sensor_stuck`: the probe repeats the value it read when it failed;
 * - `power_cut`: everything stops; the unit warms towards the shop's air, then pulls down again.
 */
import { type DefrostWindow, defrostWindows, measure, nextDefrost, type SensorProfile, type SimulatedSensor } from './shop-model.ts';

export const FAULT_KINDS = ['compressor_failing', 'door_left_open', 'defrost_stuck', 'sensor_drift', 'sensor_stuck', 'power_cut'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** A fault and its true start and end (epoch ms, the end excluded). */
export interface Fault {
  kind: FaultKind;
  from: number;
  to: number;
}

/** What a shop manager would call each fault. */
export const FAULT_LABELS: Record<FaultKind, string> = {
  compressor_failing: 'compresseur qui faiblit',
  door_left_open: 'porte restée ouverte',
  defrost_stuck: 'dégivrage bloqué',
  sensor_drift: 'sonde qui dérive',
  sensor_stuck: 'sonde figée',
  power_cut: 'coupure de courant',
};

export const isFaultKind = (text: string): text is FaultKind => (FAULT_KINDS as readonly string[]).includes(text);

export interface TimedValue {
  ts: number;
  value: number;
}

/**
 * The first reading beyond a threshold (strictly above, or below), at or after `after`: the true
 * first crossing of a generated series. Null when it never crosses.
 */
export function firstCrossing(
  readings: readonly TimedValue[],
  threshold: number,
  options: { after?: number; direction?: 'above' | 'below' } = {},
): number | null {
  const after = options.after ?? -Infinity;
  const beyond = options.direction === 'below' ? (v: number) => v < threshold : (v: number) => v > threshold;
  for (const reading of readings) if (reading.ts >= after && beyond(reading.value)) return reading.ts;
  return null;
}

export type ScenarioProfile = Extract<SensorProfile, 'fridge' | 'freezer' | 'door'>;

export interface ScenarioOptions {
  profile: ScenarioProfile;
  /** Picks the sensor: the same seed gives the same serial, hence the same cycles and defrost times. */
  seed: number | string;
  days: number;
  stepSeconds: number;
  /** Epoch ms of the first reading; Monday 2 March 2026, midnight in Paris, by default. */
  start?: number;
  faults?: readonly Fault[];
  name?: string;
}

export interface LabelledScenario {
  name: string;
  sensor: SimulatedSensor;
  start: number;
  end: number;
  stepMs: number;
  /** The readings of its main measure: the temperature, or 1 (open) / 0 (closed) for a door. */
  readings: TimedValue[];
  faults: Fault[];
  /** The defrosts that happened: heater on, then the pull-down back to the cut-out. */
  defrosts: DefrostWindow[];
}

export const SCENARIO_START = Date.parse('2026-03-02T00:00:00+01:00');
const HOUR = 3_600_000;
const DAY = 86_400_000;

const SCENARIO_SENSORS: Record<ScenarioProfile, { name: string; model: string; code: string }> = {
  fridge: { name: 'Vitrine réfrigérée', model: 'Vigie Froid T1', code: 'F' },
  freezer: { name: 'Congélateur', model: 'Vigie Froid T1', code: 'Z' },
  door: { name: 'Porte de la chambre froide', model: 'Vigie Contact C1', code: 'D' },
};

/** The simulated sensor of a scenario's profile and seed. */
export function scenarioSensor(profile: ScenarioProfile, seed: number | string): SimulatedSensor {
  const { name, model, code } = SCENARIO_SENSORS[profile];
  return { serial: `SIM-${code}${seed}`, name, model, profile };
}

/** A sensor's readings over `days` days, every `stepSeconds`, with its faults and its defrosts. */
export function labelledScenario(options: ScenarioOptions): LabelledScenario {
  const sensor = scenarioSensor(options.profile, options.seed);
  const start = options.start ?? SCENARIO_START;
  const stepMs = options.stepSeconds * 1000;
  const end = start + options.days * DAY;
  const faults = [...(options.faults ?? [])].sort((a, b) => a.from - b.from);
  const key = options.profile === 'door' ? 'open' : 'temperature';
  const readings: TimedValue[] = [];
  for (let ts = start; ts < end; ts += stepMs) {
    const value = measure(sensor, ts, options.stepSeconds, faults)[key];
    readings.push({ ts, value: typeof value === 'boolean' ? Number(value) : (value ?? Number.NaN) });
  }
  const name =
    options.name ?? `${sensor.name} ${sensor.serial}${faults.length ? ` : ${faults.map((f) => FAULT_LABELS[f.kind]).join(', ')}` : ''}`;
  return { name, sensor, start, end, stepMs, readings, faults, defrosts: defrostWindows(sensor, start, end, faults) };
}

/**
 * The standard set for the evaluation: a healthy fridge and a healthy freezer over seven days, and
 * for each kind of fault several fridges (their own serials, so their own cycles and defrost
 * times), each with three days of healthy history before its fault, which starts at a different
 * time of day. A door left open comes with the door's contact sensor, as its own scenario.
 */
export function standardScenarios(): ScenarioOptions[] {
  const scenarios: ScenarioOptions[] = [
    { profile: 'fridge', seed: 1, days: 7, stepSeconds: 30, name: 'Réfrigérateur sain, 7 jours' },
    { profile: 'freezer', seed: 1, days: 7, stepSeconds: 30, name: 'Congélateur sain, 7 jours' },
  ];
  const at = (hours: number) => SCENARIO_START + 3 * DAY + hours * HOUR;
  const add = (kind: FaultKind, seed: number, from: number, durationHours: number, profile: ScenarioProfile = 'fridge') => {
    const fault = { kind, from, to: from + durationHours * HOUR };
    scenarios.push({
      profile,
      seed,
      days: 5,
      stepSeconds: 30,
      faults: [fault],
      name: `${FAULT_LABELS[kind]} (${SCENARIO_SENSORS[profile].code}${seed})`,
    });
  };
  // The compressor: long enough after its start for the unit to pass +8 °C.
  [3 + 2 / 3, 10.25, 16 + 5 / 6, 6.5].forEach((hours, i) => add('compressor_failing', 11 + i, at(hours), 14));
  // The door: after closing time, early in the morning, in the afternoon; the door sensor too.
  (
    [
      [21 + 1 / 6, 1.5],
      [8 + 1 / 3, 0.75],
      [14 + 7 / 12, 2],
    ] as const
  ).forEach(([hours, duration], i) => {
    add('door_left_open', 21 + i, at(hours), duration);
    add('door_left_open', 21 + i, at(hours), duration, 'door');
  });
  // The heater sticks on during a scheduled defrost.
  [7, 13, 19].forEach((hours, i) => {
    const seed = 31 + i;
    add('defrost_stuck', seed, nextDefrost(scenarioSensor('fridge', seed), at(hours - 1)) ?? at(hours), 3);
  });
  [2, 11.5, 18.75].forEach((hours, i) => add('sensor_drift', 41 + i, at(hours), 24));
  [5 + 1 / 3, 12 + 2 / 3, 20 + 1 / 12].forEach((hours, i) => add('sensor_stuck', 51 + i, at(hours), 6));
  (
    [
      [2.5, 3],
      [9 + 5 / 6, 1.5],
      [15 + 1 / 6, 4],
    ] as const
  ).forEach(([hours, duration], i) => add('power_cut', 61 + i, at(hours), duration));
  return scenarios;
}

/**
 * `--fault KIND[:SERIAL]` of the simulator: the kind, and the serial it applies to when given.
 * Throws with a French message when the kind is unknown.
 */
export function parseFaultOption(text: string): { kind: FaultKind; serial: string | null } {
  const [kind = '', serial] = text.split(':', 2);
  if (!isFaultKind(kind)) throw new Error(`Panne inconnue\u202f: «\u202f${kind}\u202f» (attendu\u202f: ${FAULT_KINDS.join(', ')}).`);
  return { kind, serial: serial?.trim() || null };
}
