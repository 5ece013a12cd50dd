/**
 * The evaluation's scenarios: a cabinet drawn at random (cabinet.ts), a week and more of healthy
 * history, then one fault, or a fortnight of health. Each is sampled at every cadence by
 * sampling.ts. Everything follows from the seed base and the scenario's place: the same command
 * gives the same scenarios, another `--seed` gives others.
 *
 * A draw is kept only when the fault does what it is meant to within the run: a stopped compressor
 * or a door left ajar takes the unit past its limit between 1 h 30 and 8 h after it starts (sooner,
 * no causal method could warn 30 min ahead at a 15-minute cadence; later, it is a slow loss); a
 * compressor that weakens, between 3 h and 3 days.
 */
import {
  type CabinetKind,
  type CabinetParams,
  DAY,
  drawCabinet,
  type Fault,
  type FaultKind,
  firstCrossing,
  HOUR,
  MINUTE,
  nextDefrost,
  simulate,
  type Trace,
  wallConductance,
} from './cabinet.ts';
import { type Random, randomStream } from './random.ts';
import { type Sampled, sample } from './sampling.ts';

export const CADENCES_MINUTES = [1, 5, 10, 15] as const;
export type ScenarioKind = FaultKind | 'healthy';
export const SCENARIO_KINDS: readonly ScenarioKind[] = [
  'compressor_stop',
  'door_ajar',
  'slow_loss',
  'defrost_stuck',
  'sensor_drift',
  'sensor_frozen',
  'power_cut',
  'healthy',
];

/** The analysis learns from seven days: the fault comes after 7 days and 6 to 30 hours of health. */
const HEALTHY_HISTORY_MIN = 7 * DAY + 6 * HOUR;
const HEALTHY_HISTORY_MAX = 7 * DAY + 30 * HOUR;
/** A healthy run: 14 days, the second week analysed. */
const HEALTHY_DAYS = 14;
/** Simulated before the first reading, for the cabinet to settle. */
const WARM_UP = 12 * HOUR;
/** Fridges and freezers in turn (three in four are fridges), whatever the draws turned down. */
const CABINETS: readonly CabinetKind[] = ['fridge', 'freezer', 'fridge', 'fridge'];
/** Monday 5 January 2026, midnight UTC; each scenario starts at a random minute of the next four weeks. */
const EPOCH = Date.UTC(2026, 0, 5);

export interface Scenario {
  kind: ScenarioKind;
  index: number;
  params: CabinetParams;
  fault: Fault | null;
  /** First and last instants of readings. */
  from: number;
  to: number;
  /** The fault's start (for a healthy run, the start of the analysed week). */
  onset: number;
  trace: Trace;
  /** The probe's first true crossing of the limit after the onset, if any within the run. */
  crossing: number | null;
  /** How many draws were turned down before this one (see above). */
  redrawn: number;
}

function drawFault(kind: FaultKind, params: CabinetParams, onset: number, random: Random): Fault {
  switch (kind) {
    case 'compressor_stop':
      return { kind, at: onset };
    case 'slow_loss':
      return { kind, at: onset, lossHours: random.uniform(12, 48) };
    case 'door_ajar': {
      // A leak that would hold the unit, compressor running all the time, 0,5 to 4 K above its limit
      // in the room's mean temperature: 1 + leak = cooling power / (conductance × (room − that level)).
      const level = params.limit + random.uniform(0.5, 4);
      const leak = params.coolingPower / (wallConductance(params) * Math.max(0.5, params.ambientMean - level)) - 1;
      return { kind, at: onset, leak: Math.max(0.2, leak) };
    }
    case 'defrost_stuck':
      return { kind, at: nextDefrost(params, onset), heaterStaysOn: params.defrostHeater > 0 && random.chance(0.5) };
    case 'sensor_drift':
      return { kind, at: onset, perDay: (random.chance(0.5) ? 1 : -1) * random.uniform(1, 3) };
    case 'sensor_frozen':
      return { kind, at: onset };
    case 'power_cut':
      return { kind, at: onset, durationMs: random.uniform(1, 4) * HOUR };
  }
}

/** How long the run goes on after the fault starts, the crossing known. */
function tailOf(fault: Fault, crossing: number | null): number | null {
  const after = crossing === null ? null : crossing - fault.at;
  switch (fault.kind) {
    case 'compressor_stop':
    case 'door_ajar':
      return after !== null && after >= 90 * MINUTE && after <= 8 * HOUR ? after + HOUR : null;
    case 'slow_loss':
      return after !== null && after >= 3 * HOUR && after <= 3 * DAY ? after + HOUR : null;
    case 'defrost_stuck':
      return Math.max(6 * HOUR, (after ?? 0) + HOUR);
    case 'sensor_drift':
      return 48 * HOUR;
    case 'sensor_frozen':
      return 12 * HOUR;
    case 'power_cut':
      return fault.durationMs + 3 * HOUR;
  }
}

/** The scenario `index` of this kind under the seed base. */
export function buildScenario(seedBase: number, kind: ScenarioKind, index: number): Scenario {
  const random = randomStream(seedBase, 'scenario', kind, index);
  for (let redrawn = 0; ; redrawn += 1) {
    const from = EPOCH + Math.floor(random.uniform(0, 28 * 24 * 60)) * MINUTE;
    // A door left ajar needs a door (an open-front cabinet has none).
    const params = drawCabinet(random, from - WARM_UP, CABINETS[index % CABINETS.length], kind === 'door_ajar' ? true : undefined);
    if (kind === 'healthy') {
      const to = from + HEALTHY_DAYS * DAY + random.uniform(0, 6) * HOUR;
      const trace = simulate(params, null, from - WARM_UP, to);
      const onset = from + 7 * DAY;
      return { kind, index, params, fault: null, from, to, onset, trace, crossing: firstCrossing(trace, params.limit, from), redrawn };
    }
    const onset = from + random.uniform(HEALTHY_HISTORY_MIN, HEALTHY_HISTORY_MAX);
    const fault = drawFault(kind, params, onset, random);
    // Long enough for the slowest fault; cut to the tail once the crossing is known.
    const horizon = fault.at + (kind === 'slow_loss' ? 3 * DAY + 2 * HOUR : 48 * HOUR);
    const trace = simulate(params, fault, from - WARM_UP, horizon);
    const crossing = firstCrossing(trace, params.limit, fault.at);
    const tail = tailOf(fault, crossing);
    if (tail === null && redrawn < 500) continue;
    return { kind, index, params, fault, from, to: fault.at + (tail ?? HOUR), onset: fault.at, trace, crossing, redrawn };
  }
}

/** The scenario as the sensor reports it at this cadence. */
export function sampleScenario(seedBase: number, scenario: Scenario, cadenceMinutes: number): Sampled {
  const random = randomStream(seedBase, 'sampling', scenario.kind, scenario.index, cadenceMinutes);
  // A gap or a late batch in the healthy history, ending two hours before the fault (anywhere after the first day when healthy).
  const quietFrom = scenario.from + DAY;
  const quietTo = scenario.fault ? scenario.onset - 2 * HOUR : scenario.to;
  return sample(scenario.trace, scenario.params, scenario.fault, cadenceMinutes, random, {
    from: scenario.from,
    to: scenario.to,
    quietFrom,
    quietTo,
  });
}
