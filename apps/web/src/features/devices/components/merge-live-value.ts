import type { LatestValue, ReadingBucket } from '@vigie/contract';

/**
 * Adds a live value to the chart's buckets: into the last bucket when it falls within its
 * width, else as a new bucket, dropping those that left the range.
 */
export function mergeLiveValue(readings: ReadingBucket[], value: LatestValue, bucketMs: number, rangeMs: number): ReadingBucket[] {
  const ts = Date.parse(value.ts);
  const last = readings.at(-1);
  if (last) {
    const start = Date.parse(last.ts);
    if (ts < start) return readings;
    if (ts < start + bucketMs) {
      const count = last.count + 1;
      const merged: ReadingBucket = {
        ts: last.ts,
        min: Math.min(last.min, value.value),
        max: Math.max(last.max, value.value),
        avg: (last.avg * last.count + value.value) / count,
        count,
      };
      return [...readings.slice(0, -1), merged];
    }
  }
  const bucketStart = last ? Date.parse(last.ts) + Math.floor((ts - Date.parse(last.ts)) / bucketMs) * bucketMs : ts;
  const next = [...readings, { ts: new Date(bucketStart).toISOString(), min: value.value, avg: value.value, max: value.value, count: 1 }];
  const oldest = ts - rangeMs;
  return next.filter((bucket) => Date.parse(bucket.ts) >= oldest);
}
