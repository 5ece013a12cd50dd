import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enforceRetention } from '../modules/telemetry/reading-retention.ts';
import { countRows, provision, readingsOf, sendTelemetry } from '../test/device-helpers.ts';
import { randomUUID } from 'node:crypto';
import { createTestApp, databaseKind, isolatedDatabase, type TestAccount, type TestApp } from '../test/test-app.ts';
import {
  ageReadingIds,
  monthlyReadingsDatabase,
  readingIdsLayout,
  plainReadingsDatabase,
  readingPartitionNames,
  readingPartitionRanges,
  readingsLayout,
  readingTables,
} from '../test/test-dal.ts';

const DAY = 86_400_000;

function dayStart(ms: number, days = 0): Date {
  const date = new Date(ms);
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + days));
}

function monthStart(ms: number, months = 0): Date {
  const date = new Date(ms);
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
}

function partitionOf(ms: number): string {
  return `readings_p${dayStart(ms).toISOString().slice(0, 10).replaceAll('-', '')}`;
}

function monthPartitionOf(ms: number): string {
  const month = monthStart(ms);
  return `readings_y${month.getUTCFullYear()}m${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
}

// The embedded database keeps one plain table: these tests are for PostgreSQL only. They run on
// a database of their own: retention is run there at dates to come, which would drop other
// suites' readings on the shared one.
describe.runIf(databaseKind === 'PostgreSQL')('readings partitioned by day (PostgreSQL)', () => {
  let t: TestApp;
  let owner: TestAccount;
  let dropDatabase: () => Promise<void>;
  beforeAll(async () => {
    const isolated = await isolatedDatabase();
    if (!isolated) throw new Error('PostgreSQL expected');
    dropDatabase = isolated.drop;
    t = await createTestApp({ env: { RETENTION_DAYS: '60', DATABASE_URL: isolated.url } });
    owner = await t.createAccount();
  });
  afterAll(async () => {
    await t.close();
    await dropDatabase();
  });

  /** Two readings of a device, at `old` and at `recent`: accepted together. */
  const sendOldAndRecent = async (token: string, old: number, recent: number) => {
    const response = await sendTelemetry(t, token, [
      { ts: old, temperature: 1 },
      { ts: recent, temperature: 2 },
    ]);
    expect(response.statusCode).toBe(202);
  };

  it('prepares a partition for each day of the retention period and 7 days ahead, and a DEFAULT partition', async () => {
    const names = await readingPartitionNames(t);
    expect(names).toContain('readings_default');
    expect(names).toContain(partitionOf(Date.now() - 60 * DAY));
    expect(names).toContain(partitionOf(Date.now()));
    expect(names).toContain(partitionOf(Date.now() + 7 * DAY));
    expect(names).not.toContain(partitionOf(Date.now() + 8 * DAY));
    // Every day from the cutoff's to a week ahead, in one partition each, without gaps.
    expect(names.filter((name) => name !== 'readings_default')).toHaveLength(68);
  });

  it('stores each reading in the partition of its day', async () => {
    const device = await provision(t, owner, 'sensor');
    const old = Date.now() - 40 * DAY;
    const recent = Date.now() - 60_000;
    await sendOldAndRecent(device.accessToken, old, recent);
    expect(await readingTables(t, device.deviceId)).toEqual([
      { table: partitionOf(old), ts: new Date(old) },
      { table: partitionOf(recent), ts: new Date(recent) },
    ]);
  });

  it('stores a retried reading id once, even when the retry has no time and is dated anew in another month', async () => {
    const device = await provision(t, owner, 'sensor');
    const old = Date.now() - 40 * DAY;
    expect((await sendTelemetry(t, device.accessToken, { id: 'r-1', ts: old, values: { temperature: 5, humidity: 40 } })).statusCode).toBe(
      202,
    );
    // The retry carries no time: the server dates it now, another partition than the first copy's.
    expect((await sendTelemetry(t, device.accessToken, { id: 'r-1', values: { temperature: 5, humidity: 40 } })).statusCode).toBe(202);
    expect(
      (
        await sendTelemetry(t, device.accessToken, [
          { id: 'r-2', temperature: 6 },
          { id: 'r-2', temperature: 6 },
        ])
      ).statusCode,
    ).toBe(202);
    const stored = await readingTables(t, device.deviceId);
    expect(stored).toHaveLength(3);
    expect(stored.filter((row) => row.table === partitionOf(old))).toHaveLength(2);
  });

  it('remembers a reading id for a week: a retry within it is stored once, an entry older than it is pruned', async () => {
    const device = await provision(t, owner, 'sensor');
    expect((await sendTelemetry(t, device.accessToken, { id: 'w-1', values: { temperature: 5 } })).statusCode).toBe(202);
    // Six days later the entry is still there: a retry is not stored again.
    await ageReadingIds(t, device.deviceId, 6);
    await enforceRetention(t.app.services);
    expect((await sendTelemetry(t, device.accessToken, { id: 'w-1', values: { temperature: 5 } })).statusCode).toBe(202);
    expect(await countRows(t, device.deviceId)).toBe(1);
    expect((await readingIdsLayout(t)).entries.map((entry) => entry.readingId)).toContain('w-1');

    // Past the week, the hourly job forgets it; a retry that late would be stored again.
    await ageReadingIds(t, device.deviceId, 2);
    await enforceRetention(t.app.services);
    expect((await readingIdsLayout(t)).entries.map((entry) => entry.readingId)).not.toContain('w-1');
    expect(await countRows(t, device.deviceId)).toBe(1);
  });

  it('reads history and CSV across the boundary of two days', async () => {
    const device = await provision(t, owner, 'sensor');
    const boundary = dayStart(Date.now()).getTime();
    const before = [boundary - 2 * 3600_000, boundary - 1];
    const after = [boundary, Math.min(boundary + 3600_000, Date.now() - 1000)];
    const sent = [...before, ...after].map((ts, index) => ({ ts, temperature: index }));
    expect((await sendTelemetry(t, device.accessToken, sent)).statusCode).toBe(202);
    expect(new Set((await readingTables(t, device.deviceId)).map((row) => row.table)).size).toBe(2);

    const from = new Date(boundary - 3 * 3600_000).toISOString();
    const to = new Date(boundary + 2 * 3600_000).toISOString();
    const history = await readingsOf(t, owner, device.deviceId, `from=${from}&to=${to}&buckets=5`);
    expect(history.statusCode).toBe(200);
    const buckets = history.json<{ readings: { count: number; min: number; max: number }[] }>().readings;
    expect(buckets.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(4);
    expect(Math.min(...buckets.map((bucket) => bucket.min))).toBe(0);
    expect(Math.max(...buckets.map((bucket) => bucket.max))).toBe(3);

    const csv = await t.app.inject({
      url: `/api/sensor/${device.deviceId}/readings.csv?from=${from}&to=${to}&tz=UTC`,
      headers: owner.auth,
    });
    expect(csv.statusCode).toBe(200);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
      .slice(1);
    expect(lines.map((line) => line.split(';')[3])).toEqual(['0', '1', '2', '3']);
  });

  it('drops the days wholly past the retention period, keeps newer readings, and takes a late reading of a dropped day back', async () => {
    const device = await provision(t, owner, 'sensor');
    const old = Date.now() - 55 * DAY;
    const recent = Date.now() - 60_000;
    await sendOldAndRecent(device.accessToken, old, recent);

    // Forty days later, the cutoff is 20 days ago: the day of the old reading ended before it.
    const deleted = await enforceRetention(t.app.services, Date.now() + 40 * DAY);
    expect(deleted).toBeGreaterThanOrEqual(1);
    expect(await readingPartitionNames(t)).not.toContain(partitionOf(old));
    expect(await readingTables(t, device.deviceId)).toEqual([{ table: partitionOf(recent), ts: new Date(recent) }]);

    // Today, that day is still within the 60 days kept: a late reading of it is stored (in
    // DEFAULT until its partition is back), then moved into its partition by the next run.
    expect((await sendTelemetry(t, device.accessToken, { ts: old, temperature: 3 })).statusCode).toBe(202);
    expect((await readingTables(t, device.deviceId))[0]?.table).toBe('readings_default');
    await enforceRetention(t.app.services);
    expect(await readingPartitionNames(t)).toContain(partitionOf(old));
    expect(await readingTables(t, device.deviceId)).toEqual([
      { table: partitionOf(old), ts: new Date(old) },
      { table: partitionOf(recent), ts: new Date(recent) },
    ]);
    expect(await countRows(t, device.deviceId)).toBe(2);
  });

  it('turns the plain table of an existing database into the partitioned one, keeping its rows and the reading ids of the window', async () => {
    const isolated = await isolatedDatabase();
    if (!isolated) throw new Error('PostgreSQL expected');
    const deviceId = randomUUID();
    const at = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY);
    await plainReadingsDatabase(isolated.url, [
      { deviceId, key: 'temperature', ts: at(45), value: 1, readingId: 'a' },
      { deviceId, key: 'temperature', ts: at(2), value: 2, readingId: 'b' },
      { deviceId, key: 'temperature', ts: at(1), value: 3, readingId: null },
    ]);
    const converted = await createTestApp({ env: { DATABASE_URL: isolated.url } });
    try {
      const layout = await readingsLayout(converted);
      // Only the ids of the dedup window's readings are remembered: 'a' is 45 days old.
      expect(layout).toEqual({ kind: 'p', ids: [1, 2, 3], readingIds: ['b'] });
      expect((await readingTables(converted, deviceId)).map((row) => row.table)).toEqual([
        partitionOf(at(45).getTime()),
        partitionOf(at(2).getTime()),
        partitionOf(at(1).getTime()),
      ]);
      // A retry of a reading stored before the change is still recognised; the row numbers go on.
      await converted.app.services.telemetry.store(
        [
          { deviceId, key: 'temperature', ts: new Date(), value: 2, readingId: 'b' },
          { deviceId, key: 'temperature', ts: new Date(), value: 4, readingId: 'c' },
        ],
        [],
      );
      expect(await readingsLayout(converted)).toEqual({ kind: 'p', ids: [1, 2, 3, 4], readingIds: ['b', 'c'] });
    } finally {
      await converted.close();
      await isolated.drop();
    }
  });
  it('keeps the month partitions of a database partitioned by month, adds days only where no month covers them, and drops a month once wholly past the cutoff', async () => {
    const isolated = await isolatedDatabase();
    if (!isolated) throw new Error('PostgreSQL expected');
    const now = Date.now();
    // The month before this one and this one, as the previous version left them.
    const deviceId = randomUUID();
    await monthlyReadingsDatabase(
      isolated.url,
      [monthStart(now, -1), monthStart(now)],
      [
        { deviceId, readingId: 'old', key: 'temperature', ts: new Date(now - 10 * DAY) },
        { deviceId, readingId: 'recent', key: 'temperature', ts: new Date(now - DAY) },
      ],
    );
    const upgraded = await createTestApp({ env: { DATABASE_URL: isolated.url, RETENTION_DAYS: '60' } });
    try {
      // reading_ids becomes the dedup window: the ids of the last week, as if received at their time.
      expect(await readingIdsLayout(upgraded)).toEqual({
        columns: ['device_id', 'reading_id', 'key', 'stored_at'],
        indexes: ['reading_ids_pkey', 'reading_ids_stored_at_idx'],
        entries: [{ readingId: 'recent', storedAt: new Date(now - DAY) }],
      });

      const ranges = await readingPartitionRanges(upgraded);
      expect(ranges.map((range) => range.name)).toEqual(
        expect.arrayContaining([monthPartitionOf(now), monthPartitionOf(monthStart(now, -1).getTime())]),
      );
      // From the cutoff's day to a week ahead, every day lies in exactly one partition: a month, or a day of its own.
      for (let day = dayStart(now - 60 * DAY).getTime(); day <= dayStart(now, 7).getTime(); day += DAY) {
        const covering = ranges.filter((range) => range.from.getTime() <= day && range.to.getTime() > day);
        expect(covering).toHaveLength(1);
        const inMonth = day >= monthStart(now, -1).getTime() && day < monthStart(now, 1).getTime();
        expect(covering[0]?.name).toBe(inMonth ? monthPartitionOf(day) : partitionOf(day));
      }

      const boundary = monthStart(now).getTime();
      const stored = [boundary - DAY, boundary + 1800_000, boundary + 7200_000];
      await upgraded.app.services.telemetry.store(
        stored.map((ts, index) => ({ deviceId, key: 'temperature', ts: new Date(ts), value: index, readingId: null })),
        [],
      );
      expect((await readingTables(upgraded, deviceId)).map((row) => row.table)).toEqual([
        monthPartitionOf(boundary - DAY),
        monthPartitionOf(boundary),
        monthPartitionOf(boundary),
      ]);

      // When the cutoff is an hour into this month, the month before goes whole; this month
      // stays, its readings older than the cutoff deleted.
      await enforceRetention(upgraded.app.services, boundary + 3600_000 + 60 * DAY);
      const names = (await readingPartitionRanges(upgraded)).map((range) => range.name);
      expect(names).not.toContain(monthPartitionOf(boundary - DAY));
      expect(names).toContain(monthPartitionOf(boundary));
      expect(await readingTables(upgraded, deviceId)).toEqual([{ table: monthPartitionOf(boundary), ts: new Date(boundary + 7200_000) }]);
    } finally {
      await upgraded.close();
      await isolated.drop();
    }
  });
});
