import { and, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { auditEvents, users } from '../../db/schema.ts';

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

    /** The account an address belongs to, to file a failed login in its organization's trail. */
    async accountByEmail(email: string): Promise<{ id: string; organizationId: string; name: string | null; email: string } | undefined> {
      const [row] = await db
        .select({ id: users.id, organizationId: users.organizationId, name: users.name, email: users.email })
        .from(users)
        .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
        .limit(1);
      return row;
    },

    async accountById(id: string): Promise<{ id: string; organizationId: string; name: string | null; email: string } | undefined> {
      const [row] = await db
        .select({ id: users.id, organizationId: users.organizationId, name: users.name, email: users.email })
        .from(users)
        .where(eq(users.id, id))
        .limit(1);
      return row;
    },
  };
}
