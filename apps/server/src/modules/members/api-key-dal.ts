import type { MemberScope } from '@vigie/contract';
import { and, desc, eq, isNull, lt, or } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { apiKeys } from '../../db/schema.ts';

export type ApiKeyRecord = typeof apiKeys.$inferSelect;

/** The only code that touches the api_keys table. */
export function createApiKeyDal(db: Database) {
  return {
    async insert(values: {
      organizationId: string;
      name: string;
      role: 'viewer' | 'manager';
      scope: MemberScope | null;
      prefix: string;
      keyHash: string;
      createdBy: string;
      createdAt: Date;
      expiresAt: Date | null;
    }): Promise<ApiKeyRecord> {
      const [row] = await db.insert(apiKeys).values(values).returning();
      if (!row) throw new Error('Clé d’API non créée');
      return row;
    },

    /** The organization's keys not revoked, the newest first (expired ones included: they say so). */
    list(organizationId: string): Promise<ApiKeyRecord[]> {
      return db
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.organizationId, organizationId), isNull(apiKeys.revokedAt)))
        .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
    },

    /** The key of this secret's hash, revoked or not. */
    async byHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
      const [row] = await db.select().from(apiKeys).where(eq(apiKeys.keyHash, keyHash)).limit(1);
      return row;
    },

    async byId(organizationId: string, id: string): Promise<ApiKeyRecord | undefined> {
      const [row] = await db
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.organizationId, organizationId), eq(apiKeys.id, id)))
        .limit(1);
      return row;
    },

    /** Revokes a key still in force; the revoked key, or undefined when there was none to revoke. */
    async revoke(organizationId: string, id: string, at: Date): Promise<ApiKeyRecord | undefined> {
      const [row] = await db
        .update(apiKeys)
        .set({ revokedAt: at })
        .where(and(eq(apiKeys.organizationId, organizationId), eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
        .returning();
      return row;
    },

    /** Notes a use at `at`, unless one was noted since `since` (one write a minute at most, whichever instance). */
    async touch(id: string, at: Date, since: Date): Promise<void> {
      await db
        .update(apiKeys)
        .set({ lastUsedAt: at })
        .where(and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, since))));
    },
  };
}

export type ApiKeyDal = ReturnType<typeof createApiKeyDal>;
