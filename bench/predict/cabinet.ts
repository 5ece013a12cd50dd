/**
 * A refrigerated cabinet as a thermal model, integrated in time, for the evaluation of the
 * predictive analysis (`npm run eval:predict`). Independent of the demo simulator on purpose: the
 * analysis must not be judged on the data it was built beside.
 *
 * Two heat capacities (the cabinet's whole capacity is 1, so powers are in kelvins an hour on the
 * whole cabinet):
 * - the air (with the evaporator and shelves, share `airShare`): the room leaks into it through the
 *   walls (conductance 1/τ), the compressor cools it, the defrost heater and the door openings warm it;
 * - the load (food and walls, the rest): exchanges heat with the air only (in `couplingHours`).
 * With the cooling off, the cabinet relaxes toward the room with time constant close to τ (the slow
 * mode of the two capacities). The thermostat reads the air, with a differential (`band`) and a
 * minimum off time; a timer starts defrosts (compressor off, heater on if the unit has one). The
 * sensor sits between the air and the load (`probeAirShare`), with noise, an offset and a
 * resolution of 0,1 °C (applied when readings are sampled, see sampling.ts).
 *
 * Euler steps of 10 s: the fastest rate of the model (air toward load, at most 5 per hour) times the
 * step stays below 0,02.
 */
import { type Random, randomStream } from './random.ts';

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
export const STEP_MS = 10 * SECOND;
/** Shops in France: local time taken as UTC+1 (winter time) for opening hours and the daily swing. */
const LOCAL_OFFSET_MS = HOUR;

export type CabinetKind = 'fridge' | 'freezer';

export interface Doors {
  /** Openings an hour while the shop is open (a Poisson process). */
  perHour: number;
  /** Mean length of an opening (exponential, at most 2 min). */
  meanSeconds: number;
  /** Heat let in while open (K/h on the whole cabinet, into the air). */
  heat: number;
  /** Opening hours, local time. */
  opensAt: number;
  closesAt: number;
  sundayClosed: boolean;
}

export interface CabinetParams {
  kind: CabinetKind;
  /** Seeds the door openings. */
  seed: number;
  /** The alert rule's limit: +8 °C for chilled food, −18 °C for frozen food (the product's presets). */
  limit: number;
  /** Thermostat: the compressor starts above setpoint + band/2 and stops below setpoint − band/2 (air). */
  setpoint: number;
  band: number;
  /** Minimum time the compressor stays off once stopped (short-cycle protection). */
  minOffMinutes: number;
  /** Time constant toward the room with the cooling off (hours): conductance 1/τ. */
  tauHours: number;
  /** Share of the heat capacity in the air node. */
  airShare: number;
  /** Time for the air to settle to the load's temperature (hours). */
  couplingHours: number;
  /** The sensor reads this share of the air's temperature, the rest of the load's. */
  probeAirShare: number;
  /** Duty cycle the compressor was sized for, at the mean room temperature. */
  designDuty: number;
  /** Cooling power of the running compressor (K/h). */
  coolingPower: number;
  /** Room temperature: mean, daily half swing (peak at `ambientPeakHour`, local time), and a day-to-day wander. */
  ambientMean: number;
  ambientSwing: number;
  ambientPeakHour: number;
  /** Offsets of the room's mean, one a day from `origin` (interpolated). */
  ambientDays: number[];
  origin: number;
  /** Defrost: every so many hours from `defrostOrigin`, for so many minutes, then a 3-minute drip. */
  defrostEveryHours: number;
  defrostMinutes: number;
  defrostOrigin: number;
  /** Heater power during a defrost (K/h); 0 for an off-cycle defrost (compressor stopped only). */
  defrostHeater: number;
  /** Null for an open-front cabinet. */
  doors: Doors | null;
  /** Sensor: standard deviation of the noise and constant offset (°C). */
  noise: number;
  offset: number;
}

export type Fault =
  /** The compressor stops for good (the thermostat still calls). */
  | { kind: 'compressor_stop'; at: number }
  /** The cooling power falls linearly to nothing over `lossHours` (refrigerant leak, failing fan). */
  | { kind: 'slow_loss'; at: number; lossHours: number }
  /** A door left ajar: the walls' conductance grows by `leak` times its own. */
  | { kind: 'door_ajar'; at: number; leak: number }
  /** A defrost that never ends, at a scheduled defrost's start: the compressor never restarts, the heater stays on or not. */
  | { kind: 'defrost_stuck'; at: number; heaterStaysOn: boolean }
  /** The sensor's reading slides by `perDay` °C a day; the cabinet is fine. */
  | { kind: 'sensor_drift'; at: number; perDay: number }
  /** The sensor keeps reporting its last value; the cabinet is fine. */
  | { kind: 'sensor_frozen'; at: number }
  /** No power for `durationMs`: no cooling, no heater, no readings (the gateway is down too). */
  | { kind: 'power_cut'; at: number; durationMs: number };

export type FaultKind = Fault['kind'];
export const FAULT_KINDS: readonly FaultKind[] = [
  'compressor_stop',
  'slow_loss',
  'door_ajar',
  'defrost_stuck',
  'sensor_drift',
  'sensor_frozen',
  'power_cut',
];

/**
 * The walls' conductance that gives the cabinet, cooling off, the slow rate 1/τ: the smaller root r
 * of r² − r·(k/a + g/a + g/(1 − a)) + k·g/(a(1 − a)) = 0 (a the air's share, g the coupling), solved
 * for k.
 */
export function wallConductance(p: Pick<CabinetParams, 'tauHours' | 'airShare' | 'couplingHours'>): number {
  const r = 1 / p.tauHours;
  const a = p.airShare;
  const g = (a * (1 - a)) / p.couplingHours;
  return (r * (g / a + g / (1 - a) - r)) / (g / (a * (1 - a)) - r / a);
}

/** The room temperature at t. */
export function ambientAt(p: CabinetParams, t: number): number {
  const day = (t - p.origin) / DAY;
  const i = Math.max(0, Math.min(p.ambientDays.length - 2, Math.floor(day)));
  const w = Math.max(0, Math.min(1, day - i));
  const wander = (p.ambientDays[i] ?? 0) * (1 - w) + (p.ambientDays[i + 1] ?? 0) * w;
  const hour = ((((t + LOCAL_OFFSET_MS) % DAY) + DAY) % DAY) / HOUR;
  return p.ambientMean + wander + p.ambientSwing * Math.cos((2 * Math.PI * (hour - p.ambientPeakHour)) / 24);
}

function shopOpen(doors: Doors, t: number): boolean {
  const local = t + LOCAL_OFFSET_MS;
  const hour = (((local % DAY) + DAY) % DAY) / HOUR;
  // 1 January 1970 was a Thursday: with Sunday as 0, a day's weekday is (days since then + 4) mod 7.
  const sunday = (Math.floor(local / DAY) + 4) % 7 === 0;
  return hour >= doors.opensAt && hour < doors.closesAt && !(doors.sundayClosed && sunday);
}

/** Whether a scheduled defrost is going on at t (drip included), and whether its heater is. */
function scheduledDefrost(p: CabinetParams, t: number): { defrost: boolean; heating: boolean } {
  const every = p.defrostEveryHours * HOUR;
  const phase = (((t - p.defrostOrigin) % every) + every) % every;
  const heating = phase < p.defrostMinutes * MINUTE;
  return { defrost: phase < (p.defrostMinutes + 3) * MINUTE, heating };
}

/** The start of the first scheduled defrost at or after t. */
export function nextDefrost(p: CabinetParams, t: number): number {
  const every = p.defrostEveryHours * HOUR;
  return p.defrostOrigin + Math.ceil((t - p.defrostOrigin) / every) * every;
}

export interface Trace {
  from: number;
  stepMs: number;
  /** The probe's true temperature (before noise, offset, drift and resolution). */
  sensed: Float32Array;
  air: Float32Array;
  /** 1 while the compressor runs. */
  running: Uint8Array;
  /** 1 during a defrost (scheduled or stuck). */
  defrosting: Uint8Array;
}

export interface SimulateOptions {
  /** Added to the room temperature (for the worst-case checks). */
  ambientShift?: number;
  /** The cabinet's state at `from` (default: both nodes at the setpoint). */
  initial?: { air: number; load: number };
}

/** The cabinet from `from` to `to`, one value per 10 s step. */
export function simulate(p: CabinetParams, fault: Fault | null, from: number, to: number, options: SimulateOptions = {}): Trace {
  const n = Math.max(1, Math.ceil((to - from) / STEP_MS));
  const trace: Trace = {
    from,
    stepMs: STEP_MS,
    sensed: new Float32Array(n),
    air: new Float32Array(n),
    running: new Uint8Array(n),
    defrosting: new Uint8Array(n),
  };
  const dt = STEP_MS / HOUR;
  const conductance = wallConductance(p);
  const coupling = (p.airShare * (1 - p.airShare)) / p.couplingHours;
  const doorRandom: Random = randomStream(p.seed, 'doors', from);
  let air = options.initial?.air ?? p.setpoint;
  let load = options.initial?.load ?? p.setpoint;
  let calling = false;
  let offUntil = -Infinity;
  let doorUntil = -Infinity;
  let wasRunning = false;
  for (let i = 0; i < n; i += 1) {
    const t = from + i * STEP_MS;
    const active = fault !== null && t >= fault.at;
    const room = ambientAt(p, t) + (options.ambientShift ?? 0);
    const cut = fault?.kind === 'power_cut' && active && t < fault.at + fault.durationMs;
    let { defrost, heating } = scheduledDefrost(p, t);
    if (fault?.kind === 'defrost_stuck' && active) {
      defrost = true;
      heating = fault.heaterStaysOn || heating;
    }
    let power = p.coolingPower;
    if (active && fault?.kind === 'compressor_stop') power = 0;
    if (active && fault?.kind === 'slow_loss') power *= Math.max(0, 1 - (t - fault.at) / (fault.lossHours * HOUR));
    if (cut) {
      power = 0;
      heating = false;
    }
    let walls = conductance;
    if (active && fault?.kind === 'door_ajar') walls *= 1 + fault.leak;

    if (air > p.setpoint + p.band / 2) calling = true;
    else if (air < p.setpoint - p.band / 2) calling = false;
    const running = calling && !defrost && !cut && t >= offUntil;
    if (wasRunning && !running) offUntil = t + p.minOffMinutes * MINUTE;
    wasRunning = running;

    let doorHeat = 0;
    if (p.doors && shopOpen(p.doors, t)) {
      if (t >= doorUntil && doorRandom.chance(p.doors.perHour * dt))
        doorUntil = t + Math.min(120, doorRandom.exponential(p.doors.meanSeconds)) * SECOND;
      if (t < doorUntil) doorHeat = p.doors.heat;
    }

    trace.air[i] = air;
    trace.sensed[i] = p.probeAirShare * air + (1 - p.probeAirShare) * load;
    trace.running[i] = running ? 1 : 0;
    trace.defrosting[i] = defrost ? 1 : 0;

    const airRate =
      (walls * (room - air) + coupling * (load - air) - (running ? power : 0) + (heating ? p.defrostHeater : 0) + doorHeat) / p.airShare;
    const loadRate = (coupling * (air - load)) / (1 - p.airShare);
    air += airRate * dt;
    load += loadRate * dt;
  }
  return trace;
}

/** The probe's true temperature at ts (linear between steps). */
export function trueAt(trace: Trace, ts: number): number {
  const x = (ts - trace.from) / trace.stepMs;
  const i = Math.max(0, Math.min(trace.sensed.length - 1, Math.floor(x)));
  const j = Math.min(trace.sensed.length - 1, i + 1);
  const w = Math.max(0, Math.min(1, x - i));
  return (trace.sensed[i] ?? Number.NaN) * (1 - w) + (trace.sensed[j] ?? Number.NaN) * w;
}

/** The first instant at or after `after` when the probe's true temperature exceeds `limit`, if any. */
export function firstCrossing(trace: Trace, limit: number, after: number, before = Infinity): number | null {
  const first = Math.max(0, Math.ceil((after - trace.from) / trace.stepMs));
  for (let i = first; i < trace.sensed.length; i += 1) {
    const t = trace.from + i * trace.stepMs;
    if (t > before) return null;
    if ((trace.sensed[i] ?? -Infinity) > limit) return t;
  }
  return null;
}

/** The warmest the probe truly gets in [from, to). */
export function warmest(trace: Trace, from: number, to: number): number {
  let max = -Infinity;
  const first = Math.max(0, Math.floor((from - trace.from) / trace.stepMs));
  const last = Math.min(trace.sensed.length, Math.ceil((to - trace.from) / trace.stepMs));
  for (let i = first; i < last; i += 1) max = Math.max(max, trace.sensed[i] ?? -Infinity);
  return max;
}

/**
 * A cabinet drawn at random: a chilled-food fridge (setpoint +2 to +5 °C, limit +8 °C) three times
 * in four, else a freezer (−25 to −21 °C, limit −18 °C). The ranges are wide on purpose; the
 * defrost heater (then the door heat) is scaled down, the setpoint lowered to the range's bottom,
 * the defrosts shortened to 15 min, the setpoint lowered by 1 K more, the differential narrowed,
 * until a healthy unit stays 1 K below its limit in a warm room (the limit is the regulation's, a
 * healthy unit must keep it). `kind` and `withDoors` impose what would otherwise be drawn.
 */
export function drawCabinet(random: Random, origin: number, kind?: CabinetKind, withDoors?: boolean): CabinetParams {
  const fridge = (kind ?? (random.chance(0.75) ? 'fridge' : 'freezer')) === 'fridge';
  const limit = fridge ? 8 : -18;
  const setpoint = fridge ? random.uniform(2, 5) : random.uniform(-25, -21);
  const band = random.uniform(1.5, Math.max(1.5, Math.min(3, 2 * (limit - 2 - setpoint))));
  const ambientMean = random.uniform(18, 24);
  const drawnDoors = fridge ? random.chance(0.6) : random.chance(0.85);
  const hasDoors = withDoors ?? drawnDoors;
  const airShare = random.uniform(0.2, 0.4);
  const doors: Doors | null = hasDoors
    ? {
        perHour: fridge ? random.uniform(2, 20) : random.uniform(1, 8),
        meanSeconds: random.uniform(5, 25),
        // An opening of 15 s warms the air by 0,2 to 0,8 K.
        heat: (random.uniform(0.2, 0.8) * airShare * HOUR) / (15 * SECOND),
        opensAt: random.uniform(7, 9.5),
        closesAt: random.uniform(19, 21.5),
        sundayClosed: random.chance(0.5),
      }
    : null;
  const designDuty = random.uniform(0.3, 0.6);
  const tauHours = fridge ? (hasDoors ? random.uniform(2.5, 7) : random.uniform(1.5, 4)) : random.uniform(8, 30);
  const doorLoad = doors ? (doors.perHour * doors.meanSeconds * doors.heat * 0.5) / HOUR : 0;
  // The air settles on the load well within τ (the slow mode then is the cabinet's).
  const couplingHours = Math.min(random.uniform(0.1, 0.3), (airShare * tauHours) / 3);
  const conductance = wallConductance({ tauHours, airShare, couplingHours });
  const coolingPower = ((ambientMean - setpoint) * conductance + doorLoad) / designDuty;
  const everyHours = random.uniform(6, 8);
  const defrostMinutes = random.uniform(20, 30);
  const params: CabinetParams = {
    kind: fridge ? 'fridge' : 'freezer',
    seed: Math.floor(random.next() * 2 ** 32),
    limit,
    setpoint,
    band,
    minOffMinutes: random.uniform(2, 5),
    tauHours,
    airShare,
    couplingHours,
    probeAirShare: fridge ? random.uniform(0.4, 0.9) : random.uniform(0.2, 0.7),
    designDuty,
    coolingPower,
    ambientMean,
    ambientSwing: random.uniform(0.5, 3),
    ambientPeakHour: random.uniform(13, 18),
    ambientDays: Array.from({ length: 40 }, () => random.uniform(-1, 1)),
    origin,
    defrostEveryHours: everyHours,
    defrostMinutes,
    defrostOrigin: origin + random.uniform(0, everyHours) * HOUR,
    // Fridges often defrost by stopping the compressor alone; freezers need a heater. Most of its
    // heat melts the ice: what reaches the cabinet would warm all of it by 0,3 to 1 K.
    defrostHeater: fridge && random.chance(0.5) ? 0 : random.uniform(0.3, 1) / (defrostMinutes / 60),
    doors,
    noise: random.uniform(0.02, 0.1),
    offset: random.uniform(-0.3, 0.3),
  };
  // Keep a healthy unit 1 K below its limit over two days in a room 1,5 K warmer than drawn.
  const [lowest, colder] = fridge ? [2, 1] : [-25, -26];
  for (let attempt = 0; attempt < 40; attempt += 1) {
    const trace = simulate(params, null, origin, origin + 2 * DAY, { ambientShift: 1.5 });
    if (warmest(trace, origin + 6 * HOUR, origin + 2 * DAY) <= limit - 1) break;
    if (params.defrostHeater > 0.1) params.defrostHeater *= 0.7;
    else if (params.doors && params.doors.heat > 10 * params.airShare) params.doors.heat *= 0.7;
    // What a technician does with a unit that warms too much: set it colder, shorten its defrosts,
    // set it colder still, narrow its differential.
    else if (params.setpoint > lowest) params.setpoint = Math.max(lowest, params.setpoint - 0.25);
    else if (params.defrostMinutes > 15) params.defrostMinutes = Math.max(15, params.defrostMinutes - 2);
    else if (params.setpoint > colder) params.setpoint = Math.max(colder, params.setpoint - 0.25);
    else params.band = Math.max(1, params.band * 0.85);
  }
  return params;
}
