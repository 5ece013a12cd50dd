import type { User } from '@vigie/contract';

/**
 * What every authenticated request needs, from memory: the user (role, organization, two-factor
 * state) and whether its session is open. The database stays the truth, and
 * - a change is forgotten as it is made (`forgetUser`, `forgetOrganization`, `forgetSession`), so
 *   the very next request reads it again; instances sharing PostgreSQL announce their changes on
 *   the bus, and each forgets them as it hears them;
 * - while an instance may miss what the others announce (`trusted` false: its bus is down), it
 *   reads the database on every request, and it starts afresh (`clear`) once it hears again;
 * - an entry is read again from the database after `ttlMs` whatever happens;
 * - a read that started before a change is not kept (a generation counter), so it cannot put the
 *   old value back after the change was forgotten.
 */
export function createAccountCache(deps: {
  /** The clock of sessions, in ms: an entry older than `ttlMs` on it is read again. */
  now: () => number;
  ttlMs: number;
  /** Past this many entries of a kind, the oldest go first. */
  maxEntries: number;
  /** Whether memory may answer now: false while changes made elsewhere could go unheard. */
  trusted?: () => boolean;
}) {
  const trusted = deps.trusted ?? (() => true);
  const users = new Map<string, { user: User; at: number }>();
  const sessions = new Map<string, { userId: string; expiresAt: number; at: number }>();
  let generation = 0;

  const fresh = (at: number) => {
    const age = deps.now() - at;
    return age >= 0 && age < deps.ttlMs;
  };
  function remember<V>(map: Map<string, V>, key: string, value: V) {
    map.delete(key);
    map.set(key, value);
    if (map.size > deps.maxEntries) map.delete(map.keys().next().value as string);
  }

  return {
    /** The user of this id: from memory while fresh, otherwise `load`ed (a missing user is never kept). */
    async user(id: string, load: () => Promise<User | undefined>): Promise<User | undefined> {
      if (!trusted()) return load();
      const cached = users.get(id);
      if (cached && fresh(cached.at)) return cached.user;
      const started = generation;
      const at = deps.now();
      const user = await load();
      if (user && started === generation) remember(users, id, { user, at });
      return user;
    },

    /**
     * When this session of this user expires, if it is open at `now` (ms), or null: from memory
     * while fresh, otherwise from `load`, which answers the stored expiry of an open session.
     */
    async sessionExpiry(sessionId: string, userId: string, now: number, load: () => Promise<Date | null>): Promise<number | null> {
      if (!trusted()) return (await load())?.getTime() ?? null;
      const cached = sessions.get(sessionId);
      if (cached && cached.userId === userId && fresh(cached.at)) return cached.expiresAt > now ? cached.expiresAt : null;
      const started = generation;
      const at = deps.now();
      const expiresAt = (await load())?.getTime() ?? null;
      if (expiresAt === null) sessions.delete(sessionId);
      else if (started === generation) remember(sessions, sessionId, { userId, expiresAt, at });
      return expiresAt;
    },

    /** The session's idle deadline was pushed back (by this instance). */
    sessionExtended(sessionId: string, expiresAt: number): void {
      const cached = sessions.get(sessionId);
      if (cached) cached.expiresAt = expiresAt;
    },

    forgetSession(sessionId: string): void {
      generation += 1;
      sessions.delete(sessionId);
    },

    forgetUser(userId: string): void {
      generation += 1;
      users.delete(userId);
    },

    /** Every user of the organization (its name, its requirement of two-factor authentication). */
    forgetOrganization(organizationId: string): void {
      generation += 1;
      for (const [id, { user }] of users) if (user.organization.id === organizationId) users.delete(id);
    },

    /** Everything: changes announced meanwhile may have been missed. */
    clear(): void {
      generation += 1;
      users.clear();
      sessions.clear();
    },
  };
}

export type AccountCache = ReturnType<typeof createAccountCache>;
