import { and, eq, gt, isNull, lt, ne } from 'drizzle-orm';
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

    /** When this session of this user expires if it is still open at `now`; null otherwise. */
    async openUntil(sessionId: string, userId: string, now: Date): Promise<Date | null> {
      const [row] = await db
        .select({ expiresAt: sessions.expiresAt })
        .from(sessions)
        .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.endedAt), gt(sessions.expiresAt, now)))
        .limit(1);
      return row?.expiresAt ?? null;
    },

    /** Pushes back the deadline of a session still open at `now` (never brings it forward). */
    async extend(sessionId: string, expiresAt: Date, now: Date): Promise<void> {
      await db
        .update(sessions)
        .set({ expiresAt })
        .where(and(eq(sessions.id, sessionId), isNull(sessions.endedAt), gt(sessions.expiresAt, now), lt(sessions.expiresAt, expiresAt)));
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

    /** Ends every open session of a user but `except`; the ids of those that ended. */
    async endAll(userId: string, now: Date, except?: string): Promise<string[]> {
      const ended = await db
        .update(sessions)
        .set({ endedAt: now })
        .where(and(eq(sessions.userId, userId), isNull(sessions.endedAt), except ? ne(sessions.id, except) : undefined))
        .returning({ id: sessions.id });
      return ended.map((row) => row.id);
    },
  };
}

export type SessionDal = ReturnType<typeof createSessionDal>;
