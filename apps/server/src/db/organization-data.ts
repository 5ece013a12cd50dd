import { sql } from 'drizzle-orm';
import { rowsOf, type Database } from './database.ts';

/**
 * What crosses every module's tables for the operator (docs/api.md, Opérateur): an organization's
 * consumption, and the erasure of every row of it. Like the readings' partitions, it lives in
 * `src/db/`, outside the modules: no module owns « every table that has an organization column ».
 */

/** Tables an erasure leaves alone: the organization row itself (last) and the operator's audit, kept. */
const KEPT = new Set(['organizations', 'operator_audit']);
/** Rows deleted per statement: a large organization is erased without one long lock. */
const BATCH = 2_000;

const ident = (name: string) => sql.raw(`"${name.replaceAll('"', '""')}"`);

/** The tables (not partitions) of the current schema that have an `organization_id` column. */
export async function tablesWithOrganization(db: Database): Promise<string[]> {
  const rows = await rowsOf<{ table: string }>(
    db,
    sql`select c.table_name as "table" from information_schema.columns c
        join pg_class k on k.relname = c.table_name and k.relnamespace = (select oid from pg_namespace where nspname = current_schema())
        where c.table_schema = current_schema() and c.column_name = 'organization_id' and not k.relispartition and k.relkind in ('r', 'p')
        order by c.table_name`,
  );
  return rows.map((row) => row.table).filter((table) => !KEPT.has(table));
}

/** The organization's devices (sensors and emitters, the trash included): their readings go with them. */
async function deviceIds(db: Database, organizationId: string): Promise<string[]> {
  const rows = await rowsOf<{ id: string }>(
    db,
    sql`select id from sensors where organization_id = ${organizationId} union all select id from emitters where organization_id = ${organizationId}`,
  );
  return rows.map((row) => row.id);
}

/** Deletes every reading of a device a day at a time (readings are partitioned by day); how many. */
async function eraseReadings(db: Database, deviceId: string): Promise<number> {
  let deleted = 0;
  for (;;) {
    const [first] = await rowsOf<{ ts: string | Date | null }>(db, sql`select min(ts) as ts from readings where device_id = ${deviceId}`);
    if (!first?.ts) break;
    const from = new Date(first.ts);
    const until = new Date(from.getTime() + 86_400_000);
    const rows = await rowsOf<{ n: number }>(
      db,
      sql`with gone as (delete from readings where device_id = ${deviceId} and ts >= ${from.toISOString()} and ts < ${until.toISOString()} returning 1) select count(*)::int as n from gone`,
    );
    deleted += rows[0]?.n ?? 0;
  }
  for (const table of ['reading_ids', 'latest_values']) {
    // `reading_ids` exists on PostgreSQL only.
    const [exists] = await rowsOf<{ t: string | null }>(db, sql`select to_regclass(${table})::text as t`);
    if (!exists?.t) continue;
    const rows = await rowsOf<{ n: number }>(
      db,
      sql`with gone as (delete from ${ident(table)} where device_id = ${deviceId} returning 1) select count(*)::int as n from gone`,
    );
    deleted += rows[0]?.n ?? 0;
  }
  return deleted;
}

/**
 * Deletes every row of the organization, in batches: its devices' readings, then each table with
 * an organization column (a table another still points to is retried after the others), then
 * the organization row. Returns how many rows went, by table. Idempotent: a second run finds nothing.
 */
export async function eraseOrganizationData(db: Database, organizationId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const add = (table: string, n: number) => {
    if (n > 0) counts[table] = (counts[table] ?? 0) + n;
  };
  for (const id of await deviceIds(db, organizationId)) add('readings', await eraseReadings(db, id));
  let pending = await tablesWithOrganization(db);
  for (let pass = 0; pending.length > 0 && pass < 20; pass++) {
    const blocked: string[] = [];
    for (const table of pending) {
      try {
        for (;;) {
          const rows = await db.transaction(async (tx) => {
            // The audit trail refuses deletes, but those of the organization being erased.
            await tx.execute(sql`select set_config('vigie.erasing_organization', ${organizationId}, true)`);
            return rowsOf<{ n: number }>(
              tx as unknown as Database,
              sql`with gone as (delete from ${ident(table)} where ctid = any(array(select ctid from ${ident(table)} where organization_id = ${organizationId} limit ${BATCH})) returning 1) select count(*)::int as n from gone`,
            );
          });
          const n = rows[0]?.n ?? 0;
          add(table, n);
          if (n < BATCH) break;
        }
      } catch (error) {
        // Still referenced by a row of another table not yet erased: retried on the next pass.
        if ((error as { code?: string }).code === '23503' || (error as { cause?: { code?: string } }).cause?.code === '23503') {
          blocked.push(table);
        } else throw error;
      }
    }
    pending = blocked;
  }
  return counts;
}

export interface OrganizationUsage {
  sensors: number;
  members: number;
  readingsThisMonth: number;
  smsThisMonth: number;
}

/** Each client organization's consumption: sensors outside the trash, members, readings and SMS (calls too) since `monthStart`. */
export async function organizationsUsage(db: Database, monthStart: Date): Promise<Map<string, OrganizationUsage>> {
  const rows = await rowsOf<{ id: string; sensors: number; members: number; readings: number; sms: number }>(
    db,
    sql`select o.id,
          (select count(*)::int from sensors s where s.organization_id = o.id and s.deleted_at is null) as sensors,
          (select count(*)::int from users u where u.organization_id = o.id) as members,
          (select count(*)::int from readings r join sensors s on s.id = r.device_id where s.organization_id = o.id and r.ts >= ${monthStart.toISOString()}) as readings,
          (select count(*)::int from notification_outbox n where n.organization_id = o.id and n.channel in ('sms', 'call') and n.status = 'sent' and n.sent_at >= ${monthStart.toISOString()}) as sms
        from organizations o where not o.internal`,
  );
  return new Map(
    rows.map((row) => [
      row.id,
      {
        sensors: Number(row.sensors),
        members: Number(row.members),
        readingsThisMonth: Number(row.readings),
        smsThisMonth: Number(row.sms),
      },
    ]),
  );
}
