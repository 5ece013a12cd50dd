import { lt } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { rateLimits } from '../../db/schema.ts';

export function createRateLimitsDal(db: Database) {
  return {
    /** The counters' table, for the Drizzle store of rate-limiter-flexible. */
    table: rateLimits,
    /** Forgets the counters whose window ended before `before`; how many. */
    async purgeExpired(before: Date): Promise<number> {
      const rows = await db.delete(rateLimits).where(lt(rateLimits.expire, before)).returning({ key: rateLimits.key });
      return rows.length;
    },
  };
}
