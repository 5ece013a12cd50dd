import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { ruleTemplates } from '../../db/schema.ts';

export type TemplateRecord = typeof ruleTemplates.$inferSelect;
export type TemplateInsert = Omit<typeof ruleTemplates.$inferInsert, 'id' | 'organizationId' | 'createdAt' | 'updatedAt'>;

/** The only code that touches `rule_templates`. */
export function createRuleTemplateDal(db: Database) {
  const owned = (organizationId: string, id: string) => and(eq(ruleTemplates.organizationId, organizationId), eq(ruleTemplates.id, id));
  return {
    list(organizationId: string): Promise<TemplateRecord[]> {
      return db
        .select()
        .from(ruleTemplates)
        .where(eq(ruleTemplates.organizationId, organizationId))
        .orderBy(asc(ruleTemplates.createdAt), asc(ruleTemplates.id));
    },

    async find(organizationId: string, id: string): Promise<TemplateRecord | undefined> {
      const [row] = await db.select().from(ruleTemplates).where(owned(organizationId, id)).limit(1);
      return row;
    },

    async create(organizationId: string, values: TemplateInsert, now: Date): Promise<TemplateRecord> {
      const [row] = await db
        .insert(ruleTemplates)
        .values({ ...values, organizationId, createdAt: now, updatedAt: now })
        .returning();
      if (!row) throw new Error('Modèle non enregistré.');
      return row;
    },

    async update(organizationId: string, id: string, changes: Partial<TemplateInsert>, now: Date): Promise<TemplateRecord | undefined> {
      const values = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
      const [row] = await db
        .update(ruleTemplates)
        .set({ ...values, updatedAt: now })
        .where(owned(organizationId, id))
        .returning();
      return row;
    },

    async remove(organizationId: string, id: string): Promise<boolean> {
      const rows = await db.delete(ruleTemplates).where(owned(organizationId, id)).returning({ id: ruleTemplates.id });
      return rows.length > 0;
    },
  };
}

export type RuleTemplateDal = ReturnType<typeof createRuleTemplateDal>;
