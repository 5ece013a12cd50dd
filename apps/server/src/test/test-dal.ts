import type { DeviceKind } from '@vigie/contract';
import { sql } from 'drizzle-orm';
import type { TestApp } from './test-app.ts';

/**
 * What tests read or set in the database behind the API's back (row counts, a device heard
 * from long ago, the stored form of a token). Only tests use it.
 */
async function rows<T>(t: TestApp, query: ReturnType<typeof sql>): Promise<T[]> {
  const result: unknown = await t.database.db.execute(query);
  const found = typeof result === 'object' && result !== null && 'rows' in result ? result.rows : undefined;
  return Array.isArray(found) ? found : [];
}

export async function countRows(t: TestApp, deviceId: string): Promise<number> {
  const [row] = await rows<{ n: number }>(t, sql`select count(*)::int as n from readings where device_id = ${deviceId}`);
  return Number(row?.n ?? 0);
}

export async function storedTokenHash(t: TestApp, deviceId: string): Promise<string | undefined> {
  const [row] = await rows<{ token_hash: string }>(t, sql`select token_hash from device_credentials where device_id = ${deviceId}`);
  return row?.token_hash;
}

/** The device was last heard `secondsAgo` seconds ago. */
export async function setLastSeen(t: TestApp, kind: DeviceKind, deviceId: string, secondsAgo: number): Promise<void> {
  const table = kind === 'sensor' ? sql`sensors` : sql`emitters`;
  await t.database.db.execute(sql`update ${table} set last_seen_at = now() - make_interval(secs => ${secondsAgo}) where id = ${deviceId}`);
}

/** Gives a member another role, as an admin would once members can be managed. */
export async function setRole(t: TestApp, userId: string, role: 'admin' | 'manager' | 'viewer'): Promise<void> {
  await t.database.db.execute(sql`update users set role = ${role} where id = ${userId}`);
}

/** Dates a site's creation back (one site, or every site of the database). */
export async function setSiteCreatedAt(t: TestApp, at: string, siteId?: string): Promise<void> {
  await t.database.db.execute(
    siteId
      ? sql`update sites set created_at = ${at}::timestamptz where id = ${siteId}`
      : sql`update sites set created_at = ${at}::timestamptz`,
  );
}

/** Tries to rewrite or erase the audit trail behind the API's back: the database must refuse. */
export async function alterAuditTrail(t: TestApp, how: 'update' | 'delete'): Promise<void> {
  await t.database.db.execute(how === 'update' ? sql`update audit_events set action = 'device.created'` : sql`delete from audit_events`);
}

/** The table (the month partition on PostgreSQL) that holds each of a device's readings, oldest first. */
export async function readingTables(t: TestApp, deviceId: string): Promise<{ table: string; ts: Date }[]> {
  const found = await rows<{ table: string; ts: string | Date }>(
    t,
    sql`select tableoid::regclass::text as table, ts from readings where device_id = ${deviceId} order by ts`,
  );
  return found.map((row) => ({ table: row.table, ts: new Date(row.ts) }));
}

/** The tables that hold readings: the month partitions and DEFAULT on PostgreSQL. */
export async function readingPartitionNames(t: TestApp): Promise<string[]> {
  const found = await rows<{ name: string }>(
    t,
    sql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'readings'::regclass order by 1`,
  );
  return found.map((row) => row.name);
}

/** A database migrated as before readings were partitioned, its plain table holding these rows (PostgreSQL). */
export async function plainReadingsDatabase(
  url: string,
  readings: { deviceId: string; key: string; ts: Date; value: number; readingId: string | null }[],
): Promise<void> {
  const { default: pg } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  const { migrationsFolder } = await import('../db/database.ts');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await migrate(drizzle(client), { migrationsFolder: migrationsFolder() });
    for (const r of readings) {
      await client.query('insert into readings (device_id, key, ts, value, reading_id) values ($1, $2, $3, $4, $5)', [
        r.deviceId,
        r.key,
        r.ts,
        r.value,
        r.readingId,
      ]);
    }
  } finally {
    await client.end();
  }
}

/** The kind of the readings table ('r' plain, 'p' partitioned), its rows' ids and the reading ids kept apart. */
export async function readingsLayout(t: TestApp): Promise<{ kind: string; ids: number[]; readingIds: string[] }> {
  const [kind] = await rows<{ kind: string }>(t, sql`select relkind::text as kind from pg_class where oid = 'readings'::regclass`);
  const ids = await rows<{ id: string | number }>(t, sql`select id from readings order by id`);
  const readingIds = await rows<{ reading_id: string }>(t, sql`select reading_id from reading_ids order by reading_id`);
  return { kind: kind?.kind ?? '', ids: ids.map((row) => Number(row.id)), readingIds: readingIds.map((row) => row.reading_id) };
}
