import type { Columns } from './insights-compute.ts';

/** One bucket of a measure: its start, the mean of its readings and how many there were. */
export interface Bucket {
  ts: number;
  value: number;
  count: number;
}

export interface RecentMeansOptions {
  /** Readings dated this far back may still arrive (a retried message, a device's buffer): read again each time. */
  marginMs?: number;
  /** The whole window is read again at least this often, to take in older late readings. */
  fullReadMs?: number;
  /** Only measures averaging more readings than this per bucket are kept: the others cost little to read again. */
  denseCount?: number;
  /** At most this many buckets are kept, least recently used dropped first. */
  maxBuckets?: number;
}

interface Entry {
  ts: Float64Array<ArrayBuffer>;
  values: Float64Array<ArrayBuffer>;
  /** End (exclusive) of what was read. */
  to: number;
  fullAt: number;
}

/**
 * The per-minute means of dense measures, kept between two analyses so that each analysis asks
 * the database only for the last minutes. A sensor sending a reading a second has 600 000 readings
 * a week: averaging them all again every five minutes would cost more than everything else.
 */
export function createRecentMeans(options: RecentMeansOptions = {}) {
  const marginMs = options.marginMs ?? 15 * 60_000;
  const fullReadMs = options.fullReadMs ?? 6 * 3600_000;
  const denseCount = options.denseCount ?? 10;
  const maxBuckets = options.maxBuckets ?? 2_000_000;
  const entries = new Map<string, Entry>();
  let held = 0;

  const forget = (id: string) => {
    const entry = entries.get(id);
    if (!entry) return;
    held -= entry.ts.length;
    entries.delete(id);
  };

  const keep = (id: string, entry: Entry) => {
    forget(id);
    entries.set(id, entry);
    held += entry.ts.length;
    for (const [oldest] of entries) {
      if (held <= maxBuckets) break;
      forget(oldest);
    }
  };

  const columns = (entry: Entry): Columns => ({ ts: entry.ts.slice(), values: entry.values.slice() });

  return {
    /**
     * The means of [from, to) for `id`, `from` and `to` on bucket boundaries; `read` asks the
     * database for a stretch of them. The arrays returned are the caller's.
     */
    async means(
      id: string,
      from: number,
      to: number,
      now: number,
      read: (from: number, to: number) => Promise<Bucket[]>,
      /** Older readings arrived at this time: what was read in full before it is read again. */
      backfilledAt = Number.NEGATIVE_INFINITY,
    ): Promise<Columns> {
      const entry = entries.get(id);
      if (entry && now - entry.fullAt < fullReadMs && entry.fullAt > backfilledAt && entry.to <= to && entry.to > from) {
        const cut = Math.max(from, entry.to - marginMs);
        const fresh = await read(cut, to);
        let first = 0;
        while (first < entry.ts.length && (entry.ts[first] ?? 0) < from) first += 1;
        let last = first;
        while (last < entry.ts.length && (entry.ts[last] ?? 0) < cut) last += 1;
        const ts = new Float64Array(last - first + fresh.length);
        const values = new Float64Array(ts.length);
        ts.set(entry.ts.subarray(first, last));
        values.set(entry.values.subarray(first, last));
        fresh.forEach((bucket, index) => {
          ts[last - first + index] = bucket.ts;
          values[last - first + index] = bucket.value;
        });
        const updated = { ts, values, to, fullAt: entry.fullAt };
        keep(id, updated);
        return columns(updated);
      }
      const buckets = await read(from, to);
      const ts = Float64Array.from(buckets, (bucket) => bucket.ts);
      const values = Float64Array.from(buckets, (bucket) => bucket.value);
      const readings = buckets.reduce((sum, bucket) => sum + bucket.count, 0);
      if (buckets.length > 0 && readings > denseCount * buckets.length) {
        const entry = { ts, values, to, fullAt: now };
        keep(id, entry);
        return columns(entry);
      }
      forget(id);
      return { ts, values };
    },

    /** How many buckets are held (for tests and figures). */
    held: () => held,
  };
}

export type RecentMeans = ReturnType<typeof createRecentMeans>;
