import { and, asc, eq, gte, isNull, lte, ne, or } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { alertRules, alerts, notificationSchedule } from '../../db/schema.ts';
import { alertColumns, ruleOf, withDates } from './alert-record-dal.ts';
import type { AlertRecord } from './alert-types.ts';

/**
 * The notifier's schedule of the alerts (`notification_schedule`): which revision of each alert it
 * planned and when its next message falls due, so that a tick reads only what changed or is due.
 */
export function createNotificationScheduleDal(db: Database) {
  return {
    /**
     * What the notifier must plan now, every organization: among the active alerts and those
     * resolved since `resolvedSince`, the ones never planned, changed since they were planned
     * (their revision moved), or whose next message is due. Oldest first, at most `limit`.
     */
    async dueForNotification(at: Date, resolvedSince: Date, limit: number): Promise<(AlertRecord & { revision: number })[]> {
      const rows = await db
        .select({ ...alertColumns, revision: alerts.revision })
        .from(alerts)
        .leftJoin(alertRules, ruleOf)
        .leftJoin(notificationSchedule, eq(notificationSchedule.alertId, alerts.id))
        .where(
          and(
            or(ne(alerts.status, 'resolved'), gte(alerts.resolvedAt, resolvedSince)),
            or(
              isNull(notificationSchedule.alertId),
              ne(notificationSchedule.revision, alerts.revision),
              lte(notificationSchedule.dueAt, at),
            ),
          ),
        )
        .orderBy(asc(alerts.openedAt), asc(alerts.id))
        .limit(limit);
      return rows.map((row) => ({ ...withDates(row), revision: row.revision }));
    },

    /** Records that the notifier planned `revision` of an alert, and when its next message is due (null: none). */
    async planned(alertId: string, organizationId: string, revision: number, dueAt: Date | null): Promise<void> {
      await db
        .insert(notificationSchedule)
        .values({ alertId, organizationId, revision, dueAt })
        .onConflictDoUpdate({ target: notificationSchedule.alertId, set: { revision, dueAt } });
    },

    /** The organization's notification policy changed: each of its alerts is planned again at the next tick. */
    async replanOrganization(organizationId: string): Promise<void> {
      await db.delete(notificationSchedule).where(eq(notificationSchedule.organizationId, organizationId));
    },
  };
}
