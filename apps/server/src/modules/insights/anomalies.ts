/**
 * Anomaly detection of the predictive analysis (docs/api.md, Analyse prédictive): a causal detector fed one bucket at a
 * time (its start and mean value), which learns what is normal for this sensor and reports what is
 * not, each anomaly with a kind, a score in [0, 1] and a plain French explanation.
 *
 * - The learnt normal is a seasonal profile by phase: for each bucket, the median of the values at
 *   the same phase of the previous periods (a day, a week, or a period of two hours to a day found
 *   by autocorrelation), the neighbouring bucket either side forgiving a small shift. The period
 *   is chosen on the last week by the smallest error, and chosen again every day. The residual
 *   (value − that median) is standardised by the spread of those values, shrunk towards the
 *   usual residual when they are few.
 * - `pattern`: the standardised residual far out over ten or fifteen minutes (or one bucket very
 *   far out, for a generic signal). `level_shift`: its median over a window (30 min for a cold
 *   unit, an hour otherwise) beyond what that median usually reaches, for ten minutes in a row; a
 *   pattern that lasts becomes a level shift (one anomaly). `drift`: hourly residual medians that
 *   leave their usual band by a steady, gradual climb of six hours or more (Theil–Sen). `noise`:
 *   the median step-to-step change over an hour far above its usual level. `flatline`: the same
 *   value for far longer than this sensor ever holds still (and never less than 30 min for a cold
 *   unit, an hour otherwise); nothing else is read into a stuck sensor's values.
 * - A generic signal's thresholds for `pattern`, `level_shift` and `noise` are also read from the
 *   tail of its own statistics over four weeks (`tailQuantile`, peaks over threshold), at the
 *   value each would exceed once per `falseAlarmMs`: a bursty, heavy-tailed signal gets higher
 *   thresholds than a gaussian one of the same spread, whatever its unit and step.
 * - Cold units: their cooling cycles (`cycles.ts`) give `compressor` (cooling runs or cycles much
 *   longer than usual, or no cycle completing while the temperature climbs); their defrosts
 *   (`defrost.ts`) are recognised, and the time a defrost is due is left to `defrost_long` and
 *   `defrost_missed`.
 * - Doors (`door.ts`): `door_open` for an opening far longer than usual at this hour.
 *
 * Durations are in ms, so the same settings hold at any step. Nothing is reported in the first day
 * (warm-up), and an anomaly is reported once while it lasts: its extent (`to`) grows instead, and
 * it closes after an hour without holding.
 */
import type { AnomalyKind } from '@vigie/contract';
import { CycleTracker, type CycleStats } from './cycles.ts';
import { type CycleShape, DefrostLearner } from './defrost.ts';
import { DOOR_FLOOR_MS, DoorWatch } from './door.ts';
import { detectPeriod, type Series } from './forecast.ts';
import { frDuration, frNumber, frTemperature, frValue } from './french.ts';
import { SampleRing, madInPlace, medianInPlace, quantileSorted, tailQuantile } from './robust.ts';

export { excursions } from './degree-hours.ts';
export type { DegreeHoursExcursion, ExcursionLimit, ExcursionOptions } from './degree-hours.ts';

export type SignalProfile = 'cold' | 'door' | 'generic';

export interface DetectorOptions {
  stepMs: number;
  profile: SignalProfile;
  /** Settings that differ from the profile's defaults (the evaluation's grid). */
  settings?: Partial<DetectorSettings>;
}

/** Epoch ms; `score` in [0, 1]. */
export interface DetectedAnomaly {
  from: number;
  to: number;
  score: number;
  kind: AnomalyKind;
  explanation: string;
}

/** Epoch ms. */
export interface DetectedDefrost {
  from: number;
  to: number;
}

export interface AnomalyDetector {
  /** Feeds one bucket (its start, its mean value, null for a gap) in time order; returns the anomalies first raised at this step (causal: only past and present data). */
  push(ts: number, value: number | null): DetectedAnomaly[];
  /** Every anomaly found so far, each with its final extent (`to` = last bucket where it still held), merged when the same kind touches. */
  anomalies(): DetectedAnomaly[];
  /** Defrost cycles recognised so far. */
  defrosts(): DetectedDefrost[];
  /** Whether a defrost on the unit's beat was warming it at the last bucket fed, for no longer than usual. */
  defrosting(): boolean;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;

/** No anomaly is reported before this much history. */
const WARM_UP_MS = DAY;
/** History kept: four weeks and a day (a weekly profile over up to four weeks). */
const HISTORY_MS = 4 * WEEK + DAY;
const MAX_HISTORY_BUCKETS = 50_000;
/** Learnt distributions cover about a week. */
const LEARN_MS = WEEK;
/** The tails of the departures (thresholds aiming at a false-alarm rate) are read on four weeks, at most this many values. */
const TAIL_MS = 4 * WEEK;
const TAIL_SAMPLES = 10_000;
/** How often the learnt thresholds are refreshed, and the profile's period chosen again. */
const REFRESH_MS = 4 * HOUR;
const RESELECT_MS = DAY;
/** A phase's neighbour within this time counts as the same phase (one bucket either side at most). */
const PHASE_SLACK_MS = 5 * MINUTE;
/** The phase's spread counts as this many values of the usual residual spread (shrinkage). */
const SHRINK = 6;
/** `pattern` and `level_shift` judge a bucket once its phase has been seen twice; below this many times its departures are divided by `THIN_PHASE`. */
const MIN_PERIODS = 3;
const THIN_PHASE = 1.5;
/** An anomaly that stops holding is closed after this quiet time; if it comes back before, it goes on. */
const COOL_DOWN_MS = HOUR;
/** The kinds judged on the residual from the profile (and the compressor's), kept out of a defrost. */
const RESIDUAL_KINDS: readonly AnomalyKind[] = ['pattern', 'level_shift', 'noise', 'drift', 'compressor', 'flatline'];
/** The residual's departures, during which nothing is learnt as normal. */
const DEVIATIONS: readonly AnomalyKind[] = ['pattern', 'level_shift', 'noise', 'flatline'];
/** A cold unit already failing (or its probe stuck): a missing or overlong defrost cannot be told. */
const FAILING: readonly AnomalyKind[] = ['flatline', 'compressor', 'level_shift', 'pattern'];
/** The usual cycle leaves out the last six (so that a failing compressor does not become the norm). */
const USUAL_SKIP = 6;
/**
 * Buckets longer than this never show a compressor's cycles (ten minutes to an hour): the turning
 * points of readings that seldom are the sampling's own beat against the cycle.
 */
const MAX_CYCLE_STEP_MS = 5 * MINUTE;
/** The cycles this long after a defrost recover from its heat, and say nothing of the compressor. */
const AFTER_DEFROST_MS = 90 * MINUTE;
/** Hourly residual medians kept for `drift`. */
const HOURLY_MEMORY = 14 * 24;

export interface DetectorSettings {
  /** `pattern`: mean |z| over `patternMs` (at least two buckets), or one bucket beyond `spikeZ`. */
  patternZ: number;
  patternMs: number;
  spikeZ: number;
  /** The smallest departure worth a `pattern` or a `level_shift` (in the signal's unit; 0: none). */
  minShift: number;
  /** `level_shift`: median of the standardised residual over this window. */
  levelMs: number;
  /** `flatline`: never before this, and never before 3× the longest still run seen. */
  flatMs: number;
  /** Floor of the residual scale, in the signal's unit (0: a thousandth of its range). */
  scaleFloor: number;
  /** `drift`: the smallest total change (0: none). */
  driftFloor: number;
  /** `noise`: the smallest median step-to-step change (0: none). */
  noiseFloor: number;
  /**
   * The time between false alarms that the thresholds of `pattern`, `level_shift` and `noise` aim
   * at, each read from the tail of the series' own statistic (`tailQuantile`); `patternZ`,
   * `spikeZ` and the learnt thresholds stay the floors (0: fixed thresholds only).
   */
  falseAlarmMs: number;
}

export const DEFAULT_SETTINGS: Record<Exclude<SignalProfile, 'door'>, DetectorSettings> = {
  cold: {
    patternZ: 4,
    patternMs: 15 * MINUTE,
    spikeZ: Infinity,
    minShift: 1.5,
    levelMs: 30 * MINUTE,
    flatMs: 30 * MINUTE,
    scaleFloor: 0.1,
    driftFloor: 0.8,
    noiseFloor: 0.2,
    falseAlarmMs: 0,
  },
  // `falseAlarmMs`, `patternZ` and `spikeZ` are those the leave-one-file-out evaluation of
  // bench/nab-score.ts chooses from its grid with every NAB file of ../shared/data/nab in sight
  // (the best total score): the choice it makes for a file it has not seen, not a fit to one file.
  generic: {
    patternZ: 6,
    patternMs: 10 * MINUTE,
    spikeZ: 12,
    minShift: 0,
    levelMs: HOUR,
    flatMs: HOUR,
    scaleFloor: 0,
    driftFloor: 0,
    noiseFloor: 0,
    falseAlarmMs: 7 * DAY,
  },
};

/** A score in [0, 1] from how far past its threshold a statistic is (ratio ≥ 1): 0,3 at the threshold, 1 at 2,4×. */
function severity(ratio: number): number {
  if (!Number.isFinite(ratio)) return 1;
  return Math.round(Math.max(0, Math.min(1, 0.3 + 0.5 * (ratio - 1))) * 100) / 100;
}

interface Episode {
  kind: AnomalyKind;
  from: number;
  to: number;
  score: number;
  /** How far past its threshold it went (1 at the threshold): its explanation is that of its strongest moment. */
  strength: number;
  explanation: string;
  /** Last bucket it could not be judged (kept out of the detectors): the cool-down runs from the later of this and `to`. */
  alive: number;
}

/**
 * Episodes by kind: raised once, extended while they hold, merged when the same kind comes back
 * soon. A `pattern` and a `level_shift` are the same departure from the profile seen over a short
 * and a longer window: they make one episode, which becomes a `level_shift` once the level has
 * held (reported once, with the latest kind).
 */
class Episodes {
  private readonly list: Episode[] = [];
  private readonly last = new Map<AnomalyKind, Episode>();
  private readonly stepMs: number;

  constructor(stepMs: number) {
    this.stepMs = stepMs;
  }

  private static slot(kind: AnomalyKind): AnomalyKind {
    return kind === 'level_shift' ? 'pattern' : kind;
  }

  private get coolDown(): number {
    return Math.max(COOL_DOWN_MS, 2 * this.stepMs);
  }

  /** The condition of `kind` holds at `ts`, `strength` past its threshold: returns the anomaly when it is newly raised. */
  hold(kind: AnomalyKind, ts: number, from: number, strength: number, explanation: string): DetectedAnomaly | null {
    const last = this.last.get(Episodes.slot(kind));
    if (last && (ts - Math.max(last.to, last.alive) <= this.coolDown || from <= last.to + this.stepMs)) {
      last.to = ts;
      if (kind === 'level_shift' && last.kind === 'pattern') {
        last.kind = kind;
        last.strength = Math.max(last.strength, strength);
        last.score = severity(last.strength);
        last.explanation = explanation;
      } else if (kind !== last.kind) {
        // A short departure within a level shift: the level shift tells it.
      } else if (strength > last.strength) {
        last.strength = strength;
        last.score = severity(strength);
        last.explanation = explanation;
      } else if (kindKeepsLatestText(kind)) {
        last.explanation = explanation;
      }
      return null;
    }
    const episode: Episode = { kind, from: Math.min(from, ts), to: ts, score: severity(strength), strength, explanation, alive: ts };
    this.list.push(episode);
    this.last.set(Episodes.slot(kind), episode);
    return publish(episode);
  }

  /** Is an anomaly of this kind (or one of these kinds) holding at `ts` (within the cool-down)? */
  holding(kinds: AnomalyKind | readonly AnomalyKind[], ts: number): boolean {
    if (typeof kinds === 'string') return this.holds(kinds, ts);
    for (const kind of kinds) if (this.holds(kind, ts)) return true;
    return false;
  }

  private holds(kind: AnomalyKind, ts: number): boolean {
    const last = this.last.get(Episodes.slot(kind));
    return last !== undefined && ts - Math.max(last.to, last.alive) <= this.coolDown;
  }

  /** A bucket the detectors of these kinds could not judge: their open anomalies wait instead of cooling down. */
  pause(kinds: readonly AnomalyKind[], ts: number): void {
    for (const kind of kinds) {
      const last = this.last.get(Episodes.slot(kind));
      if (last && ts - Math.max(last.to, last.alive) <= this.coolDown) last.alive = ts;
    }
  }

  all(): DetectedAnomaly[] {
    return this.list.map(publish).sort((a, b) => a.from - b.from || a.to - b.to);
  }
}

const publish = (e: Episode): DetectedAnomaly => ({ from: e.from, to: e.to, score: e.score, kind: e.kind, explanation: e.explanation });

/** Durations grow while the anomaly lasts: its latest explanation is the one to show. */
const kindKeepsLatestText = (kind: AnomalyKind) =>
  kind === 'flatline' || kind === 'door_open' || kind === 'defrost_long' || kind === 'compressor' || kind === 'drift';

/** A fixed-length window of the last values (NaN for missing) with their running sum. */
class Window {
  private readonly values: Float64Array;
  private next = 0;
  private filled = 0;
  private sum = 0;
  private valid = 0;
  constructor(length: number) {
    this.values = new Float64Array(Math.max(1, length)).fill(Number.NaN);
  }
  get length(): number {
    return this.values.length;
  }
  push(value: number): void {
    const old = this.values[this.next] as number;
    if (!Number.isNaN(old)) {
      this.sum -= old;
      this.valid -= 1;
    }
    this.values[this.next] = value;
    if (!Number.isNaN(value)) {
      this.sum += value;
      this.valid += 1;
    }
    this.next = (this.next + 1) % this.values.length;
    if (this.filled < this.values.length) this.filled += 1;
    // Recompute now and then: a running sum of floats drifts.
    if (this.next === 0) {
      this.sum = 0;
      for (const v of this.values) if (!Number.isNaN(v)) this.sum += v;
    }
  }
  get full(): boolean {
    return this.filled === this.values.length;
  }
  get count(): number {
    return this.valid;
  }
  get mean(): number {
    return this.valid > 0 ? this.sum / this.valid : Number.NaN;
  }
  /** The median of the values present (`scratch` at least as long as the window). */
  median(scratch: Float64Array): number {
    let n = 0;
    for (const v of this.values) if (!Number.isNaN(v)) scratch[n++] = v;
    return medianInPlace(scratch, n);
  }
  /** Every value present, of the same sign, and at least `min` in absolute value. */
  allBeyond(min: number, sign: number): boolean {
    for (const v of this.values) if (Number.isNaN(v) || sign * v < min) return false;
    return true;
  }
}

interface Expectation {
  value: number;
  /** Robust spread (σ-equivalent) of the values at this phase and its neighbours. */
  spread: number;
  /** How many values, and how many previous periods at the exact phase. */
  count: number;
  periods: number;
}

/** The learnt thresholds, refreshed every four hours of data (every hour until first learnt). */
interface Learnt {
  residualScale: number;
  /** `pattern`: one bucket's |z| and the window's mean |z| that make a departure. */
  spikeThreshold: number;
  patternThreshold: number;
  levelThreshold: number;
  noiseTypical: number;
  noiseThreshold: number;
  stepTypical: number;
  low: number;
  high: number;
  floor: number;
}

class Detector implements AnomalyDetector {
  private readonly step: number;
  private readonly profile: SignalProfile;
  private readonly tuning: DetectorSettings;
  private readonly episodes: Episodes;
  private readonly capacity: number;
  private readonly ring: Float64Array;
  private origin: number | null = null;
  private lastIndex = -1;
  private firstValueAt: number | null = null;

  // Seasonal profile.
  private period = 0;
  private periodKind: 'day' | 'week' | 'cycle' = 'day';
  private lastSelection = -Infinity;
  private readonly slack: number;
  private readonly scratch = new Float64Array(16);
  private readonly phaseValues = new Float64Array(128);
  private readonly expectation: Expectation = { value: 0, spread: 0, count: 0, periods: 0 };
  private readonly windowScratch: Float64Array;
  private readonly levelScratch: Float64Array;
  private readonly noiseEvery: number;

  // Windows and learnt distributions.
  private readonly residualWindow: Window;
  private readonly valueWindow: Window;
  private readonly expectedWindow: Window;
  private readonly zWindow: Window;
  private readonly levelWindow: Window;
  private readonly stepWindow: Window;
  private readonly residualSamples: SampleRing;
  private readonly levelSamples: SampleRing;
  private readonly noiseSamples: SampleRing;
  private readonly stepSamples: SampleRing;
  private readonly valueSamples: SampleRing;
  private readonly zSamples: SampleRing;
  private readonly zMeanSamples: SampleRing;
  private readonly levelTail: SampleRing;
  private readonly noiseTail: SampleRing;
  private learnt: Learnt | null = null;
  private lastRefresh = -Infinity;
  private previousValue: number | null = null;
  private stepAverage = 0;

  // Pattern and level streaks (their start, for `from`).
  private patternSince: number | null = null;
  private patternSign = 0;
  private levelSince: number | null = null;
  /** Buckets in a row beyond the level threshold, and how many make a level shift (ten minutes, two buckets at least). */
  private levelRun = 0;
  private levelMedianAt = -1;
  private levelMedianValue = Number.NaN;
  private readonly levelPersistence: number;
  private levelSign = 0;

  // Flat runs.
  private runFrom: number | null = null;
  private runValue = 0;
  private runLastSeen = -Infinity;
  private longestRun = 0;
  /** When the last still run of ten minutes or more ended. */
  private flatEnded = -Infinity;

  // Drift: hourly medians of the residual.
  private hour = -1;
  private readonly hourValues: number[] = [];
  /** Hourly residual medians: `value` only for hours without an anomaly (to learn the usual band), `raw` always. */
  private readonly hourly: { hour: number; value: number; raw: number }[] = [];
  /** The drift going on: its direction, start, change over its test window and slope (per hour). */
  private driftLevel: { sign: number; from: number; change: number; slope: number } | null = null;

  // Cold units.
  private readonly cycles = new CycleTracker();
  private readonly defrost: DefrostLearner;
  /** Cycles (or cooling runs) much longer than usual, as of the last cycle. */
  private compressorState: {
    what: 'cycle' | 'cooling';
    now: number;
    usual: number;
    strength: number;
    mean: number;
    usualMean: number;
    /** Start of the cycles it was judged on. */
    since: number;
  } | null = null;

  // Doors.
  private readonly door: DoorWatch;

  // The bucket being pushed, and what it raised.
  private now = 0;
  private warm = false;
  private raised: DetectedAnomaly[] = [];
  private readonly raise: Raise = (kind, from, strength, explanation) => {
    if (!this.warm) return;
    const anomaly = this.episodes.hold(kind, this.now, from, strength, explanation);
    if (anomaly) this.raised.push(anomaly);
  };

  constructor(options: DetectorOptions) {
    if (!(options.stepMs > 0)) throw new Error('stepMs must be positive');
    this.step = options.stepMs;
    this.profile = options.profile;
    this.tuning = { ...DEFAULT_SETTINGS[options.profile === 'door' ? 'generic' : options.profile], ...options.settings };
    this.episodes = new Episodes(this.step);
    this.capacity = Math.min(MAX_HISTORY_BUCKETS, Math.ceil(HISTORY_MS / this.step) + 1);
    this.ring = new Float64Array(options.profile === 'door' ? 1 : this.capacity).fill(Number.NaN);
    this.slack = Math.min(1, Math.round(PHASE_SLACK_MS / this.step));
    const buckets = (ms: number) => Math.max(1, Math.round(ms / this.step));
    this.residualWindow = new Window(Math.max(3, buckets(this.tuning.levelMs)));
    // The explanation of a level shift speaks of the window it is judged on.
    this.valueWindow = new Window(this.residualWindow.length);
    this.expectedWindow = new Window(this.residualWindow.length);
    this.zWindow = new Window(Math.max(2, buckets(this.tuning.patternMs)));
    this.levelWindow = new Window(this.residualWindow.length);
    this.levelScratch = new Float64Array(this.levelWindow.length);
    this.levelPersistence = Math.max(2, buckets(10 * MINUTE));
    this.stepWindow = new Window(Math.max(6, buckets(HOUR)));
    this.windowScratch = new Float64Array(this.stepWindow.length);
    // The noise window's median is looked at every twelfth of it (five minutes at a one-minute step).
    this.noiseEvery = Math.max(1, Math.floor(this.stepWindow.length / 12));
    const learn = Math.min(20_000, buckets(LEARN_MS));
    this.residualSamples = new SampleRing(learn);
    this.levelSamples = new SampleRing(learn);
    this.noiseSamples = new SampleRing(learn);
    this.stepSamples = new SampleRing(learn);
    this.valueSamples = new SampleRing(learn);
    // The statistics of the last four weeks (up to 10 000 of them, evenly spread), for the tails' thresholds.
    const tail = this.profile === 'generic' && this.tuning.falseAlarmMs > 0 ? buckets(TAIL_MS) : 1;
    const keep = Math.min(tail, TAIL_SAMPLES);
    this.zSamples = new SampleRing(tail, keep, keep);
    this.zMeanSamples = new SampleRing(tail, keep, keep);
    this.levelTail = new SampleRing(tail, keep, keep);
    this.noiseTail = new SampleRing(tail, keep, keep);
    this.door = new DoorWatch(this.step);
    this.defrost = new DefrostLearner(this.step);
  }

  push(ts: number, value: number | null): DetectedAnomaly[] {
    if (!Number.isFinite(ts)) return [];
    if (this.origin === null) this.origin = ts;
    const index = Math.round((ts - this.origin) / this.step);
    if (index <= this.lastIndex) return [];
    const x = value === null || !Number.isFinite(value) ? null : value;
    // Buckets skipped by the caller are gaps.
    for (let i = Math.max(this.lastIndex + 1, index - this.ring.length); i < index; i += 1) this.ring[i % this.ring.length] = Number.NaN;
    if (index - this.lastIndex > 1) this.previousValue = null;
    this.lastIndex = index;
    if (x !== null && this.firstValueAt === null) this.firstValueAt = ts;
    const warm = this.firstValueAt !== null && ts - this.firstValueAt >= WARM_UP_MS;
    const raised: DetectedAnomaly[] = [];
    this.now = ts;
    this.warm = warm;
    this.raised = raised;
    const raise = this.raise;

    if (this.profile === 'door') {
      const opening = this.door.push(ts, x);
      if (opening && warm && opening.duration >= opening.threshold) {
        raise('door_open', opening.from, opening.duration / opening.threshold, doorText(opening));
      }
      return raised;
    }

    this.ring[index % this.ring.length] = x ?? Number.NaN;
    if (ts - this.lastSelection >= RESELECT_MS || (this.period === 0 && ts - this.lastSelection >= 6 * HOUR)) {
      this.lastSelection = ts;
      this.selectPeriod(index);
    }

    // The cold unit's cycles and defrosts come first: a defrost is kept out of the other detectors.
    let suppressed = false;
    if (this.profile === 'cold') suppressed = this.coldStep(ts, x, warm, raise);
    this.inDefrost = this.profile === 'cold' && this.defrost.warming;
    if (suppressed) this.episodes.pause(RESIDUAL_KINDS, ts);
    // A stuck sensor's values mean nothing: nothing else is read into them while it lasts.
    if (
      this.episodes.holding('flatline', ts) &&
      this.runFrom !== null &&
      x !== null &&
      Math.abs(x - this.runValue) <= 1e-9 * Math.max(1, Math.abs(x))
    ) {
      suppressed = true;
    }

    if (x === null) {
      this.residualWindow.push(Number.NaN);
      this.valueWindow.push(Number.NaN);
      this.expectedWindow.push(Number.NaN);
      this.zWindow.push(Number.NaN);
      this.levelWindow.push(Number.NaN);
      this.stepWindow.push(Number.NaN);
      if (this.runFrom !== null && ts - this.runLastSeen > 15 * MINUTE) this.endRun(ts, false);
      this.previousValue = null;
      return raised;
    }

    const expectation = this.period > 0 ? this.expect(index, x, this.period) : null;
    const learnt = this.learnt;
    const residual = expectation ? x - expectation.value : Number.NaN;
    let z = Number.NaN;
    if (learnt && expectation && !suppressed) {
      // The phase's own spread, shrunk towards the usual residual when it rests on few values.
      const global = learnt.residualScale;
      const local = Number.isFinite(expectation.spread)
        ? Math.sqrt((expectation.count * expectation.spread ** 2 + SHRINK * global ** 2) / (expectation.count + SHRINK))
        : global;
      z = residual / Math.max(local, 0.5 * global, learnt.floor);
      // Two previous periods only: the phase is barely known, its departures count for less.
      if (expectation.periods < MIN_PERIODS) z /= THIN_PHASE;
    }
    const judged = expectation !== null && expectation.periods >= 2;
    this.residualWindow.push(suppressed || !judged ? Number.NaN : residual);
    this.valueWindow.push(suppressed || !judged ? Number.NaN : x);
    this.expectedWindow.push(suppressed || !judged ? Number.NaN : (expectation as Expectation).value);
    this.zWindow.push(judged ? z : Number.NaN);
    this.levelWindow.push(judged ? z : Number.NaN);
    const change = this.previousValue === null ? Number.NaN : Math.abs(x - this.previousValue);
    if (Number.isFinite(change)) this.stepAverage = this.stepAverage === 0 ? change : 0.98 * this.stepAverage + 0.02 * change;
    this.stepWindow.push(suppressed ? Number.NaN : change);
    this.previousValue = x;

    const anomalous = this.episodes.holding(DEVIATIONS, ts);
    if (!suppressed && !anomalous) {
      if (Number.isFinite(residual)) this.residualSamples.add(Math.abs(residual));
      if (this.levelWindow.count >= Math.ceil(this.levelWindow.length * 0.7)) this.levelSamples.add(Math.abs(this.levelMedian()));
      if (this.stepWindow.count >= Math.ceil(this.stepWindow.length * 0.7) && index % this.noiseEvery === 0) {
        this.noiseSamples.add(this.stepWindow.median(this.windowScratch));
      }
      if (Number.isFinite(change)) this.stepSamples.add(change);
      this.valueSamples.add(x);
    }
    // The tails of the departures, anomalies included: what recurs within a week is not rare.
    if (!suppressed && this.profile === 'generic' && this.tuning.falseAlarmMs > 0) {
      if (judged && Number.isFinite(z)) this.zSamples.add(Math.abs(z));
      if (judged && this.zWindow.full) this.zMeanSamples.add(Math.abs(this.zWindow.mean));
      if (this.levelWindow.count >= Math.ceil(this.levelWindow.length * 0.7)) this.levelTail.add(Math.abs(this.levelMedian()));
      if (this.stepWindow.count >= Math.ceil(this.stepWindow.length * 0.7) && index % this.noiseEvery === 0) {
        this.noiseTail.add(this.stepWindow.median(this.windowScratch));
      }
    }
    if (ts - this.lastRefresh >= Math.max(REFRESH_MS, 24 * this.step) || (this.learnt === null && ts - this.lastRefresh >= HOUR)) {
      this.lastRefresh = ts;
      this.refresh();
    }

    this.flatStep(ts, x, warm, raise);
    this.driftStep(ts, suppressed ? Number.NaN : residual, warm, raise);
    if (!learnt || suppressed) return raised;
    if (warm && judged) {
      this.patternStep(ts, x, z, residual, expectation, raise);
      this.levelStep(ts, raise);
    }
    if (warm && index % this.noiseEvery === 0) this.noiseStep(ts, raise);
    return raised;
  }

  anomalies(): DetectedAnomaly[] {
    return this.episodes.all();
  }

  defrosts(): DetectedDefrost[] {
    return this.defrost.defrosts();
  }

  private inDefrost = false;

  defrosting(): boolean {
    return this.inDefrost;
  }

  // ---------------------------------------------------------------------------------------------
  // Seasonal profile
  // ---------------------------------------------------------------------------------------------

  private value(index: number): number {
    // Index of the ring for a bucket still kept, NaN otherwise.
    if (index < 0 || index > this.lastIndex || this.lastIndex - index >= this.ring.length) return Number.NaN;
    return this.ring[index % this.ring.length] as number;
  }

  private depth(period: number): number {
    if (period === Math.round(WEEK / this.step)) return 4;
    return 7;
  }

  /**
   * The median of the values at the same phase of the previous periods (the closest of the
   * neighbouring phases' medians), and the robust spread of all those values around it.
   */
  private expect(index: number, x: number, period: number, minDepth = 1): Expectation | null {
    const depth = this.depth(period);
    const slack = Math.min(this.slack, Math.floor((period - 1) / 2));
    let best = Number.NaN;
    let bestDistance = Infinity;
    let pooled = 0;
    let periods = 0;
    for (let j = -slack; j <= slack; j += 1) {
      let n = 0;
      for (let k = 1; k <= depth; k += 1) {
        const v = this.value(index - k * period + j);
        if (!Number.isNaN(v)) this.scratch[n++] = v;
      }
      if (j === 0) periods = n;
      if (n === 0) continue;
      for (let k = 0; k < n; k += 1) this.phaseValues[pooled + k] = this.scratch[k] as number;
      pooled += n;
      const m = medianInPlace(this.scratch, n);
      const distance = Math.abs(x - m) + (j === 0 ? 0 : 1e-12 * Math.abs(j));
      if (distance < bestDistance) {
        bestDistance = distance;
        best = m;
      }
    }
    if (periods < minDepth || Number.isNaN(best)) return null;
    // One object, refilled at each call (read before the next one).
    const out = this.expectation;
    out.value = best;
    out.spread = pooled >= 3 ? 1.4826 * madInPlace(this.phaseValues, pooled, best) : Number.NaN;
    out.count = pooled;
    out.periods = periods;
    return out;
  }

  /** Chooses the period of the profile on the last week: a day, a week, or one found by autocorrelation. */
  private selectPeriod(index: number): void {
    const available = Math.min(index + 1, this.ring.length);
    const day = Math.round(DAY / this.step);
    const candidates: { period: number; kind: 'day' | 'week' | 'cycle' }[] = [];
    if (day >= 2 && available >= 2 * day + this.slack + 1) candidates.push({ period: day, kind: 'day' });
    const week = 7 * day;
    if (available >= 2 * week + this.slack + 1 && week < this.ring.length) candidates.push({ period: week, kind: 'week' });
    if (this.profile === 'generic') {
      const span = Math.min(available, 3 * day, 4000);
      const recent: Series = [];
      for (let i = index - span + 1; i <= index; i += 1) {
        const v = this.value(i);
        recent.push(Number.isNaN(v) ? null : v);
      }
      const minLag = Math.max(2, Math.round((2 * HOUR) / this.step));
      const maxLag = Math.min(day, Math.floor(span / 3));
      const found = maxLag > minLag ? detectPeriod(recent, minLag, maxLag) : null;
      if (found !== null && found !== day && available >= 3 * found + this.slack + 1) candidates.push({ period: found, kind: 'cycle' });
    }
    if (candidates.length === 0) return;
    // Judged on the last week (a daily profile can look as good as a weekly one on a weekday).
    const span = Math.min(7 * day, available - 2 * Math.min(...candidates.map((c) => c.period)));
    const stride = Math.max(1, Math.floor(span / 600));
    let best: { period: number; kind: 'day' | 'week' | 'cycle'; error: number } | null = null;
    let current = Infinity;
    for (const candidate of candidates) {
      let sum = 0;
      let n = 0;
      for (let i = index - span + 1; i <= index; i += stride) {
        const x = this.value(i);
        if (Number.isNaN(x)) continue;
        const e = this.expect(i, x, candidate.period);
        if (!e) continue;
        sum += Math.abs(x - e.value);
        n += 1;
      }
      if (n < 10) continue;
      const error = sum / n;
      if (candidate.period === this.period) current = error;
      if (!best || error < best.error) best = { ...candidate, error };
    }
    if (!best) return;
    // Keep the current period unless another is clearly better.
    if (this.period === 0 || best.error < 0.8 * current) {
      this.period = best.period;
      this.periodKind = best.kind;
    }
  }

  private refresh(): void {
    if (this.residualSamples.count < Math.min(100, Math.round(DAY / 2 / this.step))) {
      this.learnt = null;
      return;
    }
    const [r50 = Number.NaN] = this.residualSamples.quantiles([0.5]);
    const [l50 = Number.NaN, l995 = Number.NaN] = this.levelSamples.quantiles([0.5, 0.995]);
    const [n50 = Number.NaN, n995 = Number.NaN] = this.noiseSamples.quantiles([0.5, 0.995]);
    const [s50 = Number.NaN] = this.stepSamples.quantiles([0.5]);
    const [v01 = Number.NaN, v05 = Number.NaN, v95 = Number.NaN, v99 = Number.NaN] = this.valueSamples.quantiles([0.01, 0.05, 0.95, 0.99]);
    const floor = this.tuning.scaleFloor > 0 ? this.tuning.scaleFloor : Math.max(1e-9, 1e-3 * (v99 - v01));
    const { patternZ, spikeZ, falseAlarmMs } = this.tuning;
    // The value a statistic exceeds once per `falseAlarmMs` in the series' own history (each sample a draw).
    const rare = (samples: SampleRing, floor: number, every = 1) => {
      if (!(falseAlarmMs > 0) || samples.count < 50) return floor;
      const tail = tailQuantile(samples.sorted(), (every * this.step) / falseAlarmMs);
      return Number.isFinite(tail) ? Math.max(floor, tail) : floor;
    };
    this.learnt = {
      residualScale: 1.4826 * r50,
      spikeThreshold: rare(this.zSamples, spikeZ),
      patternThreshold: rare(this.zMeanSamples, patternZ),
      // The level's median, standardised: six of its usual spreads, beyond its rare highs (and its
      // tail's once per `falseAlarmMs`), and 1,5 at least.
      levelThreshold: Math.max(6 * 1.4826 * l50, 1.3 * l995, rare(this.levelTail, 1.5)),
      noiseTypical: n50,
      noiseThreshold: Math.max(3 * n50, 1.5 * n995, rare(this.noiseTail, this.tuning.noiseFloor, this.noiseEvery)),
      stepTypical: s50,
      low: v05,
      high: v95,
      floor,
    };
  }

  // ---------------------------------------------------------------------------------------------
  // Detectors
  // ---------------------------------------------------------------------------------------------

  private patternStep(ts: number, x: number, z: number, residual: number, expectation: Expectation, raise: Raise): void {
    const { minShift } = this.tuning;
    const { patternThreshold: patternZ, spikeThreshold: spikeZ } = this.learnt as Learnt;
    const sign = Math.sign(z);
    if (Math.abs(z) >= patternZ / 2 && sign === this.patternSign) {
      // The streak goes on.
    } else if (Math.abs(z) >= patternZ / 2) {
      this.patternSince = ts;
      this.patternSign = sign;
    } else {
      this.patternSince = null;
      this.patternSign = 0;
    }
    if (this.patternSince === null || Math.abs(residual) < minShift) return;
    const meanZ = this.zWindow.mean;
    const sustained = this.zWindow.full && Math.abs(meanZ) >= patternZ && this.zWindow.allBeyond(patternZ / 2, sign);
    const spike = Math.abs(z) >= spikeZ;
    const holding = this.episodes.holding('pattern', ts) && Math.abs(meanZ) >= patternZ / 2;
    if (!sustained && !spike && !holding) return;
    const ratio = Math.max(Math.abs(meanZ) / patternZ, Math.abs(z) / (spike ? spikeZ : patternZ));
    raise('pattern', this.patternSince, ratio, this.patternText(x, expectation.value));
  }

  /** The median of the standardised residual over the level window, computed once per bucket. */
  private levelMedian(): number {
    if (this.levelMedianAt !== this.lastIndex) {
      this.levelMedianAt = this.lastIndex;
      this.levelMedianValue = this.levelWindow.median(this.levelScratch);
    }
    return this.levelMedianValue;
  }

  private levelStep(ts: number, raise: Raise): void {
    const learnt = this.learnt as Learnt;
    const window = this.levelWindow;
    if (window.count < Math.ceil(window.length * 0.7)) return;
    // The median over the window: a level that moved, not one far-off bucket.
    const mean = this.levelMedian();
    const sign = Math.sign(mean);
    if (Math.abs(mean) >= learnt.levelThreshold / 2 && sign === this.levelSign) {
      // The streak goes on.
    } else if (Math.abs(mean) >= learnt.levelThreshold / 2) {
      this.levelSince = ts - (window.length - 1) * this.step;
      this.levelSign = sign;
    } else {
      this.levelSince = null;
      this.levelSign = 0;
      this.levelRun = 0;
      return;
    }
    const holding = this.episodes.holding('level_shift', ts);
    // A level that moved and stayed: beyond the threshold for a few buckets in a row.
    this.levelRun = Math.abs(mean) >= learnt.levelThreshold ? this.levelRun + 1 : 0;
    if (
      (this.levelRun < this.levelPersistence && !holding) ||
      Math.abs(this.residualWindow.median(this.levelScratch)) < this.tuning.minShift
    )
      return;
    raise('level_shift', this.levelSince ?? ts, Math.abs(mean) / learnt.levelThreshold, this.levelText());
  }

  private noiseStep(ts: number, raise: Raise): void {
    const learnt = this.learnt as Learnt;
    const window = this.stepWindow;
    if (this.noiseSamples.count < Math.round(DAY / 2 / this.step / this.noiseEvery) || window.count < Math.ceil(window.length * 0.7))
      return;
    const d = window.median(this.windowScratch);
    const holding = this.episodes.holding('noise', ts) && d >= learnt.noiseThreshold / 1.5;
    if (!(d > 0) || (d < learnt.noiseThreshold && !holding)) return;
    const ratio = d / learnt.noiseTypical;
    const since = frDuration(window.length * this.step);
    raise(
      'noise',
      ts - (window.length - 1) * this.step,
      d / learnt.noiseThreshold,
      ratio < 100
        ? `Les relevés sont ${frNumber(ratio, 1)} fois plus agités que d’habitude depuis ${since}\u202f: capteur défaillant ou mal fixé\u202f?`
        : `Les relevés, d’habitude presque immobiles, s’agitent depuis ${since}\u202f: capteur défaillant ou mal fixé\u202f?`,
    );
  }

  private flatStep(ts: number, x: number, warm: boolean, raise: Raise): void {
    const learnt = this.learnt;
    // « The same value »: within a twentieth of the usual step-to-step change (a running mean until it is learnt).
    const typical = learnt && learnt.stepTypical > 0 ? learnt.stepTypical : this.stepAverage;
    const tolerance = Math.max(1e-9 * Math.max(1, Math.abs(x)), 0.05 * typical);
    if (this.runFrom !== null && Math.abs(x - this.runValue) <= tolerance) {
      this.runLastSeen = ts;
    } else {
      if (this.runFrom !== null) this.endRun(ts, true);
      this.runFrom = ts;
      this.runValue = x;
      this.runLastSeen = ts;
    }
    const duration = ts + this.step - this.runFrom;
    const threshold = Math.max(this.tuning.flatMs, 3 * this.longestRun);
    if (!warm || !learnt || duration < threshold || !(learnt.high > learnt.low)) return;
    const what = this.profile === 'cold' ? 'La température' : 'La mesure';
    const value = this.format(x);
    const range =
      this.profile === 'cold'
        ? `ce meuble oscille d’habitude entre ${frNumber(learnt.low, 1)} et ${frTemperature(learnt.high)}`
        : `elle varie d’habitude entre ${this.format(learnt.low)} et ${this.format(learnt.high)}`;
    const link = this.profile === 'cold' ? 'alors que' : 'alors qu’';
    raise(
      'flatline',
      this.runFrom,
      duration / threshold,
      `${what} reste à ${value} depuis ${frDuration(duration)} ${link}${this.profile === 'cold' ? ' ' : ''}${range}\u202f: capteur bloqué\u202f?`,
    );
  }

  private endRun(ts: number, learn: boolean): void {
    if (this.runFrom !== null && learn && !this.episodes.holding('flatline', ts)) {
      this.longestRun = Math.max(this.longestRun, this.runLastSeen + this.step - this.runFrom);
    }
    if (this.runFrom !== null && this.runLastSeen - this.runFrom >= 10 * MINUTE) this.flatEnded = this.runLastSeen;
    this.runFrom = null;
  }

  private driftStep(ts: number, residual: number, warm: boolean, raise: Raise): void {
    const hour = Math.floor(ts / HOUR);
    if (hour !== this.hour) {
      if (this.hour >= 0) this.closeHour(warm, raise);
      this.hour = hour;
      this.hourValues.length = 0;
    }
    if (Number.isFinite(residual)) this.hourValues.push(residual);
    if (this.driftLevel && this.episodes.holding('drift', ts)) {
      raise('drift', this.driftLevel.from, 0, this.driftText(this.driftLevel.slope, ts + this.step - this.driftLevel.from));
    }
  }

  private closeHour(warm: boolean, raise: Raise): void {
    const expected = Math.max(1, Math.round(HOUR / this.step));
    const value = this.hourValues.length >= Math.max(1, Math.floor(expected / 6)) ? median(this.hourValues) : Number.NaN;
    const usual = !this.driftLevel && !this.episodes.holding(DEVIATIONS, this.hour * HOUR);
    this.hourly.push({ hour: this.hour, value: usual ? value : Number.NaN, raw: value });
    while (this.hourly.length > HOURLY_MEMORY) this.hourly.shift();
    if (this.driftLevel) {
      // An open drift goes on while the level stays off by at least half its change.
      if (Number.isFinite(value) && this.driftLevel.sign * value >= Math.abs(this.driftLevel.change) / 2) return;
      this.driftLevel = null;
    }
    if (!warm || !this.learnt) return;
    // The band the hourly residual usually stays in, learnt on the two weeks before the last day.
    const before: number[] = [];
    for (const p of this.hourly) if (p.hour <= this.hour - 24 && Number.isFinite(p.value)) before.push(Math.abs(p.value));
    if (before.length < 12) return;
    const band = quantileSorted(Float64Array.from(before).sort(), 0.95);
    const recent = this.hourly.filter((p) => p.hour > this.hour - 48 && Number.isFinite(p.raw));
    if (recent.length < 8) return;
    const end = median(recent.slice(-3).map((p) => p.raw));
    const sign = Math.sign(end);
    const needed = Math.max(2 * band, this.tuning.driftFloor, this.learnt.floor);
    if (sign * end < needed) return;
    // Where it left the band, and the climb since: steady (Theil–Sen, most pairs agreeing), long
    // enough (six hours at least) and gradual.
    let first = recent.length - 1;
    while (first > 0 && sign * (recent[first - 1] as { raw: number }).raw > band / 2) first -= 1;
    const climb = recent.slice(Math.max(0, first - 1));
    const hours = this.hour + 1 - (climb[0] as { hour: number }).hour;
    if (first === 0 || hours < 6 || climb.length < 5) return;
    const fit = theilSen(
      climb.map((p) => p.hour),
      climb.map((p) => p.raw),
    );
    // Half-way up the climb, a drift is about half-way there; a level shift is already all there.
    const middle = Math.floor(climb.length / 2);
    const halfWay = median(climb.slice(Math.max(0, middle - 1), middle + 2).map((p) => p.raw));
    // …and slow: the last three hours bring at most half of it.
    const earlier = recent.filter((p) => p.hour <= this.hour - 3).slice(-2);
    const threeHoursAgo = earlier.length > 0 ? median(earlier.map((p) => p.raw)) : 0;
    const change = fit.slope * hours;
    if (
      fit.concordance < 0.8 ||
      sign * change < 0.6 * sign * end ||
      sign * halfWay > 0.75 * sign * end ||
      sign * threeHoursAgo < 0.5 * sign * end
    )
      return;
    const from = (climb[0] as { hour: number }).hour * HOUR;
    this.driftLevel = { sign, from, change: end, slope: fit.slope };
    raise('drift', from, (sign * end) / needed, this.driftText(fit.slope, (this.hour + 1) * HOUR - from));
  }

  // ---------------------------------------------------------------------------------------------
  // Cold units: cycles, compressor, defrosts
  // ---------------------------------------------------------------------------------------------

  /** Returns true when the bucket belongs to a defrost (kept out of the other detectors). */
  private coldStep(ts: number, x: number | null, warm: boolean, raise: Raise): boolean {
    const events = this.cycles.push(ts, x);
    const learnt = this.cycles.stats(USUAL_SKIP);
    // Readings too seldom to show the cycles: the defrosts are told from the spread of the values.
    const sampled = learnt !== null && !this.cyclesResolved(learnt);
    const stats: CycleShape | null = sampled ? null : learnt;
    if (events.peak) {
      const before = events.peak.trough ? this.levelBefore(events.peak.trough.ts) : { level: Number.NaN, spread: Number.NaN };
      const shape = sampled && events.peak.trough ? this.sampledShape(events.peak.trough.ts) : stats;
      const defrostFrom = this.defrost.onPeak(events.peak.peak, events.peak.trough, shape, before);
      if (defrostFrom !== null) {
        this.pendingDefrostCycle = events.peak.peak.ts;
        this.cycles.forgetSince(defrostFrom);
      }
    }
    if (events.trough) this.defrost.onTrough(events.trough);
    if (events.cycle) {
      if (this.pendingDefrostCycle !== events.cycle.peak.ts) {
        this.cycles.learn(events.cycle);
        this.compressorOnCycle();
      }
    }
    // A missing or overlong defrost cannot be told while the probe is stuck or the unit is already failing.
    const failing = this.episodes.holding(FAILING, ts);
    const blind = failing || this.episodes.holding('defrost_long', ts);
    const signals = this.defrost.tick(
      ts,
      this.cycles.heading === 'up' ? this.cycles.since : null,
      sampled ? this.sampledShape(ts) : stats,
      blind,
    );
    for (const signal of signals) {
      if (!warm) continue;
      if (signal.type === 'long') {
        if (failing && !this.episodes.holding('defrost_long', ts)) continue;
        raise(
          'defrost_long',
          signal.from,
          signal.elapsed / Math.max(2 * signal.usual, signal.usual + 20 * MINUTE),
          `Le dégivrage dure depuis ${frDuration(signal.elapsed)} contre ${frDuration(signal.usual)} d’habitude.`,
        );
      } else if (this.coverage(signal.from, ts) >= 0.7) {
        // (A defrost due while the sensor was silent is not « missed »: nobody saw.)
        raise(
          'defrost_missed',
          signal.from,
          1.4,
          `Pas de dégivrage depuis ${frDuration(signal.since)} alors qu’il a lieu toutes les ${frDuration(signal.period)} d’habitude.`,
        );
      }
    }
    // A defrost, even a long one (it is its own anomaly), and the time one is due, are left to the
    // defrost's detectors; a « defrost » that goes on for hours is no longer one.
    const beat = this.defrost.beat;
    const long = this.defrost.runningFor;
    if (this.defrost.active || this.defrost.due(ts)) return true;
    if (beat && long > 0 && long <= Math.max(4 * beat.warming, beat.warming + 90 * MINUTE)) return true;
    if (warm && x !== null && !this.episodes.holding('defrost_long', ts)) this.compressorStep(ts, x, raise);
    return false;
  }

  private pendingDefrostCycle = -1;

  /** The share of the buckets from `from` to `to` that had a value. */
  private coverage(from: number, to: number): number {
    const origin = this.origin ?? from;
    const first = Math.max(0, Math.round((from - origin) / this.step));
    const last = Math.round((to - origin) / this.step);
    if (last < first) return 0;
    let seen = 0;
    for (let i = first; i <= last; i += 1) if (!Number.isNaN(this.value(i))) seen += 1;
    return seen / (last - first + 1);
  }

  /** The median of the temperatures in the two hours before `ts`, and their robust spread. */
  private levelBefore(ts: number): { level: number; spread: number } {
    const end = Math.round((ts - (this.origin ?? ts)) / this.step);
    const span = Math.round((2 * HOUR) / this.step);
    const values: number[] = [];
    for (let i = Math.max(0, end - span); i < end; i += 1) {
      const v = this.value(i);
      if (!Number.isNaN(v)) values.push(v);
    }
    if (values.length === 0) return { level: Number.NaN, spread: Number.NaN };
    const level = median(values);
    return { level, spread: 1.4826 * median(values.map((v) => Math.abs(v - level))) };
  }

  /**
   * The ordinary cycle as seen through readings too seldom to show it: the top and the swing of the
   * values in the three hours before `ts` (upper and lower tenths), no warming or cooling time.
   */
  private sampledShape(ts: number): CycleShape | null {
    const end = Math.round((ts - (this.origin ?? ts)) / this.step);
    const span = Math.round((3 * HOUR) / this.step);
    const values: number[] = [];
    for (let i = Math.max(0, end - span); i < end; i += 1) {
      const v = this.value(i);
      if (!Number.isNaN(v)) values.push(v);
    }
    if (values.length < 6) return null;
    const sorted = Float64Array.from(values).sort();
    const top = quantileSorted(sorted, 0.9);
    return { peak: top, amplitude: top - quantileSorted(sorted, 0.1), rise: 0, riseHigh: 0, fall: 0, period: Number.NaN };
  }

  /** Ordinary cycles by hour of the day (their start's), for what a cycle usually lasts at this hour. */
  private readonly cyclesByHour: { ts: number; period: number; fall: number }[][] = Array.from({ length: 24 }, () => []);

  /**
   * The usual cycle around this hour on the previous days (the hour either side), once there are
   * six such cycles: a unit that works harder every afternoon does so by habit.
   */
  private sameHourCycle(ts: number): { period: number; fall: number } | null {
    const hour = Math.floor((ts % DAY) / HOUR);
    const periods: number[] = [];
    const falls: number[] = [];
    for (const h of [hour - 1, hour, hour + 1]) {
      for (const c of this.cyclesByHour[(h + 24) % 24] as { ts: number; period: number; fall: number }[]) {
        if (c.ts > ts - 12 * HOUR) continue;
        periods.push(c.period);
        falls.push(c.fall);
      }
    }
    return periods.length >= 6 ? { period: median(periods), fall: median(falls) } : null;
  }

  /** At each ordinary cycle: are the last three much longer, or much warmer, than the usual ones? */
  private compressorOnCycle(): void {
    const newest = this.cycles.recent(1)[0];
    if (newest && newest.start.ts >= this.defrost.lastEnd + AFTER_DEFROST_MS) {
      const bucket = this.cyclesByHour[Math.floor((newest.start.ts % DAY) / HOUR)] as { ts: number; period: number; fall: number }[];
      bucket.push({ ts: newest.start.ts, period: newest.end.ts - newest.start.ts, fall: newest.end.ts - newest.peak.ts });
      while (bucket.length > 0 && (bucket[0] as { ts: number }).ts < newest.start.ts - 8 * DAY) bucket.shift();
    }
    const usual = this.cycles.stats(USUAL_SKIP);
    const recent = this.cycles.recent(3);
    if (!usual || usual.count < 20 || recent.length < 3) return;
    if (!this.cyclesResolved(usual)) {
      this.compressorState = null;
      return;
    }
    const periods = recent.map((c) => c.end.ts - c.start.ts);
    const falls = recent.map((c) => c.end.ts - c.peak.ts);
    const last2 = (values: number[]) => values.slice(-2);
    const mean2 = (values: number[]) => last2(values).reduce((sum, v) => sum + v, 0) / 2;
    // The compressor running longer and longer to pull the cabinet down: its last two cooling runs
    // (or whole cycles) both well above the usual long one, or three in a row far above it.
    const fallsLonger =
      (last2(falls).every((f) => f >= 1.4 * usual.fallHigh) && mean2(falls) >= Math.max(1.6 * usual.fallHigh, usual.fall + 5 * MINUTE)) ||
      median(falls) >= Math.max(1.6 * usual.fallHigh, usual.fall + 6 * MINUTE);
    const cyclesLonger =
      (last2(periods).every((p) => p >= 1.3 * usual.periodHigh) &&
        mean2(periods) >= Math.max(1.5 * usual.periodHigh, usual.period + 8 * MINUTE)) ||
      median(periods) >= Math.max(1.5 * usual.periodHigh, usual.period + 8 * MINUTE);
    const mean = median(recent.map((c) => c.mean));
    const since = (recent[0] as { start: { ts: number } }).start.ts;
    // Warmer cycles alone may be a door left open or a drifting probe: the compressor is blamed when
    // they also last longer. A few longer runs alone are a unit working harder for a while (a warm
    // afternoon, a delivery) that still holds its temperature: they count once the cycles also run
    // warmer, or once four in a row, over two hours at least and an hour and a half clear of a
    // defrost, have all been long, and longer than usual at this hour.
    const warmer = mean >= usual.mean + Math.max(0.3, 2 * usual.meanSpread);
    const lastFour = this.cycles.recent(4);
    const lasting =
      lastFour.length === 4 &&
      (lastFour.at(-1) as { end: { ts: number } }).end.ts - (lastFour[0] as { start: { ts: number } }).start.ts >= 2 * HOUR &&
      (lastFour[0] as { start: { ts: number } }).start.ts >= this.defrost.lastEnd + AFTER_DEFROST_MS &&
      lastFour.every((c) => c.end.ts - c.start.ts >= usual.periodHigh || c.end.ts - c.peak.ts >= usual.fallHigh);
    // Longer than the usual cycle at this hour on the previous days, when they are known.
    const atThisHour = this.sameHourCycle((recent.at(-1) as { end: { ts: number } }).end.ts);
    const unusual = !atThisHour || median(periods) >= 1.25 * atThisHour.period || median(falls) >= 1.25 * atThisHour.fall;
    if (!warmer && !(lasting && unusual)) {
      this.compressorState = null;
      return;
    }
    if (cyclesLonger && median(falls) >= usual.fall) {
      const period = mean2(periods);
      this.compressorState = {
        what: 'cycle',
        now: period,
        usual: usual.period,
        strength: period / Math.max(1.5 * usual.periodHigh, 1),
        mean,
        usualMean: usual.mean,
        since,
      };
    } else if (fallsLonger) {
      const fall = mean2(falls);
      this.compressorState = {
        what: 'cooling',
        now: fall,
        usual: usual.fall,
        strength: fall / Math.max(1.6 * usual.fallHigh, 1),
        mean,
        usualMean: usual.mean,
        since,
      };
    } else {
      this.compressorState = null;
    }
  }

  /**
   * Whether the buckets show the cooling cycles at all: their warming and cooling each three buckets
   * long at least. A sensor that reports every 10 min on a unit that cycles every 20 shows turning
   * points of its own sampling, whose « durations » say nothing of the compressor.
   */
  private cyclesResolved(usual: CycleStats): boolean {
    return this.step <= MAX_CYCLE_STEP_MS && usual.rise >= 3 * this.step && usual.fall >= 3 * this.step;
  }

  private compressorStep(ts: number, x: number, raise: Raise): void {
    const usual = this.cycles.stats(USUAL_SKIP);
    if (!usual || usual.count < 20 || !this.cyclesResolved(usual)) return;
    const heading = this.cycles.heading;
    const turn = this.cycles.since;
    // A stuck probe freezes the turning points: the time since the last one counts from its end.
    const since = turn ? ts - Math.max(turn.ts, this.flatEnded) : 0;
    const flat = this.runFrom !== null && ts - this.runFrom >= 10 * MINUTE;
    const stalledLimit = Math.max(3 * usual.period, usual.period + 45 * MINUTE);
    const stalled =
      !flat &&
      since >= stalledLimit &&
      ((heading === 'up' && x >= usual.peak + 0.5 * usual.amplitude) || (heading === 'down' && x >= usual.trough + 0.5 * usual.amplitude));
    if (stalled) {
      const text =
        heading === 'up'
          ? `Aucun cycle de froid depuis ${frDuration(since)} alors qu’il en démarre un toutes les ${frDuration(usual.period)} d’habitude\u202f: compresseur arrêté ou porte restée ouverte\u202f?`
          : `Le compresseur tourne sans s’arrêter depuis ${frDuration(since)} sans ramener la température à ${frTemperature(usual.trough)} (cycles de ${frDuration(usual.period)} d’habitude)\u202f: il peine, ou la porte est mal fermée.`;
      raise('compressor', turn ? turn.ts : ts, since / stalledLimit, text);
      return;
    }
    const c = this.compressorState;
    if (!c) return;
    const warmer =
      c.mean >= c.usualMean + 1
        ? ` et le meuble tourne plus chaud (${frTemperature(c.mean)} en moyenne contre ${frTemperature(c.usualMean)})`
        : '';
    const text =
      c.what === 'cycle'
        ? `Les cycles de froid durent ${frDuration(c.now)} contre ${frDuration(c.usual)} d’habitude${warmer}\u202f: le compresseur peine.`
        : `Le compresseur met ${frDuration(c.now)} à refroidir le meuble contre ${frDuration(c.usual)} d’habitude${warmer}\u202f: il peine.`;
    raise('compressor', c.since, c.strength, text);
  }

  // ---------------------------------------------------------------------------------------------
  // Explanations
  // ---------------------------------------------------------------------------------------------

  private format(value: number, signed = false): string {
    if (this.profile === 'cold') return frTemperature(value, signed);
    const learnt = this.learnt;
    return frValue(value, learnt ? Math.max(learnt.high - learnt.low, Math.abs(value)) : Math.abs(value), signed);
  }

  private get when(): string {
    if (this.periodKind === 'week') return 'ce jour de la semaine à cette heure-ci';
    if (this.periodKind === 'cycle') return 'à ce moment de son cycle';
    return 'à cette heure-ci';
  }

  private patternText(x: number, expected: number): string {
    const what = this.profile === 'cold' ? 'La température' : 'La mesure';
    const verb = x > expected ? 'atteint' : 'tombe à';
    return `${what} ${verb} ${this.format(x)} alors qu’elle est d’habitude autour de ${this.format(expected)} ${this.when}.`;
  }

  private levelText(): string {
    const what = this.profile === 'cold' ? 'La température' : 'La mesure';
    const now = this.valueWindow.median(this.levelScratch);
    const usual = this.expectedWindow.median(this.levelScratch);
    return `${what} tourne autour de ${this.format(now)} alors qu’elle est d’habitude autour de ${this.format(usual)} ${this.when}.`;
  }

  /** « La température monte lentement depuis 21 h (+1,3 °C, soit +0,06 °C par heure)… ». */
  private driftText(slope: number, durationMs: number): string {
    const what = this.profile === 'cold' ? 'La température' : 'La mesure';
    const change = (slope * durationMs) / HOUR;
    const verb = change > 0 ? 'monte' : 'baisse';
    const sign = slope > 0 ? '+' : '\u2212';
    const rate =
      this.profile === 'cold'
        ? `${sign}${frNumber(Math.abs(slope), 2)}\u00a0°C`
        : frValue(slope, this.learnt ? (this.learnt.high - this.learnt.low) / 10 : Math.abs(slope), true);
    return `${what} ${verb} lentement depuis ${frDuration(durationMs)} (${this.format(change, true)}, soit ${rate} par heure) sans revenir à son niveau habituel.`;
  }
}

/** Reports that an anomaly of `kind` holds now; `strength` is how far past its threshold (1 at the threshold). */
type Raise = (kind: AnomalyKind, from: number, strength: number, explanation: string) => void;

function doorText(opening: { duration: number; threshold: number; learnt: boolean; usual: number }): string {
  if (!opening.learnt) {
    return `La porte est ouverte depuis ${frDuration(opening.duration)}, plus que les ${frDuration(DOOR_FLOOR_MS)} tolérées sans historique à cette heure-ci.`;
  }
  return `La porte est ouverte depuis ${frDuration(opening.duration)} alors qu’à cette heure-ci elle ne le reste d’habitude pas plus de ${frDuration(
    Math.max(opening.usual, MINUTE),
  )}.`;
}

function median(values: readonly number[]): number {
  const buffer = Float64Array.from(values);
  return medianInPlace(buffer, buffer.length);
}

/** Theil–Sen slope (median of pairwise slopes) and the share of pairs that agree with its sign. */
export function theilSen(xs: readonly number[], ys: readonly number[]): { slope: number; concordance: number } {
  const slopes: number[] = [];
  let agree = 0;
  let pairs = 0;
  for (let i = 0; i < xs.length; i += 1) {
    for (let j = i + 1; j < xs.length; j += 1) {
      const dx = (xs[j] as number) - (xs[i] as number);
      if (dx === 0) continue;
      slopes.push(((ys[j] as number) - (ys[i] as number)) / dx);
    }
  }
  const slope = slopes.length > 0 ? median(slopes) : 0;
  for (const s of slopes) {
    pairs += 1;
    if (Math.sign(s) === Math.sign(slope) && s !== 0) agree += 1;
    else if (s === 0) agree += 0.5;
  }
  return { slope, concordance: pairs > 0 ? agree / pairs : 0 };
}

export function createAnomalyDetector(options: DetectorOptions): AnomalyDetector {
  return new Detector(options);
}

/** Replays a window through a new detector. */
export function detectAnomalies(
  series: Series,
  start: number,
  options: DetectorOptions,
): { anomalies: DetectedAnomaly[]; defrosts: DetectedDefrost[]; defrosting: boolean } {
  const detector = createAnomalyDetector(options);
  for (let i = 0; i < series.length; i += 1) detector.push(start + i * options.stepMs, series[i] ?? null);
  return { anomalies: detector.anomalies(), defrosts: detector.defrosts(), defrosting: detector.defrosting() };
}
