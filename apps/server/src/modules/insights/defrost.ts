/**
 * Defrost recognition for cold units. A defrost shows as a cycle whose warming lasts much longer
 * than the compressor's ordinary off time and peaks above the ordinary cycle's top; defrosts recur
 * on a schedule (every 6 h or 8 h, say). Such candidates are collected, and once three of them fall
 * on a regular beat (one may be missing), the beat is learnt: the period and the usual warming
 * time. From then on a candidate on the beat (± tolerance) is a defrost, and never an anomaly by
 * itself; a warming that starts near the expected time is taken as the defrost in progress (the
 * other detectors leave it alone). A defrost whose heating lasts far longer than usual is
 * `defrost_long`; a beat that passes with no defrost is `defrost_missed`.
 */
import type { CycleStats, Turn } from './cycles.ts';
import { median } from './robust.ts';

export interface DefrostCandidate {
  /** The trough before the warming, the peak, and the trough that ends the pull-down (once seen). */
  start: number;
  peakAt: number;
  end: number | null;
  height: number;
}

export interface DefrostSchedule {
  period: number;
  /** Peak time of the last defrost on the beat (or of the last expected one, when missed). */
  anchor: number;
  /** Usual warming time (trough → peak) and whole length (trough → trough) of a defrost. */
  warming: number;
  length: number;
}

export type DefrostSignal =
  | { type: 'long'; from: number; elapsed: number; usual: number }
  | { type: 'missed'; from: number; to: number; since: number; period: number };

const HOUR = 3_600_000;
const NO_SIGNAL: readonly DefrostSignal[] = Object.freeze([]);
const MINUTE = 60_000;
const MIN_PERIOD = 3 * HOUR;
const MAX_PERIOD = 26 * HOUR;
/** Candidates kept to learn the beat from. */
const MEMORY = 3 * 24 * HOUR;

/**
 * What the learner needs of the ordinary cycle: the cycle tracker's figures when the readings show
 * the cycles, or the spread of the recent values when they come too seldom to (`rise` and `fall`
 * then 0, `period` unknown as NaN).
 */
export type CycleShape = Pick<CycleStats, 'peak' | 'amplitude' | 'rise' | 'riseHigh' | 'fall' | 'period'>;

export class DefrostLearner {
  private candidates: DefrostCandidate[] = [];
  private recognised: DefrostCandidate[] = [];
  private schedule: DefrostSchedule | null = null;
  /** The expected peak already reported missed, so it is reported once. */
  private missedAt = -Infinity;
  /** The warming in progress taken as a defrost (its trough's time), and whether it ran long. */
  private activeSince: number | null = null;
  private pullDown = false;
  private pullDownUntil = -Infinity;
  /** The last peak seen and the trough its warming started from. */
  private previousPeak: { peak: Turn; trough: Turn } | null = null;
  private runningLong = false;
  private lastTick = -Infinity;
  /** The latest expected peak that something like a defrost answered. */
  private served = -Infinity;

  /** `stepMs`: the buckets' length; a peak is only known to within one. */
  constructor(private readonly stepMs = MINUTE) {}

  /** How far from its slot a defrost's peak is still on the beat. */
  private tolerance(period: number): number {
    return Math.max(15 * MINUTE, 0.05 * period) + this.stepMs;
  }

  get beat(): DefrostSchedule | null {
    return this.schedule;
  }

  /** Recognised defrosts, oldest first. */
  defrosts(): { from: number; to: number }[] {
    return this.recognised.map((d) => ({ from: d.start, to: d.end ?? Math.max(d.peakAt, d.start) }));
  }

  /** When the last recognised defrost ended (its pull-down's trough, or its peak while that is to come); -Infinity when none. */
  get lastEnd(): number {
    const last = this.recognised.at(-1);
    return last ? (last.end ?? last.peakAt) : -Infinity;
  }

  /** How long the defrost running long has lasted (0 when none). */
  get runningFor(): number {
    return this.runningLong && this.activeSince !== null ? this.lastTick - this.activeSince : 0;
  }

  /**
   * Is a defrost due around `ts` (from the earliest its warming may start to the end of its usual
   * pull-down)? Its presence or its absence is then the defrost detectors' business.
   */
  due(ts: number): boolean {
    const schedule = this.schedule;
    if (!schedule) return false;
    const tolerance = this.tolerance(schedule.period);
    const after = Math.max(schedule.length - schedule.warming, 0) + tolerance;
    const next = schedule.anchor + schedule.period;
    return (ts >= next - schedule.warming - tolerance && ts <= next + after) || ts <= schedule.anchor + after;
  }

  /** Is the temperature part of an ordinary defrost (heating or pull-down)? One that runs long is not ordinary any more. */
  /** A defrost on the beat is warming the unit now, for no longer than a usual one. */
  get warming(): boolean {
    return this.activeSince !== null && !this.runningLong;
  }

  get active(): boolean {
    return (this.activeSince !== null && !this.runningLong) || (this.pullDown && this.lastTick <= this.pullDownUntil);
  }

  /**
   * A peak confirmed by the cycle tracker, with the trough before it. A door opened during the
   * heating can cut the warming in two: a peak that follows a shallow dip (the compressor did not
   * pull down) continues the warming from the trough before. Returns the start of the warming when
   * the peak is a defrost candidate (the caller keeps its cycles out of the compressor's figures).
   */
  onPeak(peak: Turn, trough: Turn | null, stats: CycleShape | null, before: { level: number; spread: number }): number | null {
    this.activeSince = null;
    this.runningLong = false;
    if (!trough) return null;
    let start = trough;
    const previous = this.previousPeak;
    if (
      previous &&
      stats &&
      trough.ts >= previous.peak.ts &&
      trough.ts - previous.peak.ts <= Math.max(10 * MINUTE, stats.fall) &&
      previous.peak.value - trough.value < 0.6 * stats.amplitude
    ) {
      start = previous.trough;
    }
    this.previousPeak = { peak, trough: start };
    const warming = peak.ts - start.ts;
    // A cycling unit: a warming much longer than its off time, up above its usual top. A unit that
    // holds a steady temperature: a clear rise above its steady level.
    const height = stats ? peak.value - stats.peak : peak.value - before.level;
    const warmTop = stats ? height >= Math.max(0.3, 0.15 * stats.amplitude) : height >= Math.max(1, 6 * before.spread);
    const schedule = this.schedule;
    if (schedule && warmTop) {
      // Something like a defrost around an expected peak: that slot is not missed.
      const slot = this.slotOf(peak.ts, start.ts, schedule, stats);
      if (slot !== null) this.served = Math.max(this.served, slot);
    }
    const defrostLike = stats
      ? warmTop && warming >= Math.max(1.2 * stats.riseHigh, stats.rise + 3 * MINUTE)
      : warmTop && warming >= 10 * MINUTE;
    if (!defrostLike) return null;
    const candidate: DefrostCandidate = { start: start.ts, peakAt: peak.ts, end: null, height };
    this.candidates.push(candidate);
    while ((this.candidates[0]?.peakAt ?? Infinity) < peak.ts - MEMORY) this.candidates.shift();
    const slot = schedule ? this.slotOf(peak.ts, start.ts, schedule, stats) : null;
    if (schedule && slot !== null) this.accept(candidate, slot);
    else this.learn(candidate);
    this.pullDown = this.recognised.at(-1) === candidate;
    // A pull-down that never reaches the cut-out (a weak compressor) is not the defrost's any more.
    const usualPullDown = this.schedule ? Math.max(0, this.schedule.length - this.schedule.warming) : 0;
    this.pullDownUntil = peak.ts + Math.max(2 * usualPullDown, 30 * MINUTE);
    return start.ts;
  }

  /**
   * The expected peak this warming belongs to: its peak within the tolerance of a slot, or (a
   * defrost that ran long) its start in the window before a slot and its peak after it.
   */
  private slotOf(peakAt: number, startAt: number, schedule: DefrostSchedule, stats: CycleShape | null): number | null {
    const tolerance = this.tolerance(schedule.period);
    const k = Math.max(1, Math.round((peakAt - schedule.anchor) / schedule.period));
    const slot = schedule.anchor + k * schedule.period;
    if (Math.abs(peakAt - slot) <= tolerance) return slot;
    const cycle = stats && Number.isFinite(stats.period) ? stats.period : 30 * MINUTE;
    for (let j = 1; j <= k; j += 1) {
      const earlier = schedule.anchor + j * schedule.period;
      if (startAt >= earlier - schedule.warming - tolerance - cycle && startAt <= earlier + tolerance && peakAt > earlier) return earlier;
    }
    return null;
  }

  /** A trough confirmed: it ends the pull-down of the last candidate. */
  onTrough(trough: Turn): void {
    const last = this.candidates.at(-1);
    if (last && last.end === null && trough.ts > last.peakAt) last.end = trough.ts;
    if (this.pullDown) {
      this.pullDown = false;
      if (this.schedule) {
        const lengths = this.recognised.slice(-12).flatMap((d) => (d.end === null ? [] : [d.end - d.start]));
        if (lengths.length > 0) this.schedule.length = median(lengths);
      }
    }
  }

  /**
   * Each bucket, once the cycles are known: follows the warming in progress and the beat. `since`
   * is the trough that opened the current warming (when warming), `stats` the ordinary cycle;
   * `blind` when a missing defrost could not be told (a stuck probe, a unit already failing).
   */
  tick(ts: number, warmingSince: Turn | null, stats: CycleShape | null, blind = false): readonly DefrostSignal[] {
    this.lastTick = ts;
    const schedule = this.schedule;
    if (!schedule) return NO_SIGNAL;
    const signals: DefrostSignal[] = [];
    const tolerance = this.tolerance(schedule.period);
    const cycle = stats && Number.isFinite(stats.period) ? stats.period : 30 * MINUTE;
    // The next expected peak after the last one on the beat.
    let expected = schedule.anchor + schedule.period;
    if (warmingSince && ts - warmingSince.ts > (stats ? stats.riseHigh : 10 * MINUTE)) {
      // A warming longer than the compressor's off time, begun in the window before an expected peak.
      const opens = expected - schedule.warming - tolerance - cycle;
      if (warmingSince.ts >= opens && warmingSince.ts <= expected + tolerance) this.activeSince = warmingSince.ts;
    } else if (!warmingSince) {
      this.activeSince = null;
      this.runningLong = false;
    }
    if (this.activeSince !== null) {
      const elapsed = ts - this.activeSince;
      // The warming's start is only known to within a few readings (an hour at a 15-minute cadence).
      this.runningLong = elapsed > Math.max(2 * schedule.warming, schedule.warming + 20 * MINUTE) + 4 * this.stepMs;
      if (this.runningLong) signals.push({ type: 'long', from: this.activeSince, elapsed, usual: schedule.warming });
      return signals;
    }
    // Missed: the expected peak is well past and no warming is on its way.
    const lateBy = ts - expected;
    if (lateBy > tolerance + 10 * MINUTE && !(this.pullDown && ts <= this.pullDownUntil)) {
      if (this.missedAt !== expected && this.served < expected && !blind) {
        if (this.lengthenBeat()) return signals;
        this.missedAt = expected;
        signals.push({
          type: 'missed',
          from: expected - schedule.warming,
          to: expected + tolerance,
          since: ts - schedule.anchor,
          period: schedule.period,
        });
      }
      // Look for the next one on the same beat.
      while (ts - expected > tolerance + 10 * MINUTE) {
        schedule.anchor = expected;
        expected += schedule.period;
      }
    }
    return signals;
  }

  private accept(candidate: DefrostCandidate, slot: number): void {
    const schedule = this.schedule as DefrostSchedule;
    if (!this.recognised.includes(candidate)) this.recognised.push(candidate);
    const tolerance = this.tolerance(schedule.period);
    const onTime = Math.abs(candidate.peakAt - slot) <= tolerance;
    if (onTime) {
      // A slow follow of the beat, so a clock that drifts a little stays on it.
      const k = Math.max(1, Math.round((candidate.peakAt - schedule.anchor) / schedule.period));
      const interval = (candidate.peakAt - schedule.anchor) / k;
      schedule.period = 0.8 * schedule.period + 0.2 * interval;
    }
    // A defrost that ran long keeps the beat where it was.
    schedule.anchor = onTime ? candidate.peakAt : slot;
    this.served = Math.max(this.served, slot);
    const onTimes = this.recognised.slice(-12).filter((d) => d.peakAt - d.start <= 3 * schedule.warming || this.recognised.length < 3);
    if (onTimes.length > 0) schedule.warming = median(onTimes.map((d) => d.peakAt - d.start));
    if (this.recognised.length > 500) this.recognised.shift();
  }

  /**
   * Looks for a beat through the newest candidate: among the intervals to earlier candidates, the
   * shortest whose slots (back from the newest, at most eight) are nearly all filled, three at
   * least. Candidates off any beat (a door, a long cycle) do not fill a beat's slots, so they do
   * not make one up; a beat already learnt gives way only to one that fills its slots better.
   */
  private learn(newest: DefrostCandidate): void {
    let best: { period: number; members: DefrostCandidate[]; fill: number; slots: number } | null = null;
    const oldest = this.candidates[0]?.peakAt ?? newest.peakAt;
    for (const earlier of this.candidates) {
      // An unrecognised defrost between two others doubles their interval: its halves are tried too.
      for (const divisor of [1, 2, 3]) {
        const period = (newest.peakAt - earlier.peakAt) / divisor;
        if (period < MIN_PERIOD || period > MAX_PERIOD) continue;
        const beat = this.fill(newest.peakAt, period, oldest);
        // Three in a row, or four or more with at most a quarter of the slots empty.
        const enough = beat.members.length === beat.slots ? beat.members.length >= 3 : beat.members.length >= 4 && beat.fill >= 0.75;
        if (!enough) continue;
        if (!best || period < best.period - this.tolerance(period)) best = { period, ...beat };
      }
    }
    if (!best) return;
    // The shortest beat may owe one of its slots to a door or a long cycle: a beat two or three
    // times longer that fills all of its own slots wins when the short one's slots between them
    // are mostly empty (the defrosts it would expect there are not coming).
    const longer = this.longerBeat([newest.peakAt], best.period, oldest, 0.75);
    if (longer) best = longer;
    if (this.schedule) {
      // A beat already learnt gives way once it is clearly lost, or to a beat that divides it and is
      // itself nearly full: the defrosts between its slots are defrosts it missed while learning.
      const current = this.fill(this.schedule.anchor, this.schedule.period, oldest);
      const times = Math.round(this.schedule.period / best.period);
      const divides =
        times >= 2 &&
        Math.abs(this.schedule.period - times * best.period) <= this.tolerance(this.schedule.period) &&
        best.members.length >= 4 &&
        best.fill >= 0.75 &&
        this.betweenFill(newest.peakAt, best.period, times, oldest) >= 0.75;
      if (!divides && (current.fill >= 0.5 || best.members.length < 4)) return;
    }
    const members = best.members.sort((a, b) => a.peakAt - b.peakAt);
    const first = members[0] as DefrostCandidate;
    const steps = Math.max(1, Math.round((newest.peakAt - first.peakAt) / best.period));
    const lengths = members.flatMap((m) => (m.end === null ? [] : [m.end - m.start]));
    this.schedule = {
      period: (newest.peakAt - first.peakAt) / steps,
      anchor: newest.peakAt,
      warming: median(members.map((m) => m.peakAt - m.start)),
      length: lengths.length > 0 ? median(lengths) : 0,
    };
    this.missedAt = -Infinity;
    for (const member of members) if (!this.recognised.includes(member)) this.recognised.push(member);
    this.recognised.sort((a, b) => a.start - b.start);
  }

  /**
   * The share filled of the slots of the beat `period` through `at` (back to `oldest`, eight slots
   * at most) that fall between those of the beat `times` as long: the slots only the shorter beat
   * expects. 1 when there are none.
   */
  private betweenFill(at: number, period: number, times: number, oldest: number): number {
    const tolerance = this.tolerance(period);
    let slots = 0;
    let filled = 0;
    for (let k = 0; k < 8; k += 1) {
      const slot = at - k * period;
      if (slot < oldest - tolerance) break;
      if (k % times === 0) continue;
      slots += 1;
      if (this.candidates.some((c) => Math.abs(c.peakAt - slot) <= tolerance)) filled += 1;
    }
    return slots > 0 ? filled / slots : 1;
  }

  /**
   * A beat two or three times as long as `period`, through one of `throughs`, whose own slots (three
   * at least) are all filled while fewer than `emptyBelow` of the slots only the short beat expects
   * are: the short one owed a slot to a door or a long cycle that fell between two defrosts.
   */
  private longerBeat(
    throughs: readonly number[],
    period: number,
    oldest: number,
    emptyBelow: number,
  ): { period: number; at: number; members: DefrostCandidate[]; fill: number; slots: number } | null {
    for (const times of [2, 3]) {
      const longer = period * times;
      if (longer > MAX_PERIOD) break;
      for (const at of throughs.slice(0, times)) {
        const beat = this.fill(at, longer, oldest);
        if (beat.members.length >= 3 && beat.fill === 1 && this.betweenFill(at, period, times, oldest) < emptyBelow)
          return { period: longer, at, ...beat };
      }
    }
    return null;
  }

  /**
   * Before a slot is reported missed: the beat two or three times as long, through the last defrost
   * or one of the two slots before it, whose slots between its own are mostly empty, is the unit's
   * true beat. The schedule takes it; true when it did.
   */
  private lengthenBeat(): boolean {
    const schedule = this.schedule as DefrostSchedule;
    const oldest = this.candidates[0]?.peakAt ?? schedule.anchor;
    const throughs = [0, 1, 2].map((j) => schedule.anchor - j * schedule.period);
    const longer = this.longerBeat(throughs, schedule.period, oldest, 0.5);
    if (!longer) return false;
    schedule.period = longer.period;
    schedule.anchor = Math.max(...longer.members.map((m) => m.peakAt));
    return true;
  }

  /** The candidates on the beat `period` through `at`, back to `oldest` (eight slots at most), and the share of slots filled. */
  private fill(at: number, period: number, oldest: number): { members: DefrostCandidate[]; fill: number; slots: number } {
    const tolerance = this.tolerance(period);
    const members: DefrostCandidate[] = [];
    let slots = 0;
    for (let k = 0; k < 8; k += 1) {
      const slot = at - k * period;
      if (slot < oldest - tolerance) break;
      slots += 1;
      const hit = this.candidates.find((c) => Math.abs(c.peakAt - slot) <= tolerance);
      if (hit) members.push(hit);
    }
    return { members, fill: slots > 0 ? members.length / slots : 0, slots };
  }
}
