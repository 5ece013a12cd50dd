import { and, asc, desc, eq, gte, inArray, isNull, lt, lte, ne, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { Severity } from '@vigie/contract';
import type { Database } from '../../db/database.ts';
import { alertEvents, alertRules, alerts, alertTracks, notificationSchedule } from '../../db/schema.ts';
import type { AlertChange, AlertEventRecord, AlertFilters, AlertRecord, PredictedLimit } from './alert-types.ts';
import { INITIAL_TRACK, type TrackState, type Transition } from './rule-evaluator.ts';

const LIST_LIMIT = 1000;

/** Every change of an alert's state moves its revision: the notifier plans again what moved. */
const nextRevision = sql`${alerts.revision} + 1`;

/** Dates of a track state survive the JSON column as ISO strings. */
function serializeTrack(state: TrackState): Record<string, string | number | null> {
  const out: Record<string, string | number | null> = {};
  for (const [key, value] of Object.entries(state))
    out[key] = value instanceof Date ? value.toISOString() : (value as string | number | null);
  return out;
}

const DATE_FIELDS = new Set(['lastAt', 'since', 'openedAt', 'resolvedAt']);

export function parseTrack(raw: unknown): TrackState {
  if (!raw || typeof raw !== 'object') return INITIAL_TRACK;
  const state: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) state[key] = DATE_FIELDS.has(key) && typeof value === 'string' ? new Date(value) : value;
  return state as TrackState;
}

/**
 * The only code that touches `alerts`, `alert_events`, `alert_tracks` and `notification_schedule`
 * (it also reads, beside each alert, the limit of its rule when a « dépassement prévu »). Every transition
 * runs in one transaction with the track row locked, so several server instances evaluating the
 * same sensor still open one alert; the partial unique index keeps one active alert per rule and sensor.
 */
export function createAlertDal(db: Database) {
  const eventsOf = sql<AlertEventRecord[]>`coalesce((
      select json_agg(json_build_object('type', ${alertEvents.type}, 'at', ${alertEvents.at}, 'userId', ${alertEvents.userId}, 'text', ${alertEvents.text}, 'details', ${alertEvents.details}) order by ${alertEvents.id})
      from ${alertEvents} where ${alertEvents.alertId} = "alerts"."id"
    ), '[]'::json)`;
  // The limit of a « dépassement prévu » rule, read beside the alert through `ruleOf` (null for other
  // rules, or a rule since deleted). A join: a subquery per alert cost 36 ms for 1 000 alerts.
  const predictedOf = sql<PredictedLimit | null>`case when ${alertRules.condition}->>'type' in ('predicted_above', 'predicted_below')
      then json_build_object(
        'direction', case when ${alertRules.condition}->>'type' = 'predicted_above' then 'above' else 'below' end,
        'threshold', (${alertRules.condition}->>'threshold')::double precision)
    end`;
  const ruleOf = eq(alertRules.id, alerts.ruleId);
  const columns = {
    id: alerts.id,
    organizationId: alerts.organizationId,
    ruleId: alerts.ruleId,
    sensorId: alerts.sensorId,
    taskId: alerts.taskId,
    processId: alerts.processId,
    siteId: alerts.siteId,
    status: alerts.status,
    severity: alerts.severity,
    key: alerts.key,
    openedAt: alerts.openedAt,
    acknowledgedAt: alerts.acknowledgedAt,
    acknowledgedBy: alerts.acknowledgedBy,
    resolvedAt: alerts.resolvedAt,
    resolution: alerts.resolution,
    peak: alerts.peak,
    last: alerts.last,
    predicted: predictedOf,
    events: eventsOf,
  };

  const withDates = (row: AlertRecord): AlertRecord => ({
    ...row,
    events: row.events.map((event) => ({
      ...event,
      at: new Date(event.at),
      userId: event.userId ?? null,
      text: event.text ?? null,
      details: event.details ?? null,
    })),
  });

  async function load(executor: Pick<Database, 'select'>, where: SQL | undefined): Promise<AlertRecord | undefined> {
    const [row] = await executor.select(columns).from(alerts).leftJoin(alertRules, ruleOf).where(where).limit(1);
    return row ? withDates(row) : undefined;
  }

  /** Resolves the active alerts that `which` selects, each with a timeline line, and forgets the tracks `tracks` selects. */
  function closeActive(which: SQL | undefined, tracks: SQL | undefined, at: Date, text: string): Promise<AlertRecord[]> {
    return db.transaction(async (tx) => {
      const rows = await tx
        .update(alerts)
        .set({ status: 'resolved', resolvedAt: at, resolution: 'auto', revision: nextRevision })
        .where(and(which, inArray(alerts.status, ['open', 'acknowledged'])))
        .returning({ id: alerts.id });
      const closed: AlertRecord[] = [];
      for (const { id } of rows) {
        await tx.insert(alertEvents).values({ alertId: id, type: 'resolved', at, text });
        const alert = await load(tx, eq(alerts.id, id));
        if (alert) closed.push(alert);
      }
      await tx.delete(alertTracks).where(tracks);
      return closed;
    });
  }

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

    /** The persisted state of a rule for a sensor (the initial state when never evaluated). */
    async track(ruleId: string, sensorId: string): Promise<TrackState> {
      const [row] = await db
        .select({ state: alertTracks.state })
        .from(alertTracks)
        .where(and(eq(alertTracks.ruleId, ruleId), eq(alertTracks.sensorId, sensorId)))
        .limit(1);
      return parseTrack(row?.state);
    },

    /** Tracks waiting for their delay, for the clock: `[ruleId, sensorId]` pairs. */
    async pendingTracks(): Promise<{ ruleId: string; sensorId: string }[]> {
      return db
        .select({ ruleId: alertTracks.ruleId, sensorId: alertTracks.sensorId })
        .from(alertTracks)
        .where(sql`${alertTracks.state}->>'phase' = 'pending'`);
    },

    /**
     * Locks the track of (rule, sensor), lets `decide` compute the next state from the persisted one,
     * then stores it and carries out the transitions, all in one transaction.
     */
    async transition(
      target: { organizationId: string; ruleId: string; sensorId: string; siteId: string | null; severity: Severity; key: string | null },
      decide: (state: TrackState) => { state: TrackState; transitions: Transition[] },
    ): Promise<{ state: TrackState; changes: AlertChange[] }> {
      return db.transaction(async (tx) => {
        await tx
          .insert(alertTracks)
          .values({ ruleId: target.ruleId, sensorId: target.sensorId, state: serializeTrack(INITIAL_TRACK) })
          .onConflictDoNothing();
        const [row] = await tx
          .select({ state: alertTracks.state })
          .from(alertTracks)
          .where(and(eq(alertTracks.ruleId, target.ruleId), eq(alertTracks.sensorId, target.sensorId)))
          .for('update');
        const before = parseTrack(row?.state);
        const step = decide(before);
        await tx
          .update(alertTracks)
          .set({ state: serializeTrack(step.state), updatedAt: new Date() })
          .where(and(eq(alertTracks.ruleId, target.ruleId), eq(alertTracks.sensorId, target.sensorId)));

        const touched = new Map<string, AlertChange['action']>();
        const activeOf = and(
          eq(alerts.ruleId, target.ruleId),
          eq(alerts.sensorId, target.sensorId),
          inArray(alerts.status, ['open', 'acknowledged']),
        );
        for (const transition of step.transitions) {
          if (transition.type === 'open') {
            let id: string | undefined;
            if (transition.reopen) {
              // Flap damping: the alert that resolved itself moments ago opens again, its timeline continued.
              const [latest] = await tx
                .select({ id: alerts.id })
                .from(alerts)
                .where(and(eq(alerts.ruleId, target.ruleId), eq(alerts.sensorId, target.sensorId), eq(alerts.resolution, 'auto')))
                .orderBy(desc(alerts.resolvedAt))
                .limit(1);
              if (latest) {
                await tx
                  .update(alerts)
                  .set({
                    status: 'open',
                    resolvedAt: null,
                    resolution: null,
                    acknowledgedAt: null,
                    acknowledgedBy: null,
                    last: transition.last,
                    revision: nextRevision,
                  })
                  .where(eq(alerts.id, latest.id));
                id = latest.id;
              }
            }
            if (!id) {
              const [created] = await tx
                .insert(alerts)
                .values({
                  organizationId: target.organizationId,
                  ruleId: target.ruleId,
                  sensorId: target.sensorId,
                  siteId: target.siteId,
                  status: 'open',
                  severity: target.severity,
                  key: target.key,
                  openedAt: transition.at,
                  peak: transition.peak,
                  last: transition.last,
                })
                .returning({ id: alerts.id });
              id = created?.id;
            }
            if (id) {
              await tx.insert(alertEvents).values({
                alertId: id,
                type: 'opened',
                at: transition.at,
                text: transition.reopen ? 'Nouveau dépassement peu après le retour à la normale : l’alerte est rouverte.' : null,
              });
              touched.set(id, 'opened');
            }
          } else if (transition.type === 'update') {
            const rows = await tx
              .update(alerts)
              .set({ peak: transition.peak, last: transition.last })
              .where(activeOf)
              .returning({ id: alerts.id });
            for (const { id } of rows) if (!touched.has(id)) touched.set(id, 'updated');
          } else {
            const rows = await tx
              .update(alerts)
              .set({
                status: 'resolved',
                resolvedAt: transition.at,
                resolution: 'auto',
                last: transition.last ?? undefined,
                revision: nextRevision,
              })
              .where(activeOf)
              .returning({ id: alerts.id });
            for (const { id } of rows) {
              await tx.insert(alertEvents).values({ alertId: id, type: 'resolved', at: transition.at, text: 'Retour à la normale.' });
              touched.set(id, 'resolved');
            }
          }
        }
        const changes: AlertChange[] = [];
        for (const [id, action] of touched) {
          // A new peak or last value is announced too: a page opened on the alert would show the value at its opening.
          const alert = await load(tx, eq(alerts.id, id));
          if (alert) changes.push({ action, alert });
        }
        return { state: step.state, changes };
      });
    },

    /**
     * What the notifier must plan now, every organization: among the active alerts and those
     * resolved since `resolvedSince`, the ones never planned, changed since they were planned
     * (their revision moved), or whose next message is due. Oldest first, at most `limit`.
     */
    async dueForNotification(at: Date, resolvedSince: Date, limit: number): Promise<(AlertRecord & { revision: number })[]> {
      const rows = await db
        .select({ ...columns, revision: alerts.revision })
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

    /** Closes the active alerts of a rule that was disabled or deleted; returns them, resolved. */
    async closeActiveForRule(ruleId: string, at: Date, text: string, options: { except?: readonly string[] } = {}): Promise<AlertRecord[]> {
      // `except`: the sensors the rule still watches, whose alerts and tracks stay.
      const kept = options.except && options.except.length > 0 ? [...options.except] : null;
      return closeActive(
        and(eq(alerts.ruleId, ruleId), kept ? notInArray(alerts.sensorId, kept) : undefined),
        and(eq(alertTracks.ruleId, ruleId), kept ? notInArray(alertTracks.sensorId, kept) : undefined),
        at,
        text,
      );
    },

    /** Closes the active alerts of a device that went to the trash, and forgets its tracks; returns them, resolved. */
    closeActiveForSensor(sensorId: string, at: Date, text: string): Promise<AlertRecord[]> {
      return closeActive(eq(alerts.sensorId, sensorId), eq(alertTracks.sensorId, sensorId), at, text);
    },

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
