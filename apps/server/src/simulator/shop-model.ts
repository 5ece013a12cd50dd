/**
 * A small, deterministic model of a shop's sensors: the same serial and instant always give the
 * same values, so a history generated at start-up and a live simulator agree with each other.
 *
 * Fridges and freezers are on/off thermostats computed in closed form: while the compressor is off
 * the cabinet warms towards the shop's air (Newton's law), while it runs it cools towards the
 * temperature the evaporator would pull it to, switching at the cut-in and cut-out setpoints. The
 * cycle is periodic (t mod period, with a phase of its own per serial). Four times a day, at fixed
 * local times, a defrost heats the cabinet for about twenty minutes; the compressor then pulls it
 * down to its cut-out, and its cycles, slightly stretched or squeezed for a few hours, fall back
 * into step with the periodic cycle. Faults (`faults.ts`) bend this trajectory deterministically.
 */
import type { Fault } from './faults.ts';

export type SensorProfile = 'fridge' | 'freezer' | 'room' | 'door' | 'footfall' | 'air';

export interface SimulatedSensor {
  serial: string;
  name: string;
  model: string;
  profile: SensorProfile;
}

const PROFILES: { profile: SensorProfile; name: string; model: string }[] = [
  { profile: 'fridge', name: 'Vitrine réfrigérée', model: 'Vigie Froid T1' },
  { profile: 'freezer', name: 'Congélateur', model: 'Vigie Froid T1' },
  { profile: 'room', name: 'Surface de vente', model: 'Vigie Ambiance TH2' },
  { profile: 'door', name: 'Porte de la chambre froide', model: 'Vigie Contact C1' },
  { profile: 'footfall', name: 'Compteur de passage', model: 'Vigie Flux F1' },
  { profile: 'air', name: 'Qualité de l’air', model: 'Vigie Air Q1' },
  { profile: 'fridge', name: 'Meuble frais', model: 'Vigie Froid T1' },
  { profile: 'fridge', name: 'Chambre froide', model: 'Vigie Froid T1' },
];

/** The sensors of a shop: fridges first, then the rest of the store, numbered when repeated. */
export function shopSensors(shopCode: string, count: number): SimulatedSensor[] {
  const seen = new Map<string, number>();
  return Array.from({ length: count }, (_, index) => {
    const base = PROFILES[index % PROFILES.length] as (typeof PROFILES)[number];
    const n = (seen.get(base.name) ?? 0) + 1;
    seen.set(base.name, n);
    return {
      serial: `${shopCode}-S${String(index + 1).padStart(3, '0')}`,
      name: n > 1 ? `${base.name} ${n}` : base.name,
      model: base.model,
      profile: base.profile,
    };
  });
}

/** A repeatable pseudo-random number in [0, 1) for a text and an integer. */
export function noise(seed: string, n: number): number {
  let h = 2166136261 ^ n;
  for (let i = 0; i < seed.length; i += 1) h = Math.imul(h ^ seed.charCodeAt(i), 16777619);
  h = Math.imul(h ^ (h >>> 15), 2246822507);
  h = Math.imul(h ^ (h >>> 13), 3266489909);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const mod = (a: number, m: number) => ((a % m) + m) % m;

const parisClock = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Paris',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  hourCycle: 'h23',
});
const offsets = new Map<number, number>();

/** Paris's offset from UTC at t (ms). Offsets only change on the hour, so one is kept per hour. */
function parisOffset(t: number): number {
  const hour = Math.floor(t / HOUR);
  let offset = offsets.get(hour);
  if (offset === undefined) {
    const parts: Record<string, number> = {};
    for (const part of parisClock.formatToParts(new Date(hour * HOUR))) parts[part.type] = Number(part.value);
    offset =
      Date.UTC(parts['year'] ?? 1970, (parts['month'] ?? 1) - 1, parts['day'] ?? 1, parts['hour'] ?? 0, parts['minute'] ?? 0) - hour * HOUR;
    if (offsets.size > 200_000) offsets.clear();
    offsets.set(hour, offset);
  }
  return offset;
}

/** The instant (epoch ms) at which Paris's wall clock shows `local` (wall-clock ms since 1970). */
function fromParisWallClock(local: number): number {
  const guess = local - parisOffset(local - HOUR);
  return local - parisOffset(guess);
}

/** Fraction of the day in Paris time, 0 at midnight, to the minute. */
function dayFraction(t: number): number {
  return Math.floor(mod(t + parisOffset(t), DAY) / MINUTE) / 1440;
}

/** Shop opening hours: 9:00–19:30, busiest at lunch and after work. */
function occupancy(t: number): number {
  const h = dayFraction(t) * 24;
  if (h < 9 || h > 19.5) return 0;
  return 0.35 + 0.65 * Math.max(Math.exp(-((h - 12.5) ** 2) / 1.5), Math.exp(-((h - 17.8) ** 2) / 1.2));
}

/** Battery in percent: each sensor is somewhere in a 150-day life, losing about 0.5 point a day. */
function battery(sensor: SimulatedSensor, t: number): number {
  const age = (t / DAY + noise(sensor.serial, 0) * 150) % 150;
  return Math.round(Math.max(3, 100 - age * 0.5 - noise(sensor.serial, 1) * 10) * 10) / 10;
}

// Door openings: in slots of three minutes, more often when the shop is busy.
const DOOR_SLOT = 3 * MINUTE;
const doorOpenInSlot = (serial: string, slot: number) => noise(serial, slot) < occupancy(slot * DOOR_SLOT) * 0.25;

// ---------------------------------------------------------------------------------------------
// Cold units
// ---------------------------------------------------------------------------------------------

/** A fridge's or a freezer's constants; times in ms, temperatures in °C. */
interface ColdUnit {
  serial: string;
  /** Cut-out (the compressor stops) and cut-in (it starts) setpoints. */
  low: number;
  high: number;
  /** The shop's air, towards which the cabinet warms while the compressor is off. */
  ambient: number;
  /** Thermal time constant of the cabinet. */
  tau: number;
  /** The temperature the cabinet would reach with the compressor running for ever. */
  onTarget: number;
  offMs: number;
  onMs: number;
  period: number;
  /** Where this unit is in its cycle at t = 0. */
  phase: number;
  /** Defrosts: every six hours from 01:00 Paris time plus this offset; the heater runs `heatMs`. */
  defrostOffset: number;
  heatMs: number;
  /** The temperature at the end of a defrost's heating. */
  defrostPeak: number;
  /** The largest warming of the reading by a door opened in the ordinary way. */
  doorBump: number;
  jitter: number;
  /** A heater stuck on warms the cabinet towards this temperature. */
  heaterCeiling: number;
  /** Without power, the cabinet and its goods warm towards the shop's air with this time constant. */
  powerCutTau: number;
  /** A door left open lifts the temperature by this much once settled. */
  doorLeftOpenRise: number;
  /** A failing compressor loses its cooling power over this time, down to `failingFloor` of it. */
  failingMs: number;
  failingFloor: number;
}

interface ColdSpec {
  low: number;
  high: number;
  ambient: number;
  offMinutes: [number, number];
  onMinutes: [number, number];
  heatMinutes: number;
  defrostPeak: number;
  doorBump: number;
  jitter: number;
  heaterCeiling: number;
  powerCutHours: number;
  doorLeftOpenRise: number;
}

/**
 * A display fridge cycles between 2.2 and 4.6 °C (mean ≈ 3.6 °C with its defrosts) and its defrost peaks at 6.6 °C:
 * even with a door opening and the sensor's jitter on top, it stays under the +8 °C limit. A
 * freezer cycles between −22.5 and −19.5 °C; its probe, among the goods, sees its defrost peak at
 * −18.8 °C, so that an ordinary defrost never counts as a breach of −18 °C.
 */
const COLD_SPECS: Record<'fridge' | 'freezer', ColdSpec> = {
  fridge: {
    low: 2.2,
    high: 4.6,
    ambient: 20,
    offMinutes: [11, 13.5],
    onMinutes: [9.5, 11.5],
    heatMinutes: 22,
    defrostPeak: 6.6,
    doorBump: 1,
    jitter: 0.15,
    heaterCeiling: 16,
    powerCutHours: 3,
    doorLeftOpenRise: 4,
  },
  freezer: {
    low: -22.5,
    high: -19.5,
    ambient: 20,
    offMinutes: [12, 14],
    onMinutes: [9, 11],
    heatMinutes: 20,
    defrostPeak: -18.8,
    doorBump: 0.5,
    jitter: 0.2,
    heaterCeiling: -2,
    powerCutHours: 5,
    doorLeftOpenRise: 5,
  },
};

/** A defrost heats by at least this much, even when it starts from a warm cabinet. */
const MIN_DEFROST_RISE = 0.5;
const DEFROST_EVERY = 6 * HOUR;
const FIRST_DEFROST = HOUR;
/** After a defrost or a fault, the cycles take about this many periods to fall back into step. */
const MERGE_CYCLES = 8;
/** How long after a fault the trajectory may still carry its trace (a slow pull-down, a merge). */
const FAULT_TRACE_MS = 12 * HOUR;

const units = new Map<string, ColdUnit>();

function coldUnit(serial: string, profile: 'fridge' | 'freezer'): ColdUnit {
  const key = `${profile}|${serial}`;
  const known = units.get(key);
  if (known) return known;
  const spec = COLD_SPECS[profile];
  const between = ([a, b]: [number, number], n: number) => (a + (b - a) * noise(serial, n)) * MINUTE;
  const offMs = between(spec.offMinutes, 2);
  const onMs = between(spec.onMinutes, 3);
  const tau = offMs / Math.log((spec.ambient - spec.low) / (spec.ambient - spec.high));
  const k = Math.exp(onMs / tau);
  const period = offMs + onMs;
  const unit: ColdUnit = {
    serial,
    low: spec.low,
    high: spec.high,
    ambient: spec.ambient,
    tau,
    onTarget: (k * spec.low - spec.high) / (k - 1),
    offMs,
    onMs,
    period,
    phase: noise(serial, 4) * period,
    defrostOffset: Math.floor(noise(serial, 5) * 45) * MINUTE,
    heatMs: spec.heatMinutes * MINUTE,
    defrostPeak: spec.defrostPeak,
    doorBump: spec.doorBump,
    jitter: spec.jitter,
    heaterCeiling: spec.heaterCeiling,
    powerCutTau: spec.powerCutHours * HOUR,
    doorLeftOpenRise: spec.doorLeftOpenRise,
    failingMs: (4 + 2 * noise(serial, 6)) * HOUR,
    failingFloor: 0.25,
  };
  if (units.size > 10_000) units.clear();
  units.set(key, unit);
  return unit;
}

/** The temperature `u` ms into a cycle that starts at the cut-out, compressor off. */
function cycleTemperature(unit: ColdUnit, u: number): number {
  if (u < unit.offMs) return unit.ambient - (unit.ambient - unit.low) * Math.exp(-u / unit.tau);
  return unit.onTarget + (unit.high - unit.onTarget) * Math.exp(-(u - unit.offMs) / unit.tau);
}

/** The periodic cycle, the unit's state whenever nothing has disturbed it for a few hours. */
function steadyTemperature(unit: ColdUnit, t: number): number {
  return cycleTemperature(unit, mod(t + unit.phase, unit.period));
}

/** With the compressor running from `from` °C: how long until the cut-out. */
function pullDownMs(unit: ColdUnit, from: number): number {
  return from > unit.low ? unit.tau * Math.log((from - unit.onTarget) / (unit.low - unit.onTarget)) : 0;
}

/**
 * From `start`, at `from` °C, the compressor runs down to the cut-out, then the unit cycles: its
 * first cycles are stretched or squeezed (by a few percent) so that it falls back into step with
 * the periodic cycle at one of its cut-outs.
 */
function recoveryTemperature(unit: ColdUnit, start: number, from: number, t: number): number {
  const pull = pullDownMs(unit, from);
  if (t < start + pull) return unit.onTarget + (from - unit.onTarget) * Math.exp(-(t - start) / unit.tau);
  const cutOut = start + pull;
  const p = unit.period;
  const merged = Math.ceil((cutOut + MERGE_CYCLES * p - p / 2 + unit.phase) / p) * p - unit.phase;
  if (t >= merged) return steadyTemperature(unit, t);
  const cycles = Math.max(1, Math.round((merged - cutOut) / p));
  const scale = (merged - cutOut) / (cycles * p);
  return cycleTemperature(unit, mod((t - cutOut) / scale, p));
}

/** The bend of a defrost's warming curve: it warms e^1.5 ≈ 4.5 times faster at its start than at its end. */
const DEFROST_BEND = 1.5;

/**
 * A defrost `s` ms after its start, from `from` °C: the compressor stops and the heater warms the
 * cabinet, quickly at first, then more slowly, to its peak at the end of the heating time.
 */
function heatTemperature(unit: ColdUnit, from: number, s: number): number {
  const rise = Math.max(unit.defrostPeak - from, MIN_DEFROST_RISE);
  const scale = 1 - Math.exp(-DEFROST_BEND);
  if (s <= unit.heatMs) return from + (rise * (1 - Math.exp((-DEFROST_BEND * s) / unit.heatMs))) / scale;
  // A heater that does not stop: the cabinet goes on warming towards the heater's ceiling, from
  // the pace it had reached.
  const end = from + rise;
  const ceiling = Math.max(unit.heaterCeiling, end + 1);
  const slope = (rise * DEFROST_BEND * Math.exp(-DEFROST_BEND)) / (scale * unit.heatMs);
  return ceiling - (ceiling - end) * Math.exp(-((s - unit.heatMs) * slope) / (ceiling - end));
}

/** The scheduled defrost starts of a unit: 01:00, 07:00, 13:00 and 19:00 Paris time, plus its offset. */
function defrostAtOrBefore(unit: ColdUnit, t: number, strict: boolean): number {
  const base = FIRST_DEFROST + unit.defrostOffset;
  let k = Math.floor((t + parisOffset(t) - base) / DEFROST_EVERY) + 1;
  for (;;) {
    const start = fromParisWallClock(base + k * DEFROST_EVERY);
    if (start < t || (!strict && start === t)) return start;
    k -= 1;
  }
}

function defrostAfter(unit: ColdUnit, t: number): number {
  const base = FIRST_DEFROST + unit.defrostOffset;
  let k = Math.floor((t + parisOffset(t) - base) / DEFROST_EVERY) - 1;
  for (;;) {
    const start = fromParisWallClock(base + k * DEFROST_EVERY);
    if (start > t) return start;
    k += 1;
  }
}

const PHYSICAL: ReadonlySet<Fault['kind']> = new Set(['compressor_failing', 'defrost_stuck', 'power_cut']);

/**
 * The cabinet's true temperature at t (no door openings, no sensor): the last event before t (a
 * scheduled defrost, the start or the end of a fault) fixes the state the closed form starts from.
 * `strict` reads the state just before t when an event happens exactly at t.
 */
function cabinetTemperature(unit: ColdUnit, t: number, faults: readonly Fault[], strict = false): number {
  let ongoing: Fault | undefined;
  let ended: Fault | undefined;
  for (const fault of faults) {
    if (!PHYSICAL.has(fault.kind)) continue;
    const started = fault.from < t || (!strict && fault.from === t);
    if (!started) continue;
    const over = fault.to < t || (!strict && fault.to === t);
    if (!over) {
      if (!ongoing || fault.from >= ongoing.from) ongoing = fault;
    } else if (!ended || fault.to >= ended.to) ended = fault;
  }
  if (ongoing) return faultTemperature(unit, ongoing, t, faults);
  const defrost = defrostAtOrBefore(unit, t, strict);
  // A defrost due while a fault held did not happen: the fault's end is the last event.
  if (ended && ended.to >= defrost) return recoveryTemperature(unit, ended.to, faultTemperature(unit, ended, ended.to, faults), t);
  const heated = t - defrost;
  if (heated < unit.heatMs) return heatTemperature(unit, cabinetTemperature(unit, defrost, faults, true), heated);
  // Far from any fault the defrost started within the cycle, below its peak: it ends at its peak.
  const disturbed = faults.some((fault) => PHYSICAL.has(fault.kind) && fault.from < defrost && fault.to > defrost - FAULT_TRACE_MS);
  const peak = disturbed ? heatTemperature(unit, cabinetTemperature(unit, defrost, faults, true), unit.heatMs) : unit.defrostPeak;
  return recoveryTemperature(unit, defrost + unit.heatMs, peak, t);
}

function faultTemperature(unit: ColdUnit, fault: Fault, t: number, faults: readonly Fault[]): number {
  const since = t - fault.from;
  switch (fault.kind) {
    case 'power_cut': {
      const start = cabinetTemperature(unit, fault.from, faults, true);
      return unit.ambient + (start - unit.ambient) * Math.exp(-since / unit.powerCutTau);
    }
    case 'defrost_stuck':
      return heatTemperature(unit, cabinetTemperature(unit, fault.from, faults, true), since);
    case 'compressor_failing':
      return failingTrajectory(unit, fault, faults).at(t);
    default:
      return cabinetTemperature(unit, t, []);
  }
}

// A failing compressor has no closed form: its trajectory is integrated in steps of ten seconds
// from the fault's start (exact exponential steps), kept and extended as time goes on.
const FAILING_STEP = 10_000;

interface Trajectory {
  at: (t: number) => number;
}

const trajectories = new Map<string, Trajectory>();

function failingTrajectory(unit: ColdUnit, fault: Fault, faults: readonly Fault[]): Trajectory {
  const key = `${unit.serial}|${unit.onTarget}|${fault.from}|${fault.to}|${faults.map((f) => `${f.kind}${f.from}${f.to}`).join()}`;
  const known = trajectories.get(key);
  if (known) return known;
  const start = cabinetTemperature(unit, fault.from, faults, true);
  const before = cabinetTemperature(unit, fault.from - FAILING_STEP, faults, true);
  // The state at the start: a defrost heating, the compressor running (falling) or stopped (rising).
  const defrost = defrostAtOrBefore(unit, fault.from, false);
  let heatStart = Number.NaN;
  let heatFrom = Number.NaN;
  let mode: 'off' | 'on' | 'heat' = start < before ? 'on' : 'off';
  if (
    fault.from - defrost < unit.heatMs &&
    !faults.some((f) => PHYSICAL.has(f.kind) && f !== fault && f.from <= defrost && f.to > defrost)
  ) {
    mode = 'heat';
    heatStart = defrost;
    heatFrom = cabinetTemperature(unit, defrost, faults, true);
  }
  const temps = [start];
  let nextDefrost = defrostAfter(unit, fault.from);
  const q0 = (unit.ambient - unit.onTarget) / unit.tau;
  const extend = (until: number) => {
    while (fault.from + (temps.length - 1) * FAILING_STEP < until) {
      const x = fault.from + (temps.length - 1) * FAILING_STEP;
      const next = x + FAILING_STEP;
      let temp = temps[temps.length - 1] as number;
      if (nextDefrost <= next) {
        mode = 'heat';
        heatStart = nextDefrost;
        heatFrom = temp;
        nextDefrost = defrostAfter(unit, nextDefrost);
      }
      if (mode === 'heat') {
        if (next - heatStart >= unit.heatMs) {
          temp = heatTemperature(unit, heatFrom, unit.heatMs);
          mode = 'on';
        } else temp = heatTemperature(unit, heatFrom, next - heatStart);
      } else if (mode === 'off') {
        temp = unit.ambient + (temp - unit.ambient) * Math.exp(-FAILING_STEP / unit.tau);
        if (temp >= unit.high) mode = 'on';
      } else {
        // The cooling power declines linearly down to its floor.
        const power = q0 * (1 - (1 - unit.failingFloor) * Math.min(1, (x - fault.from) / unit.failingMs));
        const target = unit.ambient - power * unit.tau;
        temp = target + (temp - target) * Math.exp(-FAILING_STEP / unit.tau);
        if (temp <= unit.low) mode = 'off';
      }
      temps.push(temp);
    }
  };
  const trajectory: Trajectory = {
    at(t) {
      const clamped = Math.min(t, fault.to);
      extend(clamped + FAILING_STEP);
      const i = Math.floor((clamped - fault.from) / FAILING_STEP);
      const f = (clamped - fault.from - i * FAILING_STEP) / FAILING_STEP;
      const a = temps[i] as number;
      return a + ((temps[i + 1] as number) - a) * f;
    },
  };
  if (trajectories.size > 1000) trajectories.clear();
  trajectories.set(key, trajectory);
  return trajectory;
}

/** The warming of the reading by the door's ordinary openings: it rises while open, falls once shut. */
function doorWarming(unit: ColdUnit, t: number): number {
  const slot = Math.floor(t / DOOR_SLOT);
  const runBefore = (last: number) => {
    let n = 0;
    while (n < 5 && doorOpenInSlot(unit.serial, last - n)) n += 1;
    return n;
  };
  if (doorOpenInSlot(unit.serial, slot)) {
    const openedAt = (slot - runBefore(slot - 1)) * DOOR_SLOT;
    return unit.doorBump * (1 - Math.exp(-(t - openedAt) / MINUTE));
  }
  const run = runBefore(slot - 1);
  if (run === 0) return 0;
  const peak = unit.doorBump * (1 - Math.exp(-(run * DOOR_SLOT) / MINUTE));
  return peak * Math.exp(-(t - slot * DOOR_SLOT) / (1.5 * MINUTE));
}

/** A door left open: the temperature settles `doorLeftOpenRise` higher, and comes back once shut. */
function doorLeftOpenWarming(unit: ColdUnit, t: number, faults: readonly Fault[]): number {
  let warming = 0;
  for (const fault of faults) {
    if (fault.kind !== 'door_left_open' || t < fault.from) continue;
    const open = Math.min(t, fault.to) - fault.from;
    const reached = unit.doorLeftOpenRise * (1 - Math.exp(-open / (12 * MINUTE)));
    warming += t < fault.to ? reached : reached * Math.exp(-(t - fault.to) / (10 * MINUTE));
  }
  return warming;
}

/** The probe's reading of a cold unit at t, before its own faults: cabinet, doors and jitter. */
function coldReading(unit: ColdUnit, t: number, faults: readonly Fault[]): number {
  const jitter = (noise(unit.serial, Math.floor(t / MINUTE) * 7) - 0.5) * 2 * unit.jitter;
  return cabinetTemperature(unit, t, faults) + doorLeftOpenWarming(unit, t, faults) + doorWarming(unit, t) + jitter;
}

/** The sensor's own faults: a drifting offset, or a value stuck at the one read when it failed. */
function sensorReading(read: (t: number, faults: readonly Fault[]) => number, t: number, faults: readonly Fault[]): number {
  const stuck = faults.find((fault) => fault.kind === 'sensor_stuck' && fault.from <= t && t < fault.to);
  if (stuck)
    return sensorReading(
      read,
      stuck.from,
      faults.filter((fault) => fault !== stuck),
    );
  let value = read(t, faults);
  for (const fault of faults)
    if (fault.kind === 'sensor_drift' && fault.from <= t && t < fault.to) value += (SENSOR_DRIFT_PER_DAY * (t - fault.from)) / DAY;
  return value;
}

/** How fast a drifting probe's offset grows, in °C a day. */
export const SENSOR_DRIFT_PER_DAY = 1.5;

/** A defrost as it happened: the heater's start, and the end of the pull-down back to the cut-out. */
export interface DefrostWindow {
  from: number;
  to: number;
}

/** The defrosts of a fridge or freezer between two instants, without those a fault prevented. */
export function defrostWindows(sensor: SimulatedSensor, from: number, to: number, faults: readonly Fault[] = []): DefrostWindow[] {
  if (sensor.profile !== 'fridge' && sensor.profile !== 'freezer') return [];
  const unit = coldUnit(sensor.serial, sensor.profile);
  const windows: DefrostWindow[] = [];
  for (let start = defrostAfter(unit, from - 1); start < to; start = defrostAfter(unit, start)) {
    const prevented = faults.some(
      (fault) => (fault.kind === 'power_cut' || fault.kind === 'defrost_stuck') && fault.from <= start && start < fault.to,
    );
    if (prevented) continue;
    const heatEnd = start + unit.heatMs;
    windows.push({ from: start, to: heatEnd + pullDownMs(unit, cabinetTemperature(unit, heatEnd, faults)) });
  }
  return windows;
}

/** The next scheduled defrost of a fridge or freezer strictly after t (null for other sensors). */
export function nextDefrost(sensor: SimulatedSensor, t: number): number | null {
  if (sensor.profile !== 'fridge' && sensor.profile !== 'freezer') return null;
  return defrostAfter(coldUnit(sensor.serial, sensor.profile), t);
}

/**
 * The values a sensor reports at instant t (epoch ms), for a reading every `stepSeconds`, with the
 * faults it suffers (`faults.ts`), if any.
 */
export function measure(
  sensor: SimulatedSensor,
  t: number,
  stepSeconds: number,
  faults: readonly Fault[] = [],
): Record<string, number | boolean> {
  const minute = Math.floor(t / MINUTE);
  const jitter = (amplitude: number, salt = 0) => (noise(sensor.serial, minute * 7 + salt) - 0.5) * 2 * amplitude;
  const busy = occupancy(t);
  const values: Record<string, number | boolean> = {};
  switch (sensor.profile) {
    case 'fridge':
    case 'freezer': {
      const unit = coldUnit(sensor.serial, sensor.profile);
      values['temperature'] = round(sensorReading((at, list) => coldReading(unit, at, list), t, faults));
      break;
    }
    case 'room': {
      const daily = Math.sin(2 * Math.PI * (dayFraction(t) - 0.3));
      values['temperature'] = round(20 + 1.5 * daily + busy * 0.8 + jitter(0.2));
      values['humidity'] = round(47 - 5 * daily + jitter(1));
      break;
    }
    case 'door':
      values['open'] =
        doorOpenInSlot(sensor.serial, Math.floor(t / DOOR_SLOT)) ||
        faults.some((fault) => fault.kind === 'door_left_open' && fault.from <= t && t < fault.to);
      break;
    case 'footfall':
      values['visitors'] = Math.round(busy * (stepSeconds / 60) * (1.2 + noise(sensor.serial, minute) * 1.6));
      break;
    case 'air':
      values['co2'] = Math.round(430 + busy * 650 + jitter(25));
      values['temperature'] = round(20.5 + busy + jitter(0.2));
      break;
  }
  values['battery'] = battery(sensor, t);
  return values;
}

const round = (value: number) => Math.round(value * 100) / 100;
