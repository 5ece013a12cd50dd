import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { sessions } from '../../db/schema.ts';

/** The only code that touches the sessions table. */
export function createSessionDal(db: Database) {
  return {
    async create(userId: string, createdAt: Date, expiresAt: Date): Promise<string> {
      const [row] = await db.insert(sessions).values({ userId, createdAt, expiresAt }).returning({ id: sessions.id });
      if (!row) throw new Error('Session non créée');
      return row.id;
    },

    /** Whether this session of this user is still open at `now`. */
    async isOpen(sessionId: string, userId: string, now: Date): Promise<boolean> {
      const [row] = await db
        .select({ id: sessions.id })
        .from(sessions)
        .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.endedAt), gt(sessions.expiresAt, now)))
        .limit(1);
      return row !== undefined;
    },

    /** Ends one session of a user; whether it was open. */
    async end(sessionId: string, userId: string, now: Date): Promise<boolean> {
      const ended = await db
        .update(sessions)
        .set({ endedAt: now })
        .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.endedAt)))
        .returning({ id: sessions.id });
      return ended.length > 0;
    },
  };
}

export type SessionDal = ReturnType<typeof createSessionDal>;
