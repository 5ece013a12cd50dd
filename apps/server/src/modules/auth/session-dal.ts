import { and, eq, gt, inArray, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { sessions, users } from '../../db/schema.ts';

/** The only code that touches the sessions table. */
export function createSessionDal(db: Database) {
  return {
    async create(userId: string, createdAt: Date, expiresAt: Date, viaSso = false): Promise<string> {
      const [row] = await db.insert(sessions).values({ userId, createdAt, expiresAt, viaSso }).returning({ id: sessions.id });
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

    /**
     * Ends the sessions opened by a password (not through single sign-on) of the organization's
     * people whose address is in one of these domains, but `except`; those that ended.
     */
    async endPasswordSessionsOf(
      organizationId: string,
      domains: readonly string[],
      now: Date,
      except?: string,
    ): Promise<{ id: string; userId: string }[]> {
      if (domains.length === 0) return [];
      const people = db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.organizationId, organizationId), inArray(sql`lower(split_part(${users.email}, '@', 2))`, [...domains])));
      return db
        .update(sessions)
        .set({ endedAt: now })
        .where(
          and(
            inArray(sessions.userId, people),
            eq(sessions.viaSso, false),
            isNull(sessions.endedAt),
            except ? ne(sessions.id, except) : undefined,
          ),
        )
        .returning({ id: sessions.id, userId: sessions.userId });
    },
  };
}

export type SessionDal = ReturnType<typeof createSessionDal>;
