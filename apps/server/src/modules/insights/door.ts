/**
 * Door openings from a contact sensor's buckets (the share of the bucket the door was open, 0 to
 * 1): an episode is a run of buckets open for most of their length. Their durations are learnt by
 * hour of the day (UTC: a site's clock is not needed to compare an hour with itself), and an
 * episode far longer than the usual ones at that hour is flagged; with too little history at that
 * hour, a generous floor applies.
 */
import { quantileSorted } from './robust.ts';

const MINUTE = 60_000;
const HOUR = 3_600_000;
/** With too little history at this hour: an opening longer than this is flagged. */
export const DOOR_FLOOR_MS = 15 * MINUTE;
/** With history: never below this (a door open a few minutes is ordinary anywhere). */
const DOOR_MIN_MS = 10 * MINUTE;
/** Openings learnt per hour before the hour's own figures are trusted. */
const MIN_SAMPLES = 5;
/** A silence shorter than this does not end an opening. */
const MAX_GAP_MS = 5 * MINUTE;
/** Openings remembered (about four weeks of a busy door). */
const MEMORY = 28 * 24 * HOUR;

export interface DoorOpening {
  from: number;
  /** Time open so far (end of its last open bucket minus its start). */
  duration: number;
  /** The threshold that applies at its hour, and whether it comes from this door's own history. */
  threshold: number;
  learnt: boolean;
  /** The usual long opening at this hour (90th percentile), when learnt. */
  usual: number;
}

export class DoorWatch {
  private readonly stepMs: number;
  private openSince: number | null = null;
  private lastOpenEnd = -Infinity;
  private lastSeen = -Infinity;
  /** Durations by UTC hour of the opening's start, with when they happened. */
  private readonly byHour: { at: number; duration: number }[][] = Array.from({ length: 24 }, () => []);

  constructor(stepMs: number) {
    this.stepMs = stepMs;
  }

  /** One bucket; returns the opening in progress (after this bucket), if any. */
  push(ts: number, value: number | null): DoorOpening | null {
    if (value === null || !Number.isFinite(value)) {
      if (this.openSince !== null && ts + this.stepMs - this.lastSeen > MAX_GAP_MS) this.close();
      return null;
    }
    this.lastSeen = ts + this.stepMs;
    if (value >= 0.5) {
      if (this.openSince === null) this.openSince = ts;
      this.lastOpenEnd = ts + this.stepMs;
      return this.current(ts + this.stepMs);
    }
    if (this.openSince !== null) this.close();
    return null;
  }

  private current(now: number): DoorOpening {
    const from = this.openSince as number;
    const { threshold, learnt, usual } = this.thresholdAt(from, now);
    return { from, duration: this.lastOpenEnd - from, threshold, learnt, usual };
  }

  /** The longest ordinary opening at the hour of `from`, from the neighbouring hours' history. */
  thresholdAt(from: number, now: number): { threshold: number; learnt: boolean; usual: number } {
    const hour = Math.floor(from / HOUR) % 24;
    const samples: number[] = [];
    for (const h of [hour - 1, hour, hour + 1]) {
      for (const s of this.byHour[(h + 24) % 24] as { at: number; duration: number }[]) if (s.at >= now - MEMORY) samples.push(s.duration);
    }
    if (samples.length < MIN_SAMPLES) return { threshold: DOOR_FLOOR_MS, learnt: false, usual: Number.NaN };
    samples.sort((a, b) => a - b);
    const usual = quantileSorted(samples, 0.9);
    const threshold = Math.max(DOOR_MIN_MS, 5 * quantileSorted(samples, 0.5), 3 * quantileSorted(samples, 0.95));
    return { threshold, learnt: true, usual };
  }

  private close(): void {
    const from = this.openSince as number;
    const duration = this.lastOpenEnd - from;
    this.openSince = null;
    // An opening flagged as anomalous does not become the norm.
    if (duration >= this.thresholdAt(from, this.lastOpenEnd).threshold) return;
    const list = this.byHour[Math.floor(from / HOUR) % 24] as { at: number; duration: number }[];
    list.push({ at: from, duration });
    while ((list[0]?.at ?? Infinity) < from - MEMORY) list.shift();
  }
}
