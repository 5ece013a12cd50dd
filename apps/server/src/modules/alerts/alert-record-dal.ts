import { eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { alertEvents, alertRules, alerts } from '../../db/schema.ts';
import type { AlertEventRecord, AlertRecord, PredictedLimit } from './alert-types.ts';

/*
 * How an alert is read from `alerts`, shared by the DALs of the module: its columns, with its
 * timeline and the limit of its rule beside it, and its dates revived from JSON.
 */

/** Every change of an alert's state moves its revision: the notifier plans again what moved. */
export const nextRevision = sql`${alerts.revision} + 1`;

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
/** Joins an alert to its rule (left join: the rule may be gone, or the alert have none). */
export const ruleOf = eq(alertRules.id, alerts.ruleId);
export const alertColumns = {
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

/** An alert row as read, its timeline's dates revived and its missing fields null. */
export const withDates = (row: AlertRecord): AlertRecord => ({
  ...row,
  events: row.events.map((event) => ({
    ...event,
    at: new Date(event.at),
    userId: event.userId ?? null,
    text: event.text ?? null,
    details: event.details ?? null,
  })),
});

/** One alert that `where` selects, in a transaction or not. */
export async function loadAlert(executor: Pick<Database, 'select'>, where: SQL | undefined): Promise<AlertRecord | undefined> {
  const [row] = await executor.select(alertColumns).from(alerts).leftJoin(alertRules, ruleOf).where(where).limit(1);
  return row ? withDates(row) : undefined;
}
