import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { alertRules } from '../../db/schema.ts';

export type RuleRecord = typeof alertRules.$inferSelect;
export type RuleInsert = Omit<typeof alertRules.$inferInsert, 'id' | 'organizationId' | 'createdAt' | 'updatedAt'>;

/** The only code that touches `alert_rules`; user-facing queries are scoped to an organization. */
export function createAlertRuleDal(db: Database) {
  const owned = (organizationId: string, id: string) => and(eq(alertRules.organizationId, organizationId), eq(alertRules.id, id));

  return {
    list(organizationId: string, filters: { sensorId?: string | undefined; siteId?: string | undefined } = {}): Promise<RuleRecord[]> {
      const conditions = [eq(alertRules.organizationId, organizationId)];
      if (filters.sensorId) conditions.push(eq(alertRules.sensorId, filters.sensorId));
      if (filters.siteId) conditions.push(eq(alertRules.siteId, filters.siteId));
      return db
        .select()
        .from(alertRules)
        .where(and(...conditions))
        .orderBy(asc(alertRules.createdAt), asc(alertRules.id));
    },

    async find(organizationId: string, id: string): Promise<RuleRecord | undefined> {
      const [row] = await db.select().from(alertRules).where(owned(organizationId, id)).limit(1);
      return row;
    },

    async create(organizationId: string, values: RuleInsert): Promise<RuleRecord> {
      const [row] = await db
        .insert(alertRules)
        .values({ ...values, organizationId })
        .returning();
      if (!row) throw new Error('Insertion de la règle sans résultat.');
      return row;
    },

    async update(organizationId: string, id: string, changes: Partial<RuleInsert>): Promise<RuleRecord | undefined> {
      const values = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
      const [row] = await db
        .update(alertRules)
        .set({ ...values, updatedAt: new Date() })
        .where(owned(organizationId, id))
        .returning();
      return row;
    },

    /** The rules laid by the organization's templates. */
    fromTemplates(organizationId: string): Promise<RuleRecord[]> {
      return db
        .select()
        .from(alertRules)
        .where(and(eq(alertRules.organizationId, organizationId), isNotNull(alertRules.templateId)));
    },

    /** A template's rule in a site; none when another instance laid it first (one per template and site). */
    async createFromTemplate(organizationId: string, values: RuleInsert): Promise<RuleRecord | undefined> {
      const [row] = await db
        .insert(alertRules)
        .values({ ...values, organizationId })
        .onConflictDoNothing()
        .returning();
      return row;
    },

    /** Every rule of a template takes these values. */
    async updateFromTemplate(organizationId: string, templateId: string, values: Partial<RuleInsert>): Promise<RuleRecord[]> {
      return db
        .update(alertRules)
        .set({ ...values, updatedAt: new Date() })
        .where(and(eq(alertRules.organizationId, organizationId), eq(alertRules.templateId, templateId)))
        .returning();
    },

    async remove(organizationId: string, id: string): Promise<boolean> {
      const rows = await db.delete(alertRules).where(owned(organizationId, id)).returning({ id: alertRules.id });
      return rows.length > 0;
    },

    /** Enabled rules of one condition type, every organization: for the clock (offline). */
    enabledOfType(type: string): Promise<RuleRecord[]> {
      return db
        .select()
        .from(alertRules)
        .where(and(eq(alertRules.enabled, true), sql`${alertRules.condition}->>'type' = ${type}`));
    },

    async findById(id: string): Promise<RuleRecord | undefined> {
      const [row] = await db.select().from(alertRules).where(eq(alertRules.id, id)).limit(1);
      return row;
    },
  };
}

export type AlertRuleDal = ReturnType<typeof createAlertRuleDal>;
