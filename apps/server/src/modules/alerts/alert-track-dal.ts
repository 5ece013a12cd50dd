import { and, desc, eq, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import type { Severity } from '@vigie/contract';
import type { Database } from '../../db/database.ts';
import { alertEvents, alerts, alertTracks } from '../../db/schema.ts';
import { loadAlert, nextRevision } from './alert-record-dal.ts';
import type { AlertChange, AlertRecord } from './alert-types.ts';
import { INITIAL_TRACK, type TrackState, type Transition } from './rule-evaluator.ts';

/** Dates of a track state survive the JSON column as ISO strings. */
export function serializeTrack(state: TrackState): Record<string, string | number | null> {
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
 * The rules' side of `alerts`: the track of each (rule, sensor) in `alert_tracks`, and the alerts its
 * transitions open, update and resolve. Every transition runs in one transaction with the track row
 * locked, so several server instances evaluating the same sensor still open one alert; the partial
 * unique index keeps one active alert per rule and sensor.
 */
export function createAlertTrackDal(db: Database) {
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
        const alert = await loadAlert(tx, eq(alerts.id, id));
        if (alert) closed.push(alert);
      }
      await tx.delete(alertTracks).where(tracks);
      return closed;
    });
  }

  return {
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
          const alert = await loadAlert(tx, eq(alerts.id, id));
          if (alert) changes.push({ action, alert });
        }
        return { state: step.state, changes };
      });
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
  };
}
