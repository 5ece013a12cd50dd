import type { DeviceKind } from '@vigie/contract';
import { sql } from 'drizzle-orm';
import type { Client } from 'pg';
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

/** The reading ids stored for a device, in text order. */
export async function storedReadingIds(t: TestApp, deviceId: string): Promise<string[]> {
  const found = await rows<{ reading_id: string }>(
    t,
    sql`select reading_id from readings where device_id = ${deviceId} and reading_id is not null order by reading_id`,
  );
  return found.map((row) => row.reading_id);
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

/** The table (the day partition on PostgreSQL) that holds each of a device's readings, oldest first. */
export async function readingTables(t: TestApp, deviceId: string): Promise<{ table: string; ts: Date }[]> {
  const found = await rows<{ table: string; ts: string | Date }>(
    t,
    sql`select tableoid::regclass::text as table, ts from readings where device_id = ${deviceId} order by ts`,
  );
  return found.map((row) => ({ table: row.table, ts: new Date(row.ts) }));
}

/** The tables that hold readings: the day (or month) partitions and DEFAULT on PostgreSQL. */
export async function readingPartitionNames(t: TestApp): Promise<string[]> {
  const found = await rows<{ name: string }>(
    t,
    sql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'readings'::regclass order by 1`,
  );
  return found.map((row) => row.name);
}

/** The range partitions of readings with their bounds, oldest first (PostgreSQL). */
export async function readingPartitionRanges(t: TestApp): Promise<{ name: string; from: Date; to: Date }[]> {
  const { listReadingPartitions } = await import('../db/reading-partitions.ts');
  return (await listReadingPartitions(t.database.db)).flatMap((p) => (p.from && p.to ? [{ name: p.name, from: p.from, to: p.to }] : []));
}

/** Runs `work` on a client of the PostgreSQL database at `url`, once the migrations are applied (and nothing more). */
async function withMigratedDatabase(url: string, work: (client: Client) => Promise<void>): Promise<void> {
  const { default: pg } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  const { migrationsFolder } = await import('../db/database.ts');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await migrate(drizzle(client), { migrationsFolder: migrationsFolder() });
    await work(client);
  } finally {
    await client.end();
  }
}

/** A database migrated as before readings were partitioned, its plain table holding these rows (PostgreSQL). */
export async function plainReadingsDatabase(
  url: string,
  readings: { deviceId: string; key: string; ts: Date; value: number; readingId: string | null }[],
): Promise<void> {
  await withMigratedDatabase(url, async (client) => {
    for (const r of readings) {
      await client.query('insert into readings (device_id, key, ts, value, reading_id) values ($1, $2, $3, $4, $5)', [
        r.deviceId,
        r.key,
        r.ts,
        r.value,
        r.readingId,
      ]);
    }
  });
}

/** The kind of the readings table ('r' plain, 'p' partitioned), its rows' ids and the reading ids kept apart. */
export async function readingsLayout(t: TestApp): Promise<{ kind: string; ids: number[]; readingIds: string[] }> {
  const [kind] = await rows<{ kind: string }>(t, sql`select relkind::text as kind from pg_class where oid = 'readings'::regclass`);
  const ids = await rows<{ id: string | number }>(t, sql`select id from readings order by id`);
  const readingIds = await rows<{ reading_id: string }>(t, sql`select reading_id from reading_ids order by reading_id`);
  return { kind: kind?.kind ?? '', ids: ids.map((row) => Number(row.id)), readingIds: readingIds.map((row) => row.reading_id) };
}

/** The columns and indexes of `reading_ids`, and its entries (PostgreSQL). */
export async function readingIdsLayout(
  t: TestApp,
): Promise<{ columns: string[]; indexes: string[]; entries: { readingId: string; storedAt: Date }[] }> {
  const columns = await rows<{ name: string }>(
    t,
    sql`select attname as name from pg_attribute where attrelid = 'reading_ids'::regclass and attnum > 0 and not attisdropped order by attnum`,
  );
  const indexes = await rows<{ name: string }>(t, sql`select indexname as name from pg_indexes where tablename = 'reading_ids' order by 1`);
  const entries = await rows<{ reading_id: string; stored_at: string | Date }>(
    t,
    sql`select reading_id, stored_at from reading_ids order by reading_id`,
  );
  return {
    columns: columns.map((row) => row.name),
    indexes: indexes.map((row) => row.name),
    entries: entries.map((row) => ({ readingId: row.reading_id, storedAt: new Date(row.stored_at) })),
  };
}

/** Dates back when a device's reading ids were received, by `days`. */
export async function ageReadingIds(t: TestApp, deviceId: string, days: number): Promise<void> {
  await t.database.db.execute(
    sql`update reading_ids set stored_at = stored_at - make_interval(days => ${days}) where device_id = ${deviceId}`,
  );
}

/**
 * A database set up as before day partitions (PostgreSQL): readings partitioned by month with
 * the given months (each a UTC month start), DEFAULT, and `reading_ids` keeping `ts` instead of
 * `stored_at`, holding these entries.
 */
export async function monthlyReadingsDatabase(
  url: string,
  months: Date[],
  readingIds: { deviceId: string; readingId: string; key: string; ts: Date }[] = [],
): Promise<void> {
  await withMigratedDatabase(url, async (client) => {
    await client.query('drop index if exists readings_device_key_ts_idx, readings_dedup_unique, readings_ts_brin');
    await client.query('alter table readings rename to readings_plain');
    await client.query(`
      create table readings (
        device_id uuid not null, key text not null, ts timestamp with time zone not null, value double precision not null,
        reading_id text, id bigint not null default nextval('readings_id_seq')
      ) partition by range (ts)`);
    await client.query('create index readings_device_key_ts_idx on readings (device_id, key, ts)');
    await client.query('create index readings_ts_brin on readings using brin (ts)');
    await client.query('create table readings_default partition of readings default');
    for (const month of months) {
      const next = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1));
      const name = `readings_y${month.getUTCFullYear()}m${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
      await client.query(
        `create table ${name} partition of readings for values from ('${month.toISOString()}') to ('${next.toISOString()}')`,
      );
    }
    await client.query('alter sequence readings_id_seq owned by readings.id');
    await client.query('drop table readings_plain');
    await client.query(`
      create table reading_ids (
        device_id uuid not null, reading_id text not null, key text not null, ts timestamp with time zone not null,
        primary key (device_id, reading_id, key))`);
    await client.query('create index reading_ids_ts_idx on reading_ids (ts)');
    for (const r of readingIds) {
      await client.query('insert into reading_ids (device_id, reading_id, key, ts) values ($1, $2, $3, $4)', [
        r.deviceId,
        r.readingId,
        r.key,
        r.ts,
      ]);
    }
  });
}

/** What the database keeps of a device's last contact, as a restarted server would read it. */
export async function storedContact(
  t: TestApp,
  kind: DeviceKind,
  deviceId: string,
): Promise<{ lastSeenAt: Date | null; battery: number | null }> {
  const table = kind === 'sensor' ? sql`sensors` : sql`emitters`;
  const [row] = await rows<{ last_seen_at: string | Date | null; battery: number | null }>(
    t,
    sql`select last_seen_at, battery from ${table} where id = ${deviceId}`,
  );
  return { lastSeenAt: row?.last_seen_at ? new Date(row.last_seen_at) : null, battery: row?.battery ?? null };
}

/** The latest value of each key the database keeps for a device. */
export async function storedLatest(t: TestApp, deviceId: string): Promise<Record<string, { value: number; ts: Date }>> {
  const found = await rows<{ key: string; value: number; ts: string | Date }>(
    t,
    sql`select key, value, ts from latest_values where device_id = ${deviceId}`,
  );
  return Object.fromEntries(found.map((row) => [row.key, { value: Number(row.value), ts: new Date(row.ts) }]));
}

/** An account's two-factor secrets as the database keeps them (active, and pending confirmation). */
export async function storedTotpSecrets(t: TestApp, userId: string): Promise<{ secret: string | null; pending: string | null }> {
  const [row] = await rows<{ totp_secret: string | null; totp_pending_secret: string | null }>(
    t,
    sql`select totp_secret, totp_pending_secret from users where id = ${userId}`,
  );
  return { secret: row?.totp_secret ?? null, pending: row?.totp_pending_secret ?? null };
}

/** Stores an account's active two-factor secret as given (as an older version did, or another server). */
export async function setStoredTotpSecret(t: TestApp, userId: string, secret: string): Promise<void> {
  await t.database.db.execute(sql`update users set totp_secret = ${secret} where id = ${userId}`);
}

/** Stores names as a release without byte or mark limits could have: a site's and a sensor's. */
export async function setStoredNames(t: TestApp, names: { siteId: string; site: string; sensorId: string; sensor: string }): Promise<void> {
  await t.database.db.execute(sql`update sites set name = ${names.site} where id = ${names.siteId}`);
  await t.database.db.execute(sql`update sensors set name = ${names.sensor} where id = ${names.sensorId}`);
}

/** Writes readings and latest values straight into the tables, as older data would be, past every check of the API. */
export async function insertRawReadings(t: TestApp, deviceId: string, rows: { key: string; ts: Date; value: number }[]): Promise<void> {
  for (const row of rows) {
    await t.database.db.execute(
      sql`insert into readings (device_id, key, ts, value) values (${deviceId}, ${row.key}, ${row.ts.toISOString()}::timestamptz, ${row.value})`,
    );
    await t.database.db.execute(sql`
      insert into latest_values (device_id, key, value, ts) values (${deviceId}, ${row.key}, ${row.value}, ${row.ts.toISOString()}::timestamptz)
      on conflict (device_id, key) do update set value = excluded.value, ts = excluded.ts`);
  }
}

/** What is stored of an organization's SCIM token: its SHA-256 and its beginning. */
export async function storedScimTokens(t: TestApp, organizationId: string): Promise<{ token_hash: string; prefix: string }[]> {
  return rows(t, sql`select token_hash, prefix from scim_tokens where organization_id = ${organizationId}`);
}

/** How many rows of each table with an organization column (and readings of its devices) belong to the organization; empty tables left out. */
export async function organizationRows(
  t: TestApp,
  organizationId: string,
  deviceIds: readonly string[] = [],
): Promise<Record<string, number>> {
  const tables = await rows<{ table: string }>(
    t,
    sql`select c.table_name as "table" from information_schema.columns c
        join pg_class k on k.relname = c.table_name and k.relnamespace = (select oid from pg_namespace where nspname = current_schema())
        where c.table_schema = current_schema() and c.column_name = 'organization_id' and not k.relispartition and k.relkind in ('r', 'p')`,
  );
  const counts: Record<string, number> = {};
  for (const { table } of tables) {
    if (table === 'operator_audit') continue;
    const [row] = await rows<{ n: number }>(
      t,
      sql`select count(*)::int as n from ${sql.raw(`"${table}"`)} where organization_id = ${organizationId}`,
    );
    if (Number(row?.n) > 0) counts[table] = Number(row?.n);
  }
  const [organization] = await rows<{ n: number }>(t, sql`select count(*)::int as n from organizations where id = ${organizationId}`);
  if (Number(organization?.n) > 0) counts['organizations'] = Number(organization?.n);
  for (const id of deviceIds) {
    const [row] = await rows<{ n: number }>(t, sql`select count(*)::int as n from readings where device_id = ${id}`);
    if (Number(row?.n) > 0) counts['readings'] = (counts['readings'] ?? 0) + Number(row?.n);
  }
  return counts;
}
