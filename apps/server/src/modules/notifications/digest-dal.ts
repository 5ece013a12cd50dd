import { and, eq, isNull, ne, or } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { dailyDigests } from '../../db/schema.ts';

/** The only code that touches `daily_digests`. */
export function createDigestDal(db: Database) {
  return {
    async enabled(userId: string): Promise<boolean> {
      const [row] = await db.select({ enabled: dailyDigests.enabled }).from(dailyDigests).where(eq(dailyDigests.userId, userId));
      return row?.enabled ?? false;
    },

    async set(userId: string, organizationId: string, enabled: boolean, at: Date): Promise<void> {
      await db
        .insert(dailyDigests)
        .values({ userId, organizationId, enabled, updatedAt: at })
        .onConflictDoUpdate({ target: dailyDigests.userId, set: { enabled, updatedAt: at } });
    },

    /** Who asks for the digest, by organization. */
    subscribers(): Promise<{ userId: string; organizationId: string; lastDay: string | null }[]> {
      return db
        .select({ userId: dailyDigests.userId, organizationId: dailyDigests.organizationId, lastDay: dailyDigests.lastDay })
        .from(dailyDigests)
        .where(eq(dailyDigests.enabled, true));
    },

    /** Marks the day's digest queued for this person; false when it already was (another instance, an earlier run). */
    async claimDay(userId: string, day: string): Promise<boolean> {
      const rows = await db
        .update(dailyDigests)
        .set({ lastDay: day })
        .where(and(eq(dailyDigests.userId, userId), or(isNull(dailyDigests.lastDay), ne(dailyDigests.lastDay, day))))
        .returning({ userId: dailyDigests.userId });
      return rows.length > 0;
    },
  };
}
