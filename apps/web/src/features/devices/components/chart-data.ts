import type { ReadingBucket } from '@vigie/contract';
import type uPlot from 'uplot';

/** One step of a forecast (epoch ms): the expected value and its interval. */
export type ChartForecastPoint = { ts: number; value: number; low: number; high: number };

/**
 * Buckets as uPlot columns (min, avg, max), with an empty point in each gap so that the line breaks
 * there. With a forecast, three more columns (low, value, high) start at the last bucket's average,
 * so that the dashed line leaves from the last reading, and go on after it.
 */
export function toData(readings: ReadingBucket[], gapMs = Number.POSITIVE_INFINITY, forecast?: ChartForecastPoint[]): uPlot.AlignedData {
  const xs: number[] = [];
  const cols: (number | null)[][] = forecast ? [[], [], [], [], [], []] : [[], [], []];
  let previous: number | null = null;
  for (const bucket of readings) {
    const t = Date.parse(bucket.ts);
    if (previous !== null && t - previous > gapMs) {
      xs.push((previous + gapMs / 2) / 1000);
      for (const col of cols) col.push(null);
    }
    xs.push(t / 1000);
    cols[0]?.push(bucket.min);
    cols[1]?.push(bucket.avg);
    cols[2]?.push(bucket.max);
    for (const col of cols.slice(3)) col.push(null);
    previous = t;
  }
  if (forecast) {
    const last = readings.at(-1);
    if (last && forecast.some((point) => point.ts > Date.parse(last.ts))) {
      for (const col of cols.slice(3)) col[col.length - 1] = last.avg;
    }
    for (const point of forecast) {
      if (previous !== null && point.ts <= previous) continue;
      xs.push(point.ts / 1000);
      cols[0]?.push(null);
      cols[1]?.push(null);
      cols[2]?.push(null);
      cols[3]?.push(point.low);
      cols[4]?.push(point.value);
      cols[5]?.push(point.high);
      previous = point.ts;
    }
  }
  return [xs, ...cols] as uPlot.AlignedData;
}

/** A period drawn on the chart, in epoch ms. */
export type Span = { from: number; to: number };

/**
 * The time axis (epoch seconds, as uPlot reads it): the chosen period whatever the data — a single
 * reading of a new sensor does not stretch it over years — running on past its end only for what
 * is drawn after now (a forecast, a pause's planned end).
 */
export function timeRange(xs: ArrayLike<number>, window: Span | undefined, ends: number[] = []): [number, number] {
  // The data's own first and last instants: uPlot's `max` for a single point is that point plus
  // 86 400 000 of its time units — some 2,7 years when they are seconds.
  const min = xs.length > 0 ? (xs[0] as number) : Number.NaN;
  const max = xs.length > 0 ? (xs[xs.length - 1] as number) : Number.NaN;
  const later = ends.filter((end) => Number.isFinite(end));
  if (!window) {
    if (!Number.isFinite(min) || !Number.isFinite(max)) return [min, max];
    const to = Math.max(max, ...later);
    // One instant alone: the hour around it.
    return to > min ? [min, to] : [min - 1800, min + 1800];
  }
  const to = Math.max(window.to / 1000, ...(Number.isFinite(max) ? [max] : []), ...later);
  return [window.from / 1000, to];
}

/** What the overlays need of the plot: its drawing box and where a value falls (canvas pixels). */
export type PlotArea = Pick<uPlot, 'bbox' | 'valToPos'>;

/** The horizontal extent of a span on the canvas, clipped to the plot; null when outside it. */
export function spanX(u: PlotArea, span: Span, ratio = devicePixelRatio): [number, number] | null {
  const { left, width } = u.bbox;
  const x0 = Math.max(left, u.valToPos(span.from / 1000, 'x', true));
  // A span shorter than a pixel pair (a brief anomaly on a month) still shows.
  const x1 = Math.min(left + width, Math.max(u.valToPos(span.to / 1000, 'x', true), x0 + 2 * ratio));
  return x1 > x0 ? [x0, x1] : null;
}
