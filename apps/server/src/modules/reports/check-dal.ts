import { and, desc, eq, gte, inArray, lt, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { manualChecks } from '../../db/schema.ts';

export type CheckRecord = typeof manualChecks.$inferSelect;
export type CheckInsert = Omit<typeof manualChecks.$inferInsert, 'id'>;

/** The only code that touches `manual_checks`. */
export function createCheckDal(db: Database) {
  return {
    async create(values: CheckInsert): Promise<CheckRecord> {
      const [row] = await db.insert(manualChecks).values(values).returning();
      if (!row) throw new Error('Contrôle non enregistré.');
      return row;
    },

    /** An organization's checks, newest first, held to these sites (`null`: all) and filters. */
    list(
      organizationId: string,
      filters: { siteIds: readonly string[] | null; siteId?: string | undefined; sensorId?: string | undefined; from?: Date; to?: Date },
      limit = 500,
    ): Promise<CheckRecord[]> {
      const conditions: SQL[] = [eq(manualChecks.organizationId, organizationId)];
      if (filters.siteIds !== null) {
        if (filters.siteIds.length === 0) return Promise.resolve([]);
        conditions.push(inArray(manualChecks.siteId, [...filters.siteIds]));
      }
      if (filters.siteId) conditions.push(eq(manualChecks.siteId, filters.siteId));
      if (filters.sensorId) conditions.push(eq(manualChecks.sensorId, filters.sensorId));
      if (filters.from) conditions.push(gte(manualChecks.takenAt, filters.from));
      if (filters.to) conditions.push(lt(manualChecks.takenAt, filters.to));
      return db
        .select()
        .from(manualChecks)
        .where(and(...conditions))
        .orderBy(desc(manualChecks.takenAt), desc(manualChecks.id))
        .limit(limit);
    },
  };
}

export type CheckDal = ReturnType<typeof createCheckDal>;
