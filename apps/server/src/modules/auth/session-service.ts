import type { Database } from '../../db/database.ts';
import { createSessionDal } from './session-dal.ts';

/** Told when a session ends, so that every instance closes what it holds open for it (live streams). */
export type SessionEnded = (ended: { organizationId: string; userId: string; sessionId: string }) => void;

/**
 * Sessions that really end (PRODUCT §9): each access token names its session, checked on every
 * request, so that logging out refuses the token at once on every instance.
 */
export function createSessionService(deps: { db: Database; now: () => Date; lifetimeSeconds: number; onEnded: SessionEnded }) {
  const dal = createSessionDal(deps.db);
  return {
    /** Opens a session; its id and when it ends at the latest. */
    async open(userId: string): Promise<{ id: string; expiresAt: Date }> {
      const now = deps.now();
      const expiresAt = new Date(now.getTime() + deps.lifetimeSeconds * 1000);
      return { id: await dal.create(userId, now, expiresAt), expiresAt };
    },

    isOpen(sessionId: string, userId: string): Promise<boolean> {
      return dal.isOpen(sessionId, userId, deps.now());
    },

    /** Logout: the session's token is refused from now on, and its live streams close. */
    async end(session: { id: string; userId: string; organizationId: string }): Promise<void> {
      if (await dal.end(session.id, session.userId, deps.now())) {
        deps.onEnded({ organizationId: session.organizationId, userId: session.userId, sessionId: session.id });
      }
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
