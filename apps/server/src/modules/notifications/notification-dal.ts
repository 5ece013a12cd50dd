import { and, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { notificationOutbox, notificationPolicies, type OutboxPayload } from '../../db/schema.ts';

export type { OutboxPayload };
export type PolicyRecord = typeof notificationPolicies.$inferSelect;
export type OutboxRecord = typeof notificationOutbox.$inferSelect;

export interface OutboxRow {
  organizationId: string;
  idempotencyKey: string;
  channel: 'email' | 'webhook' | 'push' | 'sms' | 'call';
  target: string;
  payload: OutboxPayload;
}

/** The only code that touches `notification_policies` and `notification_outbox`. */
export function createNotificationDal(db: Database) {
  return {
    async policy(organizationId: string): Promise<PolicyRecord | undefined> {
      const [row] = await db.select().from(notificationPolicies).where(eq(notificationPolicies.organizationId, organizationId)).limit(1);
      return row;
    },

    async savePolicy(
      organizationId: string,
      values: Omit<PolicyRecord, 'organizationId' | 'createdAt' | 'updatedAt'>,
    ): Promise<PolicyRecord> {
      const [row] = await db
        .insert(notificationPolicies)
        .values({ organizationId, ...values })
        .onConflictDoUpdate({ target: notificationPolicies.organizationId, set: { ...values, updatedAt: new Date() } })
        .returning();
      if (!row) throw new Error('Enregistrement de la politique sans résultat.');
      return row;
    },

    /** Queues messages; a key already queued is skipped. Returns the keys that were new. */
    async enqueue(rows: OutboxRow[], now: Date): Promise<Set<string>> {
      if (rows.length === 0) return new Set();
      const inserted = await db
        .insert(notificationOutbox)
        .values(rows.map((row) => ({ ...row, nextAttemptAt: now })))
        .onConflictDoNothing()
        .returning({ key: notificationOutbox.idempotencyKey });
      return new Set(inserted.map((row) => row.key));
    },

    /**
     * Claims due messages for `leaseMs`: rows locked by another instance are skipped, and a claim
     * left by a crashed instance expires, so every message is sent at least once.
     */
    async claim(now: Date, limit: number, leaseMs: number): Promise<OutboxRecord[]> {
      return db.transaction(async (tx) => {
        const due = await tx
          .select({ id: notificationOutbox.id })
          .from(notificationOutbox)
          .where(
            and(
              eq(notificationOutbox.status, 'pending'),
              lte(notificationOutbox.nextAttemptAt, now),
              or(isNull(notificationOutbox.lockedUntil), lte(notificationOutbox.lockedUntil, now)),
            ),
          )
          .orderBy(notificationOutbox.nextAttemptAt)
          .limit(limit)
          .for('update', { skipLocked: true });
        if (due.length === 0) return [];
        return tx
          .update(notificationOutbox)
          .set({ lockedUntil: new Date(now.getTime() + leaseMs), attempts: sql`${notificationOutbox.attempts} + 1` })
          .where(
            inArray(
              notificationOutbox.id,
              due.map((row) => row.id),
            ),
          )
          .returning();
      });
    },

    /** Sent; a secret e-mail keeps only its subject from now on. */
    async markSent(id: string, now: Date, scrubbed?: OutboxPayload): Promise<void> {
      await db
        .update(notificationOutbox)
        .set({ status: 'sent', sentAt: now, lockedUntil: null, lastError: null, ...(scrubbed ? { payload: scrubbed } : {}) })
        .where(eq(notificationOutbox.id, id));
    },

    /** A failed attempt: retried at `retryAt`, or given up (`failed`) when null. */
    async markFailed(id: string, error: string, retryAt: Date | null, scrubbed?: OutboxPayload): Promise<void> {
      await db
        .update(notificationOutbox)
        .set(
          retryAt
            ? { nextAttemptAt: retryAt, lockedUntil: null, lastError: error.slice(0, 500) }
            : { status: 'failed', lockedUntil: null, lastError: error.slice(0, 500), ...(scrubbed ? { payload: scrubbed } : {}) },
        )
        .where(eq(notificationOutbox.id, id));
    },

    /** Messages of an organization, newest first: for tests and the operator's view. */
    list(organizationId: string): Promise<OutboxRecord[]> {
      return db
        .select()
        .from(notificationOutbox)
        .where(eq(notificationOutbox.organizationId, organizationId))
        .orderBy(notificationOutbox.createdAt);
    },
  };
}

export type NotificationDal = ReturnType<typeof createNotificationDal>;
