import { and, eq, inArray } from 'drizzle-orm';
import type { Ladder, OnCallSlot, QuietHours } from '@vigie/contract';
import type { Database } from '../../db/database.ts';
import { siteOnCall, userPhones } from '../../db/schema.ts';

export type PhoneRecord = typeof userPhones.$inferSelect;
export type OnCallRecord = typeof siteOnCall.$inferSelect;

/** The only code that touches `user_phones` and `site_on_call`. */
export function createOnCallDal(db: Database) {
  return {
    async phone(userId: string): Promise<PhoneRecord | undefined> {
      const [row] = await db.select().from(userPhones).where(eq(userPhones.userId, userId)).limit(1);
      return row;
    },

    /** Creates or changes a person's row: only the given fields. */
    async savePhone(
      owner: { userId: string; organizationId: string },
      values: Partial<Omit<PhoneRecord, 'userId' | 'organizationId' | 'createdAt' | 'updatedAt'>>,
      now: Date,
    ): Promise<PhoneRecord> {
      const [row] = await db
        .insert(userPhones)
        .values({ ...owner, ...values, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({ target: userPhones.userId, set: { ...values, updatedAt: now } })
        .returning();
      if (!row) throw new Error('Téléphone non enregistré.');
      return row;
    },

    /** A wrong code: one more attempt counted, unless the code changed meanwhile. */
    async countAttempt(userId: string, codeHash: string): Promise<void> {
      const row = await this.phone(userId);
      if (row?.codeHash !== codeHash) return;
      await db
        .update(userPhones)
        .set({ codeAttempts: row.codeAttempts + 1 })
        .where(and(eq(userPhones.userId, userId), eq(userPhones.codeHash, codeHash)));
    },

    /** The verified numbers and the quiet hours of these people of an organization. */
    async ofUsers(
      organizationId: string,
      ids: readonly string[],
    ): Promise<{ userId: string; number: string | null; quietHours: QuietHours | null }[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .select({
          userId: userPhones.userId,
          number: userPhones.number,
          verifiedAt: userPhones.verifiedAt,
          quietHours: userPhones.quietHours,
        })
        .from(userPhones)
        .where(and(eq(userPhones.organizationId, organizationId), inArray(userPhones.userId, [...ids])));
      return rows.map((row) => ({ userId: row.userId, number: row.verifiedAt ? row.number : null, quietHours: row.quietHours }));
    },

    async rota(organizationId: string, siteId: string): Promise<OnCallRecord | undefined> {
      const [row] = await db
        .select()
        .from(siteOnCall)
        .where(and(eq(siteOnCall.organizationId, organizationId), eq(siteOnCall.siteId, siteId)))
        .limit(1);
      return row;
    },

    /** Whether any site of the organization has a rota with at least one slot. */
    async anyRota(organizationId: string): Promise<boolean> {
      const rows = await db.select({ slots: siteOnCall.slots }).from(siteOnCall).where(eq(siteOnCall.organizationId, organizationId));
      return rows.some((row) => row.slots.length > 0);
    },

    async saveRota(
      organizationId: string,
      siteId: string,
      values: { slots: OnCallSlot[]; ladder: Ladder },
      now: Date,
    ): Promise<OnCallRecord> {
      const [row] = await db
        .insert(siteOnCall)
        .values({ organizationId, siteId, ...values, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({ target: siteOnCall.siteId, set: { ...values, updatedAt: now } })
        .returning();
      if (!row) throw new Error('Astreinte non enregistrée.');
      return row;
    },
  };
}

export type OnCallDal = ReturnType<typeof createOnCallDal>;
