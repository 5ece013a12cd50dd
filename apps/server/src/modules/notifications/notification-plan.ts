import type { AlertEventType, AlertStatus, EscalationStep } from '@vigie/contract';
import { formatDuration } from './alert-message.ts';

/** What the planner reads of an alert. */
export interface PlannedAlert {
  id: string;
  status: AlertStatus;
  resolvedAt: Date | null;
  events: { type: AlertEventType; at: Date }[];
}

export interface PlanPolicy {
  steps: EscalationStep[];
  repeatMinutes: number | null;
  reacknowledgeMinutes: number;
}

export type NotificationReason = 'opened' | 'escalated' | 'repeat' | 'reminder' | 'resolved';

/** One notification that is due; `key` is its idempotency key: the same key is never sent twice. */
export interface PlannedNotification {
  key: string;
  reason: NotificationReason;
  /** `team`: the organization's admins and managers. */
  recipients: 'team' | string[];
  /** The line to append to the alert's timeline once it is queued, if any. */
  timeline: { type: 'notified' | 'escalated'; text: string } | null;
}

/** Resolution notices are sent for this long after an alert ends; older ones are history. */
const RESOLVED_NOTICE_MS = 24 * 3600 * 1000;

/**
 * An alert that reopens soon after it was told (a door opened again, a defrost) is not told again
 * before this much time has passed since it was: a case that flaps sends two e-mails in this time
 * (the alert, then its end), not one per episode. Still open at the end of it, it is told then.
 */
export const REOPEN_QUIET_MS = 30 * 60_000;

/**
 * When the first message of the alert's latest episode is due: at its opening, or, for an episode
 * that began within REOPEN_QUIET_MS of the last one told, at the end of that quiet time. An
 * earlier episode is told when it is still open at its own due time.
 */
export function firstNoticeAt(alert: Pick<PlannedAlert, 'events'>): number | null {
  let told: number | null = null;
  let due: number | null = null;
  const events = [...alert.events].sort((a, b) => a.at.getTime() - b.at.getTime());
  events.forEach((event, index) => {
    if (event.type !== 'opened') return;
    const start = event.at.getTime();
    const end =
      events
        .slice(index + 1)
        .find((later) => later.type === 'resolved' || later.type === 'opened')
        ?.at.getTime() ?? Infinity;
    due = told === null ? start : Math.max(start, told + REOPEN_QUIET_MS);
    if (due < end) told = due;
  });
  return due;
}

const recipientsOf = (step: EscalationStep | undefined): 'team' | string[] => step?.emails ?? 'team';

function who(recipients: 'team' | string[]): string {
  return recipients === 'team' ? 'l’équipe' : recipients.join(', ');
}

/** No line when none of a step's addresses is told (all of members who do not see the alert's site). */
const line = (recipients: 'team' | string[], timeline: PlannedNotification['timeline']) =>
  recipients === 'team' || recipients.length > 0 ? timeline : null;

const duration = (minutes: number) => formatDuration(minutes * 60_000);

/**
 * Every notification due for an alert at `now`. Pure and repeatable: it is called on every clock
 * tick, by every instance, and the idempotency keys make the outbox keep each one once.
 * - Open: each escalation step once its delay has passed in this episode (an alert reopened by
 *   flap damping starts a new episode), then the first step again every `repeatMinutes` (only the
 *   latest repeat, never a burst after downtime).
 * - Acknowledged: once `reacknowledgeMinutes` after the acknowledgement, if still active.
 * - Resolved: one notice to the first step, within a day of the resolution.
 */
export function planNotifications(alert: PlannedAlert, policy: PlanPolicy, now: Date): PlannedNotification[] {
  const openings = alert.events.filter((event) => event.type === 'opened');
  const episode = openings.length;
  const start = openings.at(-1)?.at;
  if (!start || episode === 0) return [];
  const base = `alert:${alert.id}:e${episode}`;
  const first = recipientsOf(policy.steps[0]);
  const planned: PlannedNotification[] = [];

  const noticeAt = firstNoticeAt(alert) ?? start.getTime();
  if (alert.status === 'resolved') {
    // The end of an episode that was never told (it reopened and closed within the quiet time) is not told either.
    const told = alert.resolvedAt !== null && noticeAt < alert.resolvedAt.getTime();
    if (told && alert.resolvedAt && now.getTime() - alert.resolvedAt.getTime() <= RESOLVED_NOTICE_MS && alert.resolvedAt >= start) {
      planned.push({ key: `${base}:resolved`, reason: 'resolved', recipients: first, timeline: null });
    }
    return planned;
  }

  if (alert.status === 'acknowledged') {
    const acknowledged = alert.events.filter((event) => event.type === 'acknowledged').at(-1)?.at;
    if (acknowledged && now.getTime() - acknowledged.getTime() >= policy.reacknowledgeMinutes * 60_000) {
      planned.push({
        key: `alert:${alert.id}:ack${acknowledged.getTime()}:reminder`,
        reason: 'reminder',
        recipients: first,
        timeline: line(first, {
          type: 'notified',
          text: `Toujours active ${duration(policy.reacknowledgeMinutes)} après l’acquittement : ${who(first)} prévenu(e) à nouveau.`,
        }),
      });
    }
    return planned;
  }

  const elapsed = now.getTime() - start.getTime();
  policy.steps.forEach((step, index) => {
    if (elapsed < step.afterMinutes * 60_000) return;
    if (index === 0 && now.getTime() < noticeAt) return;
    const recipients = recipientsOf(step);
    planned.push({
      key: `${base}:step${index}`,
      reason: index === 0 ? 'opened' : 'escalated',
      recipients,
      timeline: line(
        recipients,
        index === 0
          ? { type: 'notified', text: `Alerte envoyée à ${who(recipients)}.` }
          : { type: 'escalated', text: `Sans acquittement depuis ${duration(step.afterMinutes)} : escalade à ${who(recipients)}.` },
      ),
    });
  });
  if (policy.repeatMinutes !== null && policy.repeatMinutes > 0) {
    const repeat = Math.floor(elapsed / (policy.repeatMinutes * 60_000));
    if (repeat >= 1) {
      planned.push({
        key: `${base}:repeat${repeat}`,
        reason: 'repeat',
        recipients: first,
        timeline: line(first, { type: 'notified', text: `Rappel : toujours sans acquittement, ${who(first)} prévenu(e) à nouveau.` }),
      });
    }
  }
  return planned;
}

/**
 * When `planNotifications` will next add a notification for this alert if nothing changes, or
 * null when it never will (resolved, or reminded already). Always after `now`: the notifier
 * looks at the alert again then, or sooner when the alert changes.
 */
export function nextDueAt(alert: PlannedAlert, policy: PlanPolicy, now: Date): Date | null {
  const start = alert.events.filter((event) => event.type === 'opened').at(-1)?.at;
  if (!start || alert.status === 'resolved') return null;

  if (alert.status === 'acknowledged') {
    const acknowledged = alert.events.filter((event) => event.type === 'acknowledged').at(-1)?.at;
    if (!acknowledged) return null;
    const reminder = acknowledged.getTime() + policy.reacknowledgeMinutes * 60_000;
    return reminder > now.getTime() ? new Date(reminder) : null;
  }

  const elapsed = now.getTime() - start.getTime();
  const upcoming: number[] = [];
  const noticeAt = firstNoticeAt(alert) ?? start.getTime();
  policy.steps.forEach((step, index) => {
    const due = Math.max(start.getTime() + step.afterMinutes * 60_000, index === 0 ? noticeAt : 0);
    if (due > now.getTime()) upcoming.push(due);
  });
  if (policy.repeatMinutes !== null && policy.repeatMinutes > 0) {
    const every = policy.repeatMinutes * 60_000;
    upcoming.push(start.getTime() + (Math.floor(Math.max(0, elapsed) / every) + 1) * every);
  }
  return upcoming.length > 0 ? new Date(Math.min(...upcoming)) : null;
}
