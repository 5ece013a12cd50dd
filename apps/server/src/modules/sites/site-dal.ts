import { and, asc, eq, sql } from 'drizzle-orm';
import type { OpeningHours } from '@vigie/contract';
import type { Database } from '../../db/database.ts';
import { sites } from '../../db/schema.ts';

export type SiteRecord = typeof sites.$inferSelect;

export interface SiteChanges {
  name?: string | undefined;
  timezone?: string | undefined;
  openingHours?: OpeningHours | undefined;
  regionId?: string | null | undefined;
}

/** The only code that touches the `sites` table; every query is scoped to an organization. */
export function createSiteDal(db: Database) {
  const owned = (organizationId: string, id: string) => and(eq(sites.organizationId, organizationId), eq(sites.id, id));

  return {
    list(organizationId: string): Promise<SiteRecord[]> {
      return db.select().from(sites).where(eq(sites.organizationId, organizationId)).orderBy(asc(sites.createdAt), asc(sites.id));
    },

    /** Every site of every organization, a page at a time: for the monthly report job. */
    page(afterId: string | null, limit: number): Promise<SiteRecord[]> {
      return db
        .select()
        .from(sites)
        .where(afterId ? sql`${sites.id} > ${afterId}` : undefined)
        .orderBy(asc(sites.id))
        .limit(limit);
    },

    async find(organizationId: string, id: string): Promise<SiteRecord | undefined> {
      const [row] = await db.select().from(sites).where(owned(organizationId, id)).limit(1);
      return row;
    },

    /** Sites by id, whatever their organization: for the alert engine, which already knows the owner. */
    async findById(id: string): Promise<SiteRecord | undefined> {
      const [row] = await db.select().from(sites).where(eq(sites.id, id)).limit(1);
      return row;
    },

    async findByName(organizationId: string, name: string): Promise<SiteRecord | undefined> {
      const [row] = await db
        .select()
        .from(sites)
        .where(and(eq(sites.organizationId, organizationId), sql`lower(${sites.name}) = lower(${name})`))
        .orderBy(asc(sites.createdAt))
        .limit(1);
      return row;
    },

    async create(
      organizationId: string,
      input: { name: string; timezone: string; openingHours: OpeningHours; regionId?: string | null },
    ): Promise<SiteRecord> {
      const [row] = await db
        .insert(sites)
        .values({ organizationId, ...input })
        .returning();
      if (!row) throw new Error('Insertion du site sans résultat.');
      return row;
    },

    async update(organizationId: string, id: string, changes: SiteChanges): Promise<SiteRecord | undefined> {
      const values = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
      const [row] = await db
        .update(sites)
        .set({ ...values, updatedAt: new Date() })
        .where(owned(organizationId, id))
        .returning();
      return row;
    },

    async remove(organizationId: string, id: string): Promise<boolean> {
      const rows = await db.delete(sites).where(owned(organizationId, id)).returning({ id: sites.id });
      return rows.length > 0;
    },

    async count(organizationId: string): Promise<number> {
      const [row] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(sites)
        .where(eq(sites.organizationId, organizationId));
      return row?.count ?? 0;
    },

    /**
     * The organization's first site, created with `defaults` when it has none. Serialized per
     * organization by a transaction-scoped advisory lock, so two instances never create two.
     */
    async firstOrCreate(
      organizationId: string,
      defaults: { name: string; timezone: string; openingHours: OpeningHours },
    ): Promise<SiteRecord> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`vigie:default-site:${organizationId}`}))`);
        const [existing] = await tx
          .select()
          .from(sites)
          .where(eq(sites.organizationId, organizationId))
          .orderBy(asc(sites.createdAt), asc(sites.id))
          .limit(1);
        if (existing) return existing;
        const [row] = await tx
          .insert(sites)
          .values({ organizationId, ...defaults })
          .returning();
        if (!row) throw new Error('Insertion du site sans résultat.');
        return row;
      });
    },
  };
}

export type SiteDal = ReturnType<typeof createSiteDal>;
