import type { Database } from '../../db/database.ts';
import { createRateLimits } from './rate-limits.ts';

/**
 * The rate limits module: counters shared by the instances on PostgreSQL, so that an attempt
 * counts wherever the load balancer sent it. In: the database, whether instances share it, and a
 * scope that keeps one app's counters apart (tests). Out: the limits, and the job that drops
 * counters whose window is long over.
 */
export function createRateLimitsModule(options: { db: Database; sharedByInstances: boolean; scope: string }) {
  const rateLimits = createRateLimits(options);
  return {
    rateLimits,
    jobs: { purgeExpired: () => rateLimits.purgeExpired(new Date()) },
    services: { rateLimits },
  };
}

export type RateLimitsModule = ReturnType<typeof createRateLimitsModule>;
