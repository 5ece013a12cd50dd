import { and, asc, desc, eq, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Severity } from '@vigie/contract';
import type { Database } from '../../db/database.ts';
import { alertEvents, alertRules, alerts, alertTracks } from '../../db/schema.ts';
import { alertColumns as columns, loadAlert as load, nextRevision, ruleOf, withDates } from './alert-record-dal.ts';
import { createAlertTrackDal, serializeTrack } from './alert-track-dal.ts';
import type { AlertEventRecord, AlertFilters, AlertRecord } from './alert-types.ts';
import { createNotificationScheduleDal } from './notification-schedule-dal.ts';
import type { TrackState } from './rule-evaluator.ts';

export { parseTrack } from './alert-track-dal.ts';

const LIST_LIMIT = 1000;

/**
 * The only code that touches `alerts`, `alert_events`, `alert_tracks` and `notification_schedule`
 * (it also reads, beside each alert, the limit of its rule when a « dépassement prévu »): the reads
 * and people's actions here, the rules' tracks and transitions in alert-track-dal.ts, the notifier's
 * schedule in notification-schedule-dal.ts. Every transition runs in one transaction with the track
 * row locked, so several server instances evaluating the same sensor still open one alert; the
 * partial unique index keeps one active alert per rule and sensor.
 */
export function createAlertDal(db: Database) {
  const tracks = createAlertTrackDal(db);
  const schedule = createNotificationScheduleDal(db);

  return {
    async list(organizationId: string, filters: AlertFilters): Promise<AlertRecord[]> {
      const conditions = [eq(alerts.organizationId, organizationId)];
      if (filters.status === 'active') conditions.push(inArray(alerts.status, ['open', 'acknowledged']));
      else if (filters.status) conditions.push(eq(alerts.status, filters.status));
      if (filters.sensorId) conditions.push(eq(alerts.sensorId, filters.sensorId));
      if (filters.siteId) conditions.push(eq(alerts.siteId, filters.siteId));
      const rows = await db
        .select(columns)
        .from(alerts)
        .leftJoin(alertRules, ruleOf)
        .where(and(...conditions))
        .orderBy(desc(alerts.openedAt), desc(alerts.id))
        .limit(LIST_LIMIT);
      return rows.map(withDates);
    },

    /** What the overview of the sites needs of the alerts active now or since `from`: no limit, no history. */
    async touching(organizationId: string, from: Date) {
      return db
        .select({
          siteId: alerts.siteId,
          status: alerts.status,
          key: alerts.key,
          openedAt: alerts.openedAt,
          resolvedAt: alerts.resolvedAt,
          predicted: sql<boolean>`coalesce(${alertRules.condition}->>'type' = 'predicted', false)`,
        })
        .from(alerts)
        .leftJoin(alertRules, ruleOf)
        .where(
          and(
            eq(alerts.organizationId, organizationId),
            or(inArray(alerts.status, ['open', 'acknowledged']), gte(alerts.resolvedAt, from)),
          ),
        );
    },

    /** Every alert of a sensor that was active at some point of [from, to), oldest first, without the list's limit (for reports). */
    async ofSensorDuring(organizationId: string, sensorId: string, from: Date, to: Date): Promise<AlertRecord[]> {
      const rows = await db
        .select(columns)
        .from(alerts)
        .leftJoin(alertRules, ruleOf)
        .where(
          and(
            eq(alerts.organizationId, organizationId),
            eq(alerts.sensorId, sensorId),
            lt(alerts.openedAt, to),
            or(isNull(alerts.resolvedAt), gte(alerts.resolvedAt, from)),
          ),
        )
        .orderBy(asc(alerts.openedAt), asc(alerts.id));
      return rows.map(withDates);
    },

    /** The organization's alerts active at some point of [from, to), oldest first, `limit` at most (the daily digest). */
    async ofOrganizationDuring(organizationId: string, from: Date, to: Date, limit: number): Promise<AlertRecord[]> {
      const rows = await db
        .select(columns)
        .from(alerts)
        .leftJoin(alertRules, ruleOf)
        .where(
          and(
            eq(alerts.organizationId, organizationId),
            lt(alerts.openedAt, to),
            or(isNull(alerts.resolvedAt), gte(alerts.resolvedAt, from)),
          ),
        )
        .orderBy(asc(alerts.openedAt), asc(alerts.id))
        .limit(limit);
      return rows.map(withDates);
    },

    find(organizationId: string, id: string): Promise<AlertRecord | undefined> {
      return load(db, and(eq(alerts.organizationId, organizationId), eq(alerts.id, id)));
    },

    // The rules' tracks and the alerts their transitions move (alert-track-dal.ts).
    track: tracks.track,
    pendingTracks: tracks.pendingTracks,
    transition: tracks.transition,
    // The notifier's schedule (notification-schedule-dal.ts).
    dueForNotification: schedule.dueForNotification,
    planned: schedule.planned,
    replanOrganization: schedule.replanOrganization,

    /**
     * Appends a line written by background work; the same `key` is written once. Returns the alert
     * with its new line, or undefined when that line was already written.
     */
    async appendEvent(alertId: string, event: AlertEventRecord, key: string): Promise<AlertRecord | undefined> {
      const rows = await db
        .insert(alertEvents)
        .values({ alertId, ...event, key })
        .onConflictDoNothing()
        .returning({ id: alertEvents.id });
      return rows.length > 0 ? load(db, eq(alerts.id, alertId)) : undefined;
    },

    closeActiveForRule: tracks.closeActiveForRule,
    closeActiveForSensor: tracks.closeActiveForSensor,

    /**
     * Runs `change` on an alert of the organization, locked, then appends `event` to its timeline.
     * `change` returns the columns to set, or a refusal message.
     */
    async act(
      organizationId: string,
      id: string,
      change: (alert: AlertRecord) => { set: Partial<typeof alerts.$inferInsert>; event: AlertEventRecord; resetTrack?: boolean } | string,
    ): Promise<AlertRecord | string | undefined> {
      return db.transaction(async (tx) => {
        const [locked] = await tx
          .select({ id: alerts.id })
          .from(alerts)
          .where(and(eq(alerts.organizationId, organizationId), eq(alerts.id, id)))
          .for('update');
        if (!locked) return undefined;
        const current = await load(tx, eq(alerts.id, id));
        if (!current) return undefined;
        const decision = change(current);
        if (typeof decision === 'string') return decision;
        await tx
          .update(alerts)
          .set({ ...decision.set, revision: nextRevision })
          .where(eq(alerts.id, id));
        await tx.insert(alertEvents).values({ alertId: id, ...decision.event });
        if (decision.resetTrack && current.ruleId !== null && current.sensorId !== null) {
          // Resolved by a person: the rule watches this sensor afresh (a breach still there opens a new alert).
          const idle: TrackState = { phase: 'idle', lastAt: decision.event.at, resolvedAt: null };
          await tx
            .update(alertTracks)
            .set({ state: serializeTrack(idle), updatedAt: new Date() })
            .where(and(eq(alertTracks.ruleId, current.ruleId), eq(alertTracks.sensorId, current.sensorId)));
        }
        return load(tx, eq(alerts.id, id));
      });
    },

    /**
     * Opens the one alert of a task or a process (docs/api.md, Plan de maîtrise sanitaire), with its
     * timeline's first line; an instance that comes second finds it already there and gets it back.
     */
    async openFor(target: {
      organizationId: string;
      siteId: string;
      severity: Severity;
      taskId?: string;
      processId?: string;
      at: Date;
      text: string;
    }): Promise<{ alert: AlertRecord; opened: boolean } | undefined> {
      const which = target.taskId
        ? eq(alerts.taskId, target.taskId)
        : target.processId
          ? eq(alerts.processId, target.processId)
          : undefined;
      if (!which) return undefined;
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(alerts)
          .values({
            organizationId: target.organizationId,
            ruleId: null,
            sensorId: null,
            taskId: target.taskId ?? null,
            processId: target.processId ?? null,
            siteId: target.siteId,
            status: 'open',
            severity: target.severity,
            key: null,
            openedAt: target.at,
            peak: null,
            last: null,
          })
          .onConflictDoNothing()
          .returning({ id: alerts.id });
        if (row) await tx.insert(alertEvents).values({ alertId: row.id, type: 'opened', at: target.at, text: target.text });
        const alert = await load(tx, and(eq(alerts.organizationId, target.organizationId), which));
        return alert ? { alert, opened: row !== undefined } : undefined;
      });
    },
  };
}

export type AlertDal = ReturnType<typeof createAlertDal>;
