import { describe, expect, it } from 'vitest';
import { type Bucket, createRecentMeans, type RecentMeansOptions } from './recent-means.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A measure's readings by minute, read back as the database's means would be, with each stretch asked for. */
function measure() {
  const minutes = new Map<number, { sum: number; count: number }>();
  const asked: [number, number][] = [];
  return {
    asked,
    add(ts: number, value: number, times = 1) {
      const minute = Math.floor(ts / MINUTE) * MINUTE;
      const bucket = minutes.get(minute) ?? { sum: 0, count: 0 };
      minutes.set(minute, { sum: bucket.sum + value * times, count: bucket.count + times });
    },
    async read(from: number, to: number): Promise<Bucket[]> {
      asked.push([from, to]);
      return [...minutes]
        .filter(([ts]) => ts >= from && ts < to)
        .sort(([a], [b]) => a - b)
        .map(([ts, bucket]) => ({ ts, value: bucket.sum / bucket.count, count: bucket.count }));
    },
  };
}

const WINDOW = 24 * HOUR;
const T0 = Date.UTC(2026, 10, 23, 12);

async function means(cache: ReturnType<typeof createRecentMeans>, data: ReturnType<typeof measure>, end: number) {
  const columns = await cache.means('capteur:temperature', end - WINDOW, end, end, (from, to) => data.read(from, to));
  return { ts: [...columns.ts], values: [...columns.values] };
}

async function truth(data: ReturnType<typeof measure>, end: number) {
  const buckets = await data.read(end - WINDOW, end);
  data.asked.pop();
  return { ts: buckets.map((b) => b.ts), values: buckets.map((b) => b.value) };
}

function dense(data: ReturnType<typeof measure>, from: number, to: number) {
  for (let ts = from; ts < to; ts += MINUTE) data.add(ts, 4 + Math.sin(ts / HOUR), 60);
}

describe('createRecentMeans', () => {
  it('reads a sparse measure whole every time, keeping nothing', async () => {
    const data = measure();
    for (let ts = T0 - WINDOW; ts < T0; ts += MINUTE) data.add(ts, 4);
    const cache = createRecentMeans();
    await means(cache, data, T0);
    await means(cache, data, T0 + 5 * MINUTE);
    expect(data.asked).toEqual([
      [T0 - WINDOW, T0],
      [T0 + 5 * MINUTE - WINDOW, T0 + 5 * MINUTE],
    ]);
    expect(cache.held()).toBe(0);
  });

  it('asks only for the last minutes of a dense measure, and answers as a whole read would', async () => {
    const data = measure();
    dense(data, T0 - WINDOW, T0);
    const cache = createRecentMeans({ marginMs: 15 * MINUTE });
    await means(cache, data, T0);
    dense(data, T0, T0 + 5 * MINUTE);
    // A late reading within the margin is taken in.
    data.add(T0 - 10 * MINUTE, 40, 60);
    const later = T0 + 5 * MINUTE;
    const got = await means(cache, data, later);
    expect(data.asked.at(-1)).toEqual([T0 - 15 * MINUTE, later]);
    expect(got).toEqual(await truth(data, later));
  });

  it('reads the whole window again after an hour, taking in older late readings', async () => {
    const data = measure();
    dense(data, T0 - WINDOW, T0);
    const cache = createRecentMeans({ marginMs: 15 * MINUTE, fullReadMs: HOUR });
    await means(cache, data, T0);
    data.add(T0 - 3 * HOUR, 40, 600);
    const soon = await means(cache, data, T0 + 30 * MINUTE);
    expect(soon).not.toEqual(await truth(data, T0 + 30 * MINUTE));
    const later = T0 + HOUR;
    expect(await means(cache, data, later)).toEqual(await truth(data, later));
    expect(data.asked.at(-1)).toEqual([later - WINDOW, later]);
  });

  it('reads the whole window again when older readings arrived since it last did', async () => {
    const data = measure();
    dense(data, T0 - WINDOW, T0);
    const cache = createRecentMeans({ marginMs: 15 * MINUTE, fullReadMs: 6 * HOUR });
    await means(cache, data, T0);
    // A device's buffer: three hours ago, stored five minutes later.
    data.add(T0 - 3 * HOUR, 40, 600);
    const later = T0 + 10 * MINUTE;
    const columns = await cache.means(
      'capteur:temperature',
      later - WINDOW,
      later,
      later,
      (from, to) => data.read(from, to),
      T0 + 5 * MINUTE,
    );
    expect({ ts: [...columns.ts], values: [...columns.values] }).toEqual(await truth(data, later));
    expect(data.asked.at(-1)).toEqual([later - WINDOW, later]);
  });

  it('drops the least recently used measures beyond its size', async () => {
    const data = measure();
    dense(data, T0 - WINDOW, T0);
    const options: RecentMeansOptions = { maxBuckets: 2000 };
    const cache = createRecentMeans(options);
    for (const id of ['a', 'b']) await cache.means(id, T0 - WINDOW, T0, T0, (from, to) => data.read(from, to));
    expect(cache.held()).toBe(24 * 60);
    data.asked.length = 0;
    for (const id of ['b', 'a']) await cache.means(id, T0 - WINDOW + MINUTE, T0 + MINUTE, T0 + MINUTE, (from, to) => data.read(from, to));
    // « b » was kept and is read from its last minutes; « a » was dropped and is read whole.
    expect(data.asked).toEqual([
      [T0 - 15 * MINUTE, T0 + MINUTE],
      [T0 - WINDOW + MINUTE, T0 + MINUTE],
    ]);
  });

  it('hands out arrays of its own to each caller', async () => {
    const data = measure();
    dense(data, T0 - WINDOW, T0);
    const cache = createRecentMeans();
    const first = await cache.means('a', T0 - WINDOW, T0, T0, (from, to) => data.read(from, to));
    first.values.fill(0);
    const second = await cache.means('a', T0 - WINDOW + MINUTE, T0 + MINUTE, T0 + MINUTE, (from, to) => data.read(from, to));
    expect(second.values[0]).not.toBe(0);
  });
});
