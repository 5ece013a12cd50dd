import type { ReportChartPoint, ReportDay, ReportExcursion, ReportGap } from './report-content.ts';
import type { LocalDay } from '../../lib/local-time.ts';

export interface UnitReadings {
  /** The period, in epoch milliseconds: [from, to). */
  from: number;
  to: number;
  /** True when the period is cut at the report's making (the current month): what still runs has no end yet. */
  cutAtMaking: boolean;
  /** The site's days of the period. */
  days: LocalDay[];
  /** Silence longer than this is a gap (the sensor's inactivity timeout). */
  timeoutSeconds: number;
  min: number | null;
  max: number | null;
  /**
   * Readings oldest first: those of the period, plus the last one before it and the first one after
   * it when within the timeout, which say whether the period's edges were covered.
   */
  readings: { ts: number; value: number }[];
  /**
   * True when the period is over and no reading came within the timeout after its end: the silence
   * after the last reading is known to last, and its end is a gap.
   */
  silentAfterEnd?: boolean;
  /** Width of the chart's buckets. */
  chartBucketMs?: number;
}

export interface UnitFigures {
  readingCount: number;
  minValue: number | null;
  meanValue: number | null;
  maxValue: number | null;
  inRangeSeconds: number;
  outOfRangeSeconds: number;
  noDataSeconds: number;
  days: ReportDay[];
  chart: ReportChartPoint[];
  excursions: Omit<ReportExcursion, 'alert'>[];
  gaps: ReportGap[];
}

type State = 'in' | 'above' | 'below' | 'gap';

/** A stretch of time: a reading's value holds from its timestamp until the next one, unless the silence exceeds the timeout. */
interface Segment {
  from: number;
  to: number;
  state: State;
  value: number | null;
}

const HOUR_MS = 3600_000;

function stateOf(value: number, min: number | null, max: number | null): State {
  if (max !== null && value > max) return 'above';
  if (min !== null && value < min) return 'below';
  return 'in';
}

/** Min, arithmetic mean and max of readings (a month holds tens of thousands: no spread into Math.min). */
function statsOf(values: number[]): { min: number | null; mean: number | null; max: number | null } {
  if (values.length === 0) return { min: null, mean: null, max: null };
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  for (const value of values) {
    if (value < min) min = value;
    if (value > max) max = value;
    sum += value;
  }
  return { min, mean: sum / values.length, max };
}

const iso = (ms: number) => new Date(ms).toISOString();
const seconds = (ms: number) => ms / 1000;

/** Splits the period into segments of known value, out of limits, or without data. */
export function segmentsOf(input: UnitReadings): Segment[] {
  const { from, to, readings } = input;
  const timeoutMs = input.timeoutSeconds * 1000;
  const segments: Segment[] = [];
  const push = (start: number, end: number, state: State, value: number | null) => {
    const a = Math.max(start, from);
    const b = Math.min(end, to);
    if (b > a) segments.push({ from: a, to: b, state, value });
  };
  const first = readings[0];
  if (!first || first.ts > from) push(from, first ? first.ts : to, 'gap', null);
  for (let i = 0; i < readings.length; i++) {
    const reading = readings[i];
    if (!reading) continue;
    const next = readings[i + 1];
    const end = next ? next.ts : to;
    const silent = next ? end - reading.ts > timeoutMs : end - reading.ts > timeoutMs || input.silentAfterEnd === true;
    if (silent) push(reading.ts, end, 'gap', null);
    else push(reading.ts, end, stateOf(reading.value, input.min, input.max), reading.value);
  }
  return segments;
}

/** Everything a report says of one unit, computed from its readings: nothing is interpolated across a gap. */
export function computeUnit(input: UnitReadings): UnitFigures {
  const { from, to } = input;
  const segments = segmentsOf(input);
  const inPeriod = input.readings.filter((reading) => reading.ts >= from && reading.ts < to);

  let inRange = 0;
  let outOfRange = 0;
  let noData = 0;
  for (const segment of segments) {
    const length = segment.to - segment.from;
    if (segment.state === 'gap') noData += length;
    else if (segment.state === 'in') inRange += length;
    else outOfRange += length;
  }

  // Readings and segments are in time order, and so are the days: one pass over each.
  let readingIndex = 0;
  let segmentIndex = 0;
  const days: ReportDay[] = input.days
    .filter((day) => day.from < to)
    .map((day) => {
      const end = Math.min(day.to, to);
      while (readingIndex < inPeriod.length && (inPeriod[readingIndex]?.ts ?? 0) < day.from) readingIndex++;
      const values: number[] = [];
      while (readingIndex < inPeriod.length && (inPeriod[readingIndex]?.ts ?? Infinity) < end) {
        values.push(inPeriod[readingIndex]?.value ?? 0);
        readingIndex++;
      }
      const stats = statsOf(values);
      let dayOut = 0;
      let dayGap = 0;
      while (segmentIndex < segments.length && (segments[segmentIndex]?.to ?? Infinity) <= day.from) segmentIndex++;
      for (let i = segmentIndex; i < segments.length; i++) {
        const segment = segments[i];
        if (!segment || segment.from >= end) break;
        const overlap = Math.min(segment.to, end) - Math.max(segment.from, day.from);
        if (overlap <= 0) continue;
        if (segment.state === 'gap') dayGap += overlap;
        else if (segment.state !== 'in') dayOut += overlap;
      }
      return {
        date: day.date,
        min: stats.min,
        mean: stats.mean,
        max: stats.max,
        readings: values.length,
        outOfRangeSeconds: seconds(dayOut),
        noDataSeconds: seconds(dayGap),
      };
    });

  const bucketMs = input.chartBucketMs ?? HOUR_MS;
  const chart: ReportChartPoint[] = [];
  let cursor = 0;
  for (let start = from; start < to; start += bucketMs) {
    const end = Math.min(start + bucketMs, to);
    let min: number | null = null;
    let max: number | null = null;
    while (cursor < segments.length && (segments[cursor]?.to ?? 0) <= start) cursor++;
    for (let i = cursor; i < segments.length; i++) {
      const segment = segments[i];
      if (!segment || segment.from >= end) break;
      if (segment.value === null) continue;
      min = min === null ? segment.value : Math.min(min, segment.value);
      max = max === null ? segment.value : Math.max(max, segment.value);
    }
    chart.push({ from: iso(start), to: iso(end), min, max });
  }

  // An excursion: consecutive stretches out of limits on one side; a gap or a return within limits ends it.
  const excursions: Omit<ReportExcursion, 'alert'>[] = [];
  let run: { from: number; to: number; direction: 'above' | 'below'; peak: number } | null = null;
  const closeRun = () => {
    if (!run) return;
    const running = input.cutAtMaking && run.to === to;
    excursions.push({
      start: iso(run.from),
      end: running ? null : iso(run.to),
      durationSeconds: seconds(run.to - run.from),
      peak: run.peak,
      direction: run.direction,
    });
    run = null;
  };
  for (const segment of segments) {
    const direction = segment.state === 'above' || segment.state === 'below' ? segment.state : null;
    if (direction === null || segment.value === null) {
      closeRun();
      continue;
    }
    if (run && run.direction === direction && run.to === segment.from) {
      run.to = segment.to;
      run.peak = direction === 'above' ? Math.max(run.peak, segment.value) : Math.min(run.peak, segment.value);
    } else {
      closeRun();
      run = { from: segment.from, to: segment.to, direction, peak: segment.value };
    }
  }
  closeRun();

  const gaps: ReportGap[] = segments
    .filter((segment) => segment.state === 'gap')
    .map((segment) => ({ from: iso(segment.from), to: iso(segment.to), durationSeconds: seconds(segment.to - segment.from) }));

  const overall = statsOf(inPeriod.map((reading) => reading.value));
  return {
    readingCount: inPeriod.length,
    minValue: overall.min,
    meanValue: overall.mean,
    maxValue: overall.max,
    inRangeSeconds: seconds(inRange),
    outOfRangeSeconds: seconds(outOfRange),
    noDataSeconds: seconds(noData),
    days,
    chart,
    excursions,
    gaps,
  };
}
