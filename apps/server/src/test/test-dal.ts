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
