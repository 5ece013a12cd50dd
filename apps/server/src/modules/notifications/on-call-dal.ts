import { and, eq, gt, inArray, isNotNull, lt, sql } from 'drizzle-orm';
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

    /**
     * A new code for `number`, when fewer than `perWindow` were sent in the window that started at
     * `codesWindowStart` (a new window after `windowMs`): counted and compared in one statement,
     * so that requests sent at once cannot all pass a check made before any of them is counted.
     * The row with its new code, or undefined when the window's codes are used up.
     */
    async takeCode(
      owner: { userId: string; organizationId: string },
      code: { number: string; codeHash: string; codeExpiresAt: Date },
      limit: { perWindow: number; windowMs: number },
      now: Date,
    ): Promise<PhoneRecord | undefined> {
      const windowOver = sql`(${userPhones.codesWindowStart} is null or ${userPhones.codesWindowStart} <= ${new Date(now.getTime() - limit.windowMs)})`;
      const [row] = await db
        .insert(userPhones)
        .values({ ...owner, ...code, codeAttempts: 0, codesSent: 1, codesWindowStart: now, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({
          target: userPhones.userId,
          set: {
            ...code,
            verifiedAt: sql`case when ${userPhones.number} = ${code.number} then ${userPhones.verifiedAt} else null end`,
            codeAttempts: 0,
            codesSent: sql`case when ${windowOver} then 1 else ${userPhones.codesSent} + 1 end`,
            codesWindowStart: sql`case when ${windowOver} then ${now} else ${userPhones.codesWindowStart} end`,
            updatedAt: now,
          },
          setWhere: sql`${windowOver} or ${userPhones.codesSent} < ${limit.perWindow}`,
        })
        .returning();
      return row;
    },

    /**
     * Takes one attempt at the pending code, when it has not expired and fewer than `max` were
     * taken: counted and compared in one statement, before the code is compared. The row as it
     * is now, or undefined when no attempt is left (or no code is pending).
     */
    async takeAttempt(userId: string, max: number, now: Date): Promise<PhoneRecord | undefined> {
      const [row] = await db
        .update(userPhones)
        .set({ codeAttempts: sql`${userPhones.codeAttempts} + 1` })
        .where(
          and(
            eq(userPhones.userId, userId),
            isNotNull(userPhones.codeHash),
            gt(userPhones.codeExpiresAt, now),
            lt(userPhones.codeAttempts, max),
          ),
        )
        .returning();
      return row;
    },

    /** The code was right: the number is verified, unless another code replaced it meanwhile. */
    async confirm(userId: string, codeHash: string, now: Date): Promise<PhoneRecord | undefined> {
      const [row] = await db
        .update(userPhones)
        .set({ verifiedAt: now, codeHash: null, codeExpiresAt: null, codeAttempts: 0, updatedAt: now })
        .where(and(eq(userPhones.userId, userId), eq(userPhones.codeHash, codeHash)))
        .returning();
      return row;
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
