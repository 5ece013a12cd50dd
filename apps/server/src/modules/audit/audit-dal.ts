import { and, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { auditEvents } from '../../db/schema.ts';

export type AuditRow = typeof auditEvents.$inferSelect;
export type NewAuditRow = typeof auditEvents.$inferInsert;

export interface AuditFilter {
  action?: string | undefined;
  actorId?: string | undefined;
  q?: string | undefined;
  /** Instants: `from` included, `to` excluded. */
  from?: Date | undefined;
  to?: Date | undefined;
}

/** The audit trail's table: inserts and reads only (the database refuses updates and deletes). */
export function createAuditDal(db: Database) {
  return {
    async insert(row: NewAuditRow): Promise<void> {
      await db.insert(auditEvents).values(row);
    },

    /** Newest first, `limit + 1` rows so that the caller knows whether more follow; always one organization's. */
    page(organizationId: string, filter: AuditFilter, limit: number, before?: number): Promise<AuditRow[]> {
      const pattern = filter.q ? `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
      return db
        .select()
        .from(auditEvents)
        .where(
          and(
            eq(auditEvents.organizationId, organizationId),
            filter.action ? eq(auditEvents.action, filter.action) : undefined,
            filter.actorId ? eq(auditEvents.actorId, filter.actorId) : undefined,
            pattern
              ? sql`(${auditEvents.subjectName} ilike ${pattern} or ${auditEvents.actorName} ilike ${pattern} or ${auditEvents.actorEmail} ilike ${pattern})`
              : undefined,
            filter.from ? gte(auditEvents.at, filter.from) : undefined,
            filter.to ? lt(auditEvents.at, filter.to) : undefined,
            before !== undefined ? lt(auditEvents.id, before) : undefined,
          ),
        )
        .orderBy(desc(auditEvents.id))
        .limit(limit + 1);
    },

    /** Whether this account signed in from `ip` at or after `since`. */
    async signedInFrom(account: { id: string; organizationId: string }, ip: string, since: Date): Promise<boolean> {
      const [row] = await db
        .select({ id: auditEvents.id })
        .from(auditEvents)
        .where(
          and(
            eq(auditEvents.organizationId, account.organizationId),
            eq(auditEvents.actorId, account.id),
            eq(auditEvents.action, 'auth.login'),
            eq(auditEvents.ip, ip),
            gte(auditEvents.at, since),
          ),
        )
        .limit(1);
      return row !== undefined;
    },
  };
}
