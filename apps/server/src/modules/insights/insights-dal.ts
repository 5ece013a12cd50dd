import { and, or, desc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Insights } from '@vigie/contract';
import type { Database } from '../../db/database.ts';
import { insightsBackfills, jobLeases, sensorInsights } from '../../db/schema.ts';

export interface StoredInsights {
  sensorId: string;
  key: string;
  organizationId: string;
  computedAt: Date;
  urgency: number;
  insights: Insights;
  /** Readings older than `computedAt` arrived after it: the figures miss them (see the schema). */
  backfilledAt?: Date | null;
}

/** Whether readings older than these figures arrived after they were computed. */
export const missesBackfill = (row: { computedAt: Date; backfilledAt?: Date | null }): boolean =>
  Boolean(row.backfilledAt && row.backfilledAt.getTime() >= row.computedAt.getTime());

export function createInsightsDal(db: Database) {
  /** The turn `name` to `holder` for `ms`, when free or expired (or, with `renew`, already the holder's). */
  async function take(name: string, holder: string, now: Date, ms: number, renew: boolean): Promise<boolean> {
    const until = new Date(now.getTime() + ms);
    const expired = lt(jobLeases.until, now);
    const rows = await db
      .insert(jobLeases)
      .values({ name, holder, until })
      .onConflictDoUpdate({
        target: jobLeases.name,
        set: { holder, until },
        setWhere: renew ? or(expired, eq(jobLeases.holder, holder)) : expired,
      })
      .returning({ holder: jobLeases.holder });
    return rows.length === 1 && rows[0]?.holder === holder;
  }

  return {
    async find(organizationId: string, sensorId: string, key: string): Promise<StoredInsights | undefined> {
      const [row] = await db
        .select({
          sensorId: sensorInsights.sensorId,
          key: sensorInsights.key,
          organizationId: sensorInsights.organizationId,
          computedAt: sensorInsights.computedAt,
          urgency: sensorInsights.urgency,
          insights: sensorInsights.insights,
          backfilledAt: insightsBackfills.backfilledAt,
        })
        .from(sensorInsights)
        .leftJoin(insightsBackfills, eq(insightsBackfills.sensorId, sensorInsights.sensorId))
        .where(and(eq(sensorInsights.organizationId, organizationId), eq(sensorInsights.sensorId, sensorId), eq(sensorInsights.key, key)));
      return row;
    },

    /**
     * When each of these sensors' insights were last computed (the oldest of its measures), and
     * when older readings last arrived after a computation, for the refresh job.
     */
    async computedAt(sensorIds: string[]): Promise<Map<string, { computedAt: Date; backfilledAt: Date | null }>> {
      if (sensorIds.length === 0) return new Map();
      const rows = await db
        .select({
          sensorId: sensorInsights.sensorId,
          at: sql<string>`min(${sensorInsights.computedAt})`,
          backfilledAt: sql<string | null>`max(${insightsBackfills.backfilledAt})`,
        })
        .from(sensorInsights)
        .leftJoin(insightsBackfills, eq(insightsBackfills.sensorId, sensorInsights.sensorId))
        .where(inArray(sensorInsights.sensorId, sensorIds))
        .groupBy(sensorInsights.sensorId);
      return new Map(
        rows.map((row) => [
          row.sensorId,
          { computedAt: new Date(row.at), backfilledAt: row.backfilledAt ? new Date(row.backfilledAt) : null },
        ]),
      );
    },

    /** Late readings of these sensors were stored at `at`: figures computed before it miss them. */
    async markBackfilled(sensorIds: string[], at: Date): Promise<void> {
      if (sensorIds.length === 0) return;
      await db
        .insert(insightsBackfills)
        .values(sensorIds.map((sensorId) => ({ sensorId, backfilledAt: at })))
        .onConflictDoUpdate({
          target: insightsBackfills.sensorId,
          set: { backfilledAt: sql`greatest(${insightsBackfills.backfilledAt}, excluded.backfilled_at)` },
        });
    },

    /** Writes the newest figures; an older computation arriving late never overwrites a newer one. */
    async save(row: StoredInsights): Promise<void> {
      await db
        .insert(sensorInsights)
        .values(row)
        .onConflictDoUpdate({
          target: [sensorInsights.sensorId, sensorInsights.key],
          set: { computedAt: row.computedAt, urgency: row.urgency, insights: row.insights, organizationId: row.organizationId },
          setWhere: lt(sensorInsights.computedAt, row.computedAt),
        });
    },

    /** The organization's sensors worth watching, most urgent first. */
    async watch(organizationId: string, limit: number): Promise<StoredInsights[]> {
      return db
        .select()
        .from(sensorInsights)
        .where(and(eq(sensorInsights.organizationId, organizationId), gt(sensorInsights.urgency, 0)))
        .orderBy(desc(sensorInsights.urgency), sensorInsights.sensorId)
        .limit(limit);
    },

    /**
     * Takes the job's turn for `ms` when nobody holds it (or the holder's turn has expired): one pass
     * at a time across instances (and within one), and a crashed holder's turn passes on when it expires.
     */
    lease: (name: string, holder: string, now: Date, ms: number) => take(name, holder, now, ms, false),

    /**
     * Takes `name` for `ms`, or keeps it for `ms` more when `holder` has it already: a lasting task
     * (a connection held by one instance) renews its turn while it lives, and another instance takes
     * it over once it expires.
     */
    hold: (name: string, holder: string, now: Date, ms: number) => take(name, holder, now, ms, true),

    async release(name: string, holder: string): Promise<void> {
      await db.delete(jobLeases).where(and(eq(jobLeases.name, name), eq(jobLeases.holder, holder)));
    },
  };
}

export type InsightsDal = ReturnType<typeof createInsightsDal>;
