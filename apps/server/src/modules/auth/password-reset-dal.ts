import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { passwordResets, users } from '../../db/schema.ts';

export type PasswordResetRecord = typeof passwordResets.$inferSelect;

/** The only code that touches the password_resets table. */
export function createPasswordResetDal(db: Database) {
  return {
    /** The account that uses this address, if any (an address signs in to one account). */
    async findUser(email: string): Promise<{ id: string; organizationId: string; email: string } | undefined> {
      const [row] = await db
        .select({ id: users.id, organizationId: users.organizationId, email: users.email })
        .from(users)
        .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
        .limit(1);
      return row;
    },

    /** A new link for a user; the user's previous links, used or not, are removed by it. */
    create(input: { userId: string; tokenHash: string; createdAt: Date; expiresAt: Date }): Promise<PasswordResetRecord> {
      return db.transaction(async (tx) => {
        await tx.delete(passwordResets).where(eq(passwordResets.userId, input.userId));
        const [row] = await tx.insert(passwordResets).values(input).returning();
        if (!row) throw new Error('Lien de réinitialisation non créé');
        return row;
      });
    },

    async findByTokenHash(tokenHash: string): Promise<PasswordResetRecord | undefined> {
      const [row] = await db.select().from(passwordResets).where(eq(passwordResets.tokenHash, tokenHash)).limit(1);
      return row;
    },

    /**
     * Uses the link and sets the password in one transaction: of two uses at once, only one finds
     * it still unused. Undefined when it was not usable any more.
     */
    use(tokenHash: string, now: Date, passwordHash: string): Promise<{ userId: string; organizationId: string } | undefined> {
      return db.transaction(async (tx) => {
        const [used] = await tx
          .update(passwordResets)
          .set({ usedAt: now })
          .where(and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)))
          .returning({ userId: passwordResets.userId });
        if (!used) return undefined;
        const [user] = await tx
          .update(users)
          .set({ passwordHash })
          .where(eq(users.id, used.userId))
          .returning({ id: users.id, organizationId: users.organizationId });
        if (!user) throw new Error('Compte introuvable');
        return { userId: user.id, organizationId: user.organizationId };
      });
    },
  };
}

export type PasswordResetDal = ReturnType<typeof createPasswordResetDal>;
