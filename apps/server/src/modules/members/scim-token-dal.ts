import { randomUUID } from 'node:crypto';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { scimTokens } from '../../db/schema.ts';

export type ScimTokenRecord = typeof scimTokens.$inferSelect;

/** The only code that touches the scim_tokens table: one token per organization. */
export function createScimTokenDal(db: Database) {
  return {
    /** Puts this token in place of the organization's previous one, if any (a new id each time); whether there was one. */
    async replace(values: { organizationId: string; prefix: string; tokenHash: string; createdBy: string; createdAt: Date }) {
      return db.transaction(async (tx) => {
        const [previous] = await tx
          .select({ id: scimTokens.id })
          .from(scimTokens)
          .where(eq(scimTokens.organizationId, values.organizationId))
          .for('update');
        const fresh = { ...values, id: randomUUID(), lastUsedAt: null };
        const [row] = await tx
          .insert(scimTokens)
          .values(fresh)
          .onConflictDoUpdate({ target: scimTokens.organizationId, set: fresh })
          .returning();
        if (!row) throw new Error('Jeton SCIM non créé');
        return { record: row, replaced: previous !== undefined };
      });
    },

    /** The token of this secret's hash. */
    async byHash(tokenHash: string): Promise<ScimTokenRecord | undefined> {
      const [row] = await db.select().from(scimTokens).where(eq(scimTokens.tokenHash, tokenHash)).limit(1);
      return row;
    },

    /** Notes a use at `at`, unless one was noted since `since` (one write a minute at most, whichever instance). */
    async touch(id: string, at: Date, since: Date): Promise<void> {
      await db
        .update(scimTokens)
        .set({ lastUsedAt: at })
        .where(and(eq(scimTokens.id, id), or(isNull(scimTokens.lastUsedAt), lt(scimTokens.lastUsedAt, since))));
    },
  };
}

export type ScimTokenDal = ReturnType<typeof createScimTokenDal>;
