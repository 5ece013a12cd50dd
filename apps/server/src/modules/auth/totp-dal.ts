import { and, eq, isNotNull, isNull, lt, notLike, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { recoveryCodes, users } from '../../db/schema.ts';

export interface TotpState {
  id: string;
  email: string;
  organizationId: string;
  role: string;
  secret: string | null;
  pendingSecret: string | null;
}

/** Two-factor authentication's rows: the secret on the user, recovery codes. */
export function createTotpDal(db: Database) {
  return {
    async state(userId: string): Promise<TotpState | undefined> {
      const [row] = await db
        .select({
          id: users.id,
          email: users.email,
          organizationId: users.organizationId,
          role: users.role,
          secret: users.totpSecret,
          pendingSecret: users.totpPendingSecret,
        })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1);
      return row;
    },

    /** Accounts with a secret (active or pending) not sealed with the current key, whose values start with `ownPrefix`. */
    notSealedWith(ownPrefix: string): Promise<{ id: string; secret: string | null; pendingSecret: string | null }[]> {
      const pattern = `${ownPrefix}%`;
      return db
        .select({ id: users.id, secret: users.totpSecret, pendingSecret: users.totpPendingSecret })
        .from(users)
        .where(
          or(
            and(isNotNull(users.totpSecret), notLike(users.totpSecret, pattern)),
            and(isNotNull(users.totpPendingSecret), notLike(users.totpPendingSecret, pattern)),
          ),
        );
    },

    /** Replaces a stored secret if it is still `from`; false when it changed meanwhile (another instance sealed it). */
    async replaceSecret(userId: string, which: 'secret' | 'pendingSecret', from: string, to: string): Promise<boolean> {
      const column = which === 'secret' ? users.totpSecret : users.totpPendingSecret;
      const updated = await db
        .update(users)
        .set(which === 'secret' ? { totpSecret: to } : { totpPendingSecret: to })
        .where(and(eq(users.id, userId), eq(column, from)))
        .returning({ id: users.id });
      return updated.length > 0;
    },

    async setPending(userId: string, secret: string): Promise<void> {
      await db.update(users).set({ totpPendingSecret: secret }).where(eq(users.id, userId));
    },

    /**
     * The pending secret (`pendingSecret`, as stored) becomes the account's, stored as `secret`, with
     * fresh recovery codes; false if another setup replaced it meanwhile.
     */
    enable(userId: string, pendingSecret: string, secret: string, step: number, codeHashes: string[]): Promise<boolean> {
      return db.transaction(async (tx) => {
        const updated = await tx
          .update(users)
          .set({ totpSecret: secret, totpPendingSecret: null, totpLastStep: step })
          .where(and(eq(users.id, userId), eq(users.totpPendingSecret, pendingSecret)))
          .returning({ id: users.id });
        if (updated.length === 0) return false;
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
        await tx.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
        return true;
      });
    },

    /** Ten new recovery codes replace every old one, while two-factor authentication is on; false when it is not. */
    renewRecoveryCodes(userId: string, codeHashes: string[]): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [on] = await tx
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.id, userId), isNotNull(users.totpSecret)))
          .for('update');
        if (!on) return false;
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
        await tx.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
        return true;
      });
    },

    /**
     * Records that the code of `step` was used; false when this step or a later one already was (a
     * replayed code), or when two-factor authentication was turned off or reset meanwhile.
     */
    async acceptStep(userId: string, step: number): Promise<boolean> {
      const updated = await db
        .update(users)
        .set({ totpLastStep: step })
        .where(and(eq(users.id, userId), isNotNull(users.totpSecret), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
        .returning({ id: users.id });
      return updated.length > 0;
    },

    /** Spends a recovery code; false when it is unknown or already spent (even by a request at the same moment). */
    async spendRecoveryCode(userId: string, codeHash: string, at: Date): Promise<boolean> {
      const updated = await db
        .update(recoveryCodes)
        .set({ usedAt: at })
        .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)))
        .returning({ id: recoveryCodes.id });
      return updated.length > 0;
    },

    async remainingRecoveryCodes(userId: string): Promise<number> {
      const [row] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(recoveryCodes)
        .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
      return Number(row?.count ?? 0);
    },

    disable(userId: string): Promise<void> {
      return db.transaction(async (tx) => {
        await tx.update(users).set({ totpSecret: null, totpPendingSecret: null, totpLastStep: null }).where(eq(users.id, userId));
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
      });
    },
  };
}
