import { type RateLimiterAbstract, RateLimiterDrizzle, RateLimiterMemory } from 'rate-limiter-flexible';
import type { Database } from '../../db/database.ts';
import { createRateLimitsDal } from './rate-limits-dal.ts';

export interface LimitOptions {
  /** Names the counter; unique per kind of limit. */
  keyPrefix: string;
  points: number;
  /** The window, in seconds. */
  duration: number;
}

export interface RateLimits {
  /** A limiter counted where every instance sees it when the database is shared, in memory otherwise. */
  create(options: LimitOptions): RateLimiterAbstract;
  /** Forgets the counters whose window ended more than an hour before `now`; how many. */
  purgeExpired(now: Date): Promise<number>;
}

const PURGE_AFTER_MS = 3600 * 1000;

/**
 * The rate limits' counters. On PostgreSQL, which several instances may share, they live in the
 * database (one atomic upsert per attempt), so that a guess spread over instances behind a load
 * balancer is counted once; should the database fail, each instance falls back to counting in
 * memory rather than letting attempts through uncounted. The embedded database belongs to one
 * process: the counters stay in its memory.
 */
export function createRateLimits(deps: { db: Database; sharedByInstances: boolean; scope?: string }): RateLimits {
  const dal = createRateLimitsDal(deps.db);
  return {
    create(limit) {
      const options = { ...limit, keyPrefix: `${deps.scope ?? ''}${limit.keyPrefix}` };
      const memory = new RateLimiterMemory(options);
      if (!deps.sharedByInstances) return memory;
      return new RateLimiterDrizzle({
        ...options,
        storeClient: deps.db,
        schema: dal.table,
        // Expired counters are purged by the server's hourly job, not by a timer per limiter.
        clearExpiredByTimeout: false,
        insuranceLimiter: memory,
      });
    },
    purgeExpired: (now) => (deps.sharedByInstances ? dal.purgeExpired(new Date(now.getTime() - PURGE_AFTER_MS)) : Promise.resolve(0)),
  };
}
