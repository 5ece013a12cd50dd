import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { regions, sites } from '../../db/schema.ts';

export type RegionRecord = typeof regions.$inferSelect;

/** The only code that touches the `regions` table; every query is scoped to an organization. */
export function createRegionDal(db: Database) {
  const owned = (organizationId: string, id: string) => and(eq(regions.organizationId, organizationId), eq(regions.id, id));

  return {
    list(organizationId: string): Promise<RegionRecord[]> {
      return db.select().from(regions).where(eq(regions.organizationId, organizationId)).orderBy(asc(regions.name), asc(regions.id));
    },

    async find(organizationId: string, id: string): Promise<RegionRecord | undefined> {
      const [row] = await db.select().from(regions).where(owned(organizationId, id)).limit(1);
      return row;
    },

    async findByName(organizationId: string, name: string, exceptId?: string): Promise<RegionRecord | undefined> {
      const [row] = await db
        .select()
        .from(regions)
        .where(
          and(
            eq(regions.organizationId, organizationId),
            sql`lower(${regions.name}) = lower(${name})`,
            exceptId ? sql`${regions.id} <> ${exceptId}` : undefined,
          ),
        )
        .limit(1);
      return row;
    },

    async create(organizationId: string, name: string): Promise<RegionRecord> {
      const [row] = await db.insert(regions).values({ organizationId, name }).returning();
      if (!row) throw new Error('Insertion de la région sans résultat.');
      return row;
    },

    async rename(organizationId: string, id: string, name: string): Promise<RegionRecord | undefined> {
      const [row] = await db.update(regions).set({ name, updatedAt: new Date() }).where(owned(organizationId, id)).returning();
      return row;
    },

    /** Removes the region; its sites stay, in no region (the foreign key sets them to null). */
    async remove(organizationId: string, id: string): Promise<boolean> {
      const rows = await db.delete(regions).where(owned(organizationId, id)).returning({ id: regions.id });
      return rows.length > 0;
    },

    /** Which of `ids` are regions of the organization. */
    async existing(organizationId: string, ids: readonly string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .select({ id: regions.id })
        .from(regions)
        .where(and(eq(regions.organizationId, organizationId), inArray(regions.id, [...ids])));
      return rows.map((row) => row.id);
    },

    /** The organization's sites that are among `siteIds` or in one of `regionIds`. */
    async sitesIn(organizationId: string, siteIds: readonly string[], regionIds: readonly string[]): Promise<string[]> {
      if (siteIds.length === 0 && regionIds.length === 0) return [];
      const rows = await db
        .select({ id: sites.id })
        .from(sites)
        .where(
          and(
            eq(sites.organizationId, organizationId),
            sql`(${siteIds.length > 0 ? inArray(sites.id, [...siteIds]) : sql`false`} or ${
              regionIds.length > 0 ? inArray(sites.regionId, [...regionIds]) : sql`false`
            })`,
          ),
        );
      return rows.map((row) => row.id);
    },
  };
}
