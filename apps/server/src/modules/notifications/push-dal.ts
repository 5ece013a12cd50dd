import { and, count, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { pushSubscriptions } from '../../db/schema.ts';

export type PushSubscriptionRecord = typeof pushSubscriptions.$inferSelect;

/** The only code that touches `push_subscriptions`. */
export function createPushDal(db: Database) {
  return {
    /** One row per browser (its endpoint): subscribing again, as anyone, replaces it. */
    async save(values: { organizationId: string; userId: string; endpoint: string; p256dh: string; auth: string }, at: Date) {
      const [row] = await db
        .insert(pushSubscriptions)
        .values({ ...values, createdAt: at, updatedAt: at })
        .onConflictDoUpdate({
          target: pushSubscriptions.endpoint,
          set: { organizationId: values.organizationId, userId: values.userId, p256dh: values.p256dh, auth: values.auth, updatedAt: at },
        })
        .returning();
      if (!row) throw new Error('Enregistrement de l’abonnement sans résultat.');
      return row;
    },

    async removeOwn(userId: string, endpoint: string): Promise<boolean> {
      const removed = await db
        .delete(pushSubscriptions)
        .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
        .returning({ id: pushSubscriptions.id });
      return removed.length > 0;
    },

    async remove(id: string): Promise<void> {
      await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));
    },

    async byId(id: string): Promise<PushSubscriptionRecord | undefined> {
      const [row] = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, id)).limit(1);
      return row;
    },

    /** The subscriptions of these people, in their organization only. */
    async ofUsers(organizationId: string, userIds: readonly string[]): Promise<PushSubscriptionRecord[]> {
      if (userIds.length === 0) return [];
      return db
        .select()
        .from(pushSubscriptions)
        .where(and(eq(pushSubscriptions.organizationId, organizationId), inArray(pushSubscriptions.userId, [...userIds])));
    },

    async countIn(organizationId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(pushSubscriptions).where(eq(pushSubscriptions.organizationId, organizationId));
      return row?.n ?? 0;
    },
  };
}

export type PushDal = ReturnType<typeof createPushDal>;
