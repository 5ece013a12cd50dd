/**
 * Excursions beyond a limit and their cost in degree-hours: the area between the readings and the
 * limit, in °C·h, by the trapezoidal rule between consecutive readings, with the exact crossing
 * instants where a segment crosses the limit. A door opening weighs little, a failure a lot.
 *
 * Two readings further apart than `maxGapMs` are not bridged: the silence between them adds no
 * area, and an excursion seen on both sides of it is counted as one only if it is still beyond the
 * limit when readings resume (its duration includes the silence, its degree-hours do not).
 */

export interface ExcursionLimit {
  threshold: number;
  direction: 'above' | 'below';
}

export interface ExcursionOptions {
  /** Readings further apart than this are not joined (15 min by default). */
  maxGapMs?: number;
}

export interface DegreeHoursExcursion {
  /** When the value crossed the limit (interpolated), or its first reading beyond it. */
  from: number;
  /** When it came back (interpolated), or null while it is still beyond at the last reading. */
  to: number | null;
  /** The furthest reading beyond the limit. */
  peak: number;
  /** Area beyond the limit, in °C·h (or unit·h). */
  degreeHours: number;
}

const HOUR = 3_600_000;

export function excursions(
  readings: readonly { ts: number; value: number }[],
  limit: ExcursionLimit,
  options: ExcursionOptions = {},
): DegreeHoursExcursion[] {
  const maxGap = options.maxGapMs ?? 15 * 60_000;
  const sign = limit.direction === 'above' ? 1 : -1;
  // Distance beyond the limit: positive when beyond.
  const beyond = (value: number) => sign * (value - limit.threshold);
  const points = readings.filter((r) => Number.isFinite(r.value) && Number.isFinite(r.ts));
  if (points.some((r, i) => i > 0 && r.ts < (points[i - 1] as { ts: number }).ts)) points.sort((a, b) => a.ts - b.ts);

  const out: DegreeHoursExcursion[] = [];
  let current: DegreeHoursExcursion | null = null;
  let previous: { ts: number; value: number } | null = null;
  for (const point of points) {
    const d = beyond(point.value);
    const joined = previous !== null && point.ts - previous.ts <= maxGap;
    if (previous && joined) {
      const d0 = beyond(previous.value);
      const dt = point.ts - previous.ts;
      if (d0 > 0 && d > 0) {
        if (current) current.degreeHours += ((d0 + d) / 2) * (dt / HOUR);
      } else if (d0 <= 0 && d > 0) {
        // Crossing out: the excursion starts at the interpolated crossing.
        const cross = previous.ts + (dt * -d0) / (d - d0);
        current = { from: cross, to: null, peak: point.value, degreeHours: (d / 2) * ((point.ts - cross) / HOUR) };
        out.push(current);
      } else if (d0 > 0 && d <= 0) {
        const cross = previous.ts + (dt * d0) / (d0 - d);
        if (current) {
          current.degreeHours += (d0 / 2) * ((cross - previous.ts) / HOUR);
          current.to = cross;
        }
        current = null;
      }
    } else if (d > 0 && !current) {
      // First reading, or after a silence: the excursion starts at this reading.
      current = { from: point.ts, to: null, peak: point.value, degreeHours: 0 };
      out.push(current);
    } else if (d <= 0 && current) {
      // Back within the limit after a silence: it ended at the last reading beyond it, at the latest.
      current.to = previous ? previous.ts : point.ts;
      current = null;
    }
    if (current && d > 0 && beyond(point.value) > beyond(current.peak)) current.peak = point.value;
    previous = point;
  }
  return out;
}
