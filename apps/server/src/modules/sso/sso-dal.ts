import type { Role } from '@vigie/contract';
import { and, eq, gt, inArray, isNull, lt, ne, or } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { organizationSso, ssoCodes, ssoDomains, ssoLogins } from '../../db/schema.ts';

export interface SsoRow {
  organizationId: string;
  issuer: string;
  clientId: string;
  /** Sealed (secret box, bound to the organization). */
  clientSecret: string;
  defaultRole: Role;
  groupRoles: Record<string, Role>;
  enforced: boolean;
  domains: string[];
}

/** The only code that touches the single sign-on tables. */
export function createSsoDal(db: Database) {
  const settingsOf = async (organizationId: string): Promise<SsoRow | null> => {
    const [row] = await db.select().from(organizationSso).where(eq(organizationSso.organizationId, organizationId)).limit(1);
    if (!row) return null;
    const domains = await db
      .select({ domain: ssoDomains.domain })
      .from(ssoDomains)
      .where(eq(ssoDomains.organizationId, organizationId))
      .orderBy(ssoDomains.domain);
    return {
      organizationId: row.organizationId,
      issuer: row.issuer,
      clientId: row.clientId,
      clientSecret: row.clientSecret,
      defaultRole: row.defaultRole,
      groupRoles: row.groupRoles,
      enforced: row.enforced,
      domains: domains.map((d) => d.domain),
    };
  };

  return {
    settingsOf,

    /** The organization whose single sign-on covers this domain, with its settings; null when none does. */
    async settingsOfDomain(domain: string): Promise<SsoRow | null> {
      const [row] = await db
        .select({ organizationId: ssoDomains.organizationId })
        .from(ssoDomains)
        .where(eq(ssoDomains.domain, domain))
        .limit(1);
      return row ? settingsOf(row.organizationId) : null;
    },

    /** Which of these domains another organization already has. */
    async domainsTakenElsewhere(organizationId: string, domains: readonly string[]): Promise<string[]> {
      if (domains.length === 0) return [];
      const rows = await db
        .select({ domain: ssoDomains.domain })
        .from(ssoDomains)
        .where(and(inArray(ssoDomains.domain, [...domains]), ne(ssoDomains.organizationId, organizationId)));
      return rows.map((row) => row.domain);
    },

    /** Writes the settings and their domains in one transaction (a domain taken meanwhile: a unique violation). */
    async save(settings: Omit<SsoRow, 'domains'> & { domains: readonly string[] }): Promise<void> {
      const { domains, organizationId, ...values } = settings;
      await db.transaction(async (tx) => {
        await tx
          .insert(organizationSso)
          .values({ organizationId, ...values })
          .onConflictDoUpdate({ target: organizationSso.organizationId, set: { ...values, updatedAt: new Date() } });
        await tx.delete(ssoDomains).where(eq(ssoDomains.organizationId, organizationId));
        await tx.insert(ssoDomains).values(domains.map((domain) => ({ domain, organizationId })));
      });
    },

    async saveLogin(login: typeof ssoLogins.$inferInsert): Promise<void> {
      await db.insert(ssoLogins).values(login);
    },

    /** Takes a pending sign-in by its state, once, while it is valid; null otherwise. */
    async takeLogin(stateHash: string, now: Date) {
      const [row] = await db
        .update(ssoLogins)
        .set({ usedAt: now })
        .where(and(eq(ssoLogins.stateHash, stateHash), isNull(ssoLogins.usedAt), gt(ssoLogins.expiresAt, now)))
        .returning();
      return row ?? null;
    },

    async saveCode(codeHash: string, userId: string, createdAt: Date): Promise<void> {
      await db.insert(ssoCodes).values({ codeHash, userId, createdAt });
    },

    /** Takes a one-time code, once, if it was made after `since`: its user, or null. */
    async takeCode(codeHash: string, now: Date, since: Date): Promise<string | null> {
      const [row] = await db
        .update(ssoCodes)
        .set({ usedAt: now })
        .where(and(eq(ssoCodes.codeHash, codeHash), isNull(ssoCodes.usedAt), gt(ssoCodes.createdAt, since)))
        .returning({ userId: ssoCodes.userId });
      return row?.userId ?? null;
    },

    /** Forgets the sign-ins and codes that can no longer serve (ended before `before`). */
    async purge(before: Date): Promise<void> {
      await db.delete(ssoLogins).where(or(lt(ssoLogins.expiresAt, before), lt(ssoLogins.usedAt, before)));
      await db.delete(ssoCodes).where(lt(ssoCodes.createdAt, before));
    },
  };
}

export type SsoDal = ReturnType<typeof createSsoDal>;
