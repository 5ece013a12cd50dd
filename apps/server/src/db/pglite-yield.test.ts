import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openPglite } from './pglite.ts';

describe('the embedded database', () => {
  it('lets the event loop turn during a long run of queries, so that other requests are answered', async () => {
    const database = await openPglite(undefined, {});
    try {
      const total = 400;
      let done = 0;
      let doneWhenTimerFired: number | null = null;
      // A timer due at once: it fires as soon as the event loop turns.
      setTimeout(() => {
        doneWhenTimerFired = done;
      }, 0);
      for (; done < total; done += 1) await database.db.execute(sql`select 1`);
      expect(doneWhenTimerFired).not.toBeNull();
      expect(doneWhenTimerFired).toBeLessThan(total / 2);
    } finally {
      await database.close();
    }
  });
});
