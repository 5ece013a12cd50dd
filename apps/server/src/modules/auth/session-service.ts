import type { Database } from '../../db/database.ts';
import type { AccountCache } from './account-cache.ts';
import { createSessionDal } from './session-dal.ts';

/**
 * Told when a session ends, so that every instance refuses its token and closes what it holds
 * open for it (live streams); the ending completes once the other instances have been told.
 */
export type SessionEnded = (ended: { organizationId: string; userId: string; sessionId: string }) => void | Promise<void>;

/** How long sessions live (configuration `sessions`). */
export interface SessionLifetimes {
  /** Without « Se souvenir de moi »: ends after this many seconds without a request… */
  idleSeconds: number;
  /** …and after this many at the latest. */
  maxSeconds: number;
  /** With « Se souvenir de moi »: ends after this many seconds. */
  rememberSeconds: number;
}

/** An idle deadline is written at most once a minute per active session… */
const SLIDE_EVERY_MS = 60_000;
/** …and at most once per this fraction of its idle timeout, so that a short timeout still slides smoothly. */
const SLIDE_FRACTION = 10;

/**
 * How much later than its idle timeout an idle session may end: the deadline is written only once
 * per this step, so each write gives it this much beyond the timeout to last until the next one.
 */
const slideStepMs = (idleSeconds: number) => Math.min(SLIDE_EVERY_MS, Math.floor((idleSeconds * 1000) / SLIDE_FRACTION));

/**
 * Sessions that really end (docs/api.md, Connexion et sessions): each access token names its session, checked on every
 * request, so that logging out refuses the token at once on every instance. A session's row holds
 * its idle deadline, pushed back as it is used; its absolute end is its token's expiry.
 */
export function createSessionService(deps: {
  db: Database;
  now: () => Date;
  lifetimes: SessionLifetimes;
  onEnded: SessionEnded;
  /** Open sessions kept in memory between two reads of their row (see `createAccountCache`). */
  cache?: Pick<AccountCache, 'sessionExpiry' | 'sessionExtended' | 'forgetSession'>;
}) {
  const dal = createSessionDal(deps.db);
  const { lifetimes, cache } = deps;
  return {
    /**
     * Opens a session: a short one that ends when left idle, or, remembered, a long one. Its id,
     * its token's lifetime and its idle timeout (null for a remembered one).
     */
    async open(
      userId: string,
      remember = false,
      viaSso = false,
    ): Promise<{ id: string; lifetimeSeconds: number; idleSeconds: number | null }> {
      const now = deps.now();
      const lifetimeSeconds = remember ? lifetimes.rememberSeconds : lifetimes.maxSeconds;
      const idleSeconds = remember ? null : Math.min(lifetimes.idleSeconds, lifetimes.maxSeconds);
      const lifetimeMs =
        idleSeconds === null ? lifetimeSeconds * 1000 : Math.min(idleSeconds * 1000 + slideStepMs(idleSeconds), lifetimeSeconds * 1000);
      const expiresAt = new Date(now.getTime() + lifetimeMs);
      return { id: await dal.create(userId, now, expiresAt, viaSso), lifetimeSeconds, idleSeconds };
    },

    /**
     * Whether this session of this user is open; a session with an idle timeout is kept alive by
     * this request, up to its absolute end (`endsAt`, ms).
     */
    async use(sessionId: string, userId: string, idle: { idleSeconds: number | null; endsAt: number }): Promise<boolean> {
      const now = deps.now();
      const load = async () => dal.openUntil(sessionId, userId, now);
      const expiresAt = cache ? await cache.sessionExpiry(sessionId, userId, now.getTime(), load) : ((await load())?.getTime() ?? null);
      if (expiresAt === null) return false;
      // After every request the deadline is at least a full idle timeout away: a session used more
      // often than its timeout never ends. It is written only when it falls short, then a step
      // beyond, so one active session costs a write per step, and an idle one ends at most a step late.
      if (idle.idleSeconds !== null && now.getTime() + idle.idleSeconds * 1000 > expiresAt) {
        const next = Math.min(now.getTime() + idle.idleSeconds * 1000 + slideStepMs(idle.idleSeconds), idle.endsAt);
        if (next > expiresAt) {
          await dal.extend(sessionId, new Date(next), now);
          cache?.sessionExtended(sessionId, next);
        }
      }
      return true;
    },

    /** Logout: the session's token is refused from now on, and its live streams close. */
    async end(session: { id: string; userId: string; organizationId: string }): Promise<void> {
      cache?.forgetSession(session.id);
      if (await dal.end(session.id, session.userId, deps.now())) {
        await deps.onEnded({ organizationId: session.organizationId, userId: session.userId, sessionId: session.id });
      }
    },

    /**
     * Ends every open session of a user but `except` (logout everywhere, a password change, a
     * member removed); how many ended.
     */
    async endAll(user: { userId: string; organizationId: string }, except?: string): Promise<number> {
      const ended = await dal.endAll(user.userId, deps.now(), except);
      for (const sessionId of ended) cache?.forgetSession(sessionId);
      await Promise.all(ended.map((sessionId) => deps.onEnded({ organizationId: user.organizationId, userId: user.userId, sessionId })));
      return ended.length;
    },

    /**
     * Single sign-on made compulsory for these domains: the sessions their people opened with a
     * password end (but `except`, the admin's own); how many ended.
     */
    async endPasswordSessions(organizationId: string, domains: readonly string[], except?: string): Promise<number> {
      const ended = await dal.endPasswordSessionsOf(organizationId, domains, deps.now(), except);
      for (const { id } of ended) cache?.forgetSession(id);
      await Promise.all(ended.map(({ id, userId }) => deps.onEnded({ organizationId, userId, sessionId: id })));
      return ended.length;
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
