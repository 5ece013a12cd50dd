import type { NotificationPolicy } from '@vigie/contract';
import type { AlertRecord } from '../alerts/alert-types.ts';
import { toAlert } from '../alerts/alert-service.ts';
import { type AlertContext, alertEmail, alertPhone, alertPush } from './alert-message.ts';
import type { NotificationDal, OutboxRow, PolicyRecord } from './notification-dal.ts';
import { nextDueAt, type PlannedNotification, type PlanPolicy, planNotifications } from './notification-plan.ts';
import { dueRungs, rungText } from './on-call-plan.ts';
import { displayPhone, type OnCallService } from './on-call-service.ts';
import type { PushDal, PushSubscriptionRecord } from './push-dal.ts';

export const DEFAULT_POLICY: PlanPolicy = {
  steps: [{ afterMinutes: 0, emails: null }],
  repeatMinutes: 60,
  reacknowledgeMinutes: 240,
};

const RESOLVED_WINDOW_MS = 24 * 3600 * 1000;
/** Alerts planned per query, and queries per tick at most (the rest waits for the next tick). */
const PLAN_BATCH = 200;
const PLAN_ROUNDS = 25;
/** An alert that could not be planned is tried again after this delay. */
const PLAN_RETRY_MS = 60_000;

/** An organization's policy as stored, or the default one when it never saved any. */
export function toPolicy(record: PolicyRecord | undefined, emailEnabled: boolean): NotificationPolicy {
  return {
    steps: record?.steps ?? DEFAULT_POLICY.steps,
    repeatMinutes: record ? record.repeatMinutes : DEFAULT_POLICY.repeatMinutes,
    reacknowledgeMinutes: record?.reacknowledgeMinutes ?? DEFAULT_POLICY.reacknowledgeMinutes,
    webhookUrl: record?.webhookUrl ?? null,
    webhookSecret: record?.webhookSecret ?? null,
    emailEnabled,
  };
}

/** One step of a plan or one rung of the ladder, with the outbox rows it queues. */
interface Queued {
  plan: { key: string; timeline: { type: 'notified' | 'escalated' | 'called'; text: string } | null; always?: boolean };
  rows: OutboxRow[];
}

/** The outbox rows of one planned step: its e-mails, its browsers' pushes and the webhook's call. */
function stepRows(
  alert: AlertRecord,
  context: AlertContext,
  plan: PlannedNotification,
  to: { emails: readonly string[] | null; browsers: readonly PushSubscriptionRecord[]; webhookUrl: string | null },
  at: Date,
  publicUrl: string,
): OutboxRow[] {
  const rows: OutboxRow[] = [];
  if (to.emails) {
    const message = alertEmail(alert, context, plan.reason, { now: at, publicUrl });
    for (const email of new Set(to.emails)) {
      rows.push({
        organizationId: alert.organizationId,
        idempotencyKey: `${plan.key}:mail:${email.toLowerCase()}`,
        channel: 'email',
        target: email,
        payload: message,
      });
    }
  }
  if (to.browsers.length > 0) {
    const push = alertPush(alert, context, plan.reason, { now: at, publicUrl });
    for (const subscription of to.browsers) {
      rows.push({
        organizationId: alert.organizationId,
        idempotencyKey: `${plan.key}:push:${subscription.id}`,
        channel: 'push',
        target: subscription.endpoint,
        payload: { push, subscriptionId: subscription.id, urgent: alert.severity === 'critical' },
      });
    }
  }
  if (to.webhookUrl) {
    const body = {
      type: 'alert.notification',
      reason: plan.reason,
      deliveryId: `${plan.key}:webhook`,
      alert: toAlert(alert, context.forecast?.eta ?? null),
      sensor: { id: alert.sensorId, name: context.sensorName },
      site: alert.siteId ? { id: alert.siteId, name: context.siteName } : null,
      url: `${publicUrl}/dashboard/alertes/${alert.id}`,
    };
    rows.push({
      organizationId: alert.organizationId,
      idempotencyKey: `${plan.key}:webhook`,
      channel: 'webhook',
      target: to.webhookUrl,
      payload: { body },
    });
  }
  return rows;
}

/**
 * Decides who is told of which alert and when: each pass plans the alerts that need it (escalation,
 * repeat, reminder after an acknowledgement, end of alert, the on-call ladder), queues what is due
 * in the outbox under idempotency keys, and records when each alert next falls due.
 */
export function createNotificationPlanner(deps: {
  dal: NotificationDal;
  pushes: PushDal;
  alerts: {
    dueForNotification(at: Date, resolvedSince: Date, limit: number): Promise<(AlertRecord & { revision: number })[]>;
    planned(alertId: string, organizationId: string, revision: number, dueAt: Date | null): Promise<void>;
    appendEvent(
      alertId: string,
      event: { type: 'notified' | 'escalated' | 'called'; at: Date; userId: null; text: string },
      key: string,
    ): Promise<boolean>;
  };
  /** Phones, quiet hours and on-call rotas; without it, no ladder and no quiet hours. */
  onCall?: OnCallService;
  /** The sensor, site and rule of an alert, for the message. */
  describe(alert: AlertRecord): Promise<AlertContext>;
  /** When the pause of the alert's sensor or site ends (planned work); null when none holds it at `at`. */
  pausedUntil?: (organizationId: string, sensorId: string | null, siteId: string | null, at: Date) => Promise<Date | null>;
  /** The addresses of an organization's admins and managers whose scope holds the site. */
  teamEmails(organizationId: string, siteId: string | null): Promise<string[]>;
  /** Who is told, as people whose scope holds the site: the admins and managers (`null`), or the people of these addresses. */
  recipientIds(organizationId: string, emails: readonly string[] | null, siteId: string | null): Promise<string[]>;
  /** Those of these addresses (lower-cased) that belong to members of the organization whose scope does not hold the site. */
  outOfScope(organizationId: string, emails: readonly string[], siteId: string | null): Promise<ReadonlySet<string>>;
  /** Whether e-mail is on (SMTP_URL): without it, no e-mail is queued. */
  emailEnabled: boolean;
  publicUrl: string;
  now: () => Date;
  logger: { error(obj: object, msg?: string): void };
}) {
  const { dal, pushes, now, publicUrl } = deps;

  /** The browsers of the people a step tells (their push subscriptions). */
  async function subscriptionsFor(organizationId: string, recipients: 'team' | string[], siteId: string | null) {
    const ids = await deps.recipientIds(organizationId, recipients === 'team' ? null : recipients, siteId);
    return pushes.ofUsers(organizationId, ids);
  }

  /**
   * The policy as seen from an alert's site: each step's addresses without those of members who do
   * not see the site, as if it were another organization's (an outside contractor's address stays).
   */
  async function policyForSite(alert: AlertRecord, policy: NotificationPolicy): Promise<NotificationPolicy> {
    const barred = await deps.outOfScope(
      alert.organizationId,
      [...new Set(policy.steps.flatMap((step) => step.emails ?? []))],
      alert.siteId,
    );
    if (barred.size === 0) return policy;
    const steps = policy.steps.map((step) =>
      step.emails ? { ...step, emails: step.emails.filter((email) => !barred.has(email.toLowerCase())) } : step,
    );
    return { ...policy, steps };
  }

  /**
   * The on-call ladder of a critical alert of a site with a rota: who was on call when it opened,
   * and the rungs due now (push, SMS, call, next person). Null when no ladder applies.
   */
  async function ladderFor(onCall: OnCallService, alert: AlertRecord, context: AlertContext, at: Date) {
    const start = alert.events.filter((event) => event.type === 'opened').at(-1)?.at;
    if (alert.severity !== 'critical' || !alert.siteId || !start) return null;
    const rota = await onCall.onCallAt(alert.organizationId, alert.siteId, start, context.timezone);
    if (rota.people.length === 0) return null;
    const { due, next } = dueRungs(alert, rota.people, rota.ladder, onCall.channels, at);
    const phone = due.some((rung) => rung.channel !== 'push') ? alertPhone(alert, context, { now: at, publicUrl }) : null;
    const push = alertPush(alert, context, 'opened', { now: at, publicUrl });
    const queued: Queued[] = [];
    for (const rung of due) {
      const rows: OutboxRow[] = [];
      let text = rungText(rung, displayPhone);
      if (rung.channel === 'push') {
        const browsers = await pushes.ofUsers(alert.organizationId, [rung.person.id]);
        if (browsers.length === 0) text = `Astreinte : ${rung.person.name} ne reçoit les notifications sur aucun appareil.`;
        for (const subscription of browsers) {
          rows.push({
            organizationId: alert.organizationId,
            idempotencyKey: `${rung.key}:${subscription.id}`,
            channel: 'push',
            target: subscription.endpoint,
            payload: { push, subscriptionId: subscription.id, urgent: true },
          });
        }
      } else if (rung.person.phone && phone) {
        rows.push({
          organizationId: alert.organizationId,
          idempotencyKey: rung.key,
          channel: rung.channel,
          target: rung.person.phone,
          payload: {
            phone: {
              text: rung.channel === 'sms' ? phone.sms : phone.call,
              alertId: alert.id,
              userId: rung.person.id,
              person: rung.person.name,
            },
          },
        });
      }
      queued.push({ plan: { key: rung.key, timeline: { type: 'called', text }, always: true }, rows });
    }
    return { queued, next };
  }

  async function rowsFor(
    alert: AlertRecord,
    policy: NotificationPolicy,
    at: Date,
    pushing: boolean,
    rotas: boolean,
  ): Promise<{ queued: Queued[]; next: Date | null }> {
    let planned = planNotifications(alert, policy, at);
    // Planned again when a step names addresses: those of members who do not see the site leave it.
    if (planned.some((p) => p.recipients !== 'team')) planned = planNotifications(alert, await policyForSite(alert, policy), at);
    const mayClimb = rotas && alert.severity === 'critical' && alert.siteId !== null && alert.status === 'open';
    if (planned.length === 0 && !mayClimb) return { queued: [], next: null };
    const context = await deps.describe(alert);
    const ladder = mayClimb && deps.onCall ? await ladderFor(deps.onCall, alert, context, at) : null;
    // With someone on call, the ladder decides whose phone rings: the policy's pushes are left out.
    const pushingPolicy = pushing && !ladder;
    // Quiet hours: a warning is not pushed to those resting; a critical alert always is.
    const resting = async (ids: string[]) =>
      alert.severity === 'critical' || !deps.onCall
        ? new Set<string>()
        : deps.onCall.quiet(alert.organizationId, ids, at, context.timezone);
    const team =
      deps.emailEnabled && planned.some((p) => p.recipients === 'team') ? await deps.teamEmails(alert.organizationId, alert.siteId) : [];
    const browsers = new Map<string, Awaited<ReturnType<typeof subscriptionsFor>>>();
    for (const { recipients } of pushingPolicy ? planned : []) {
      const key = recipients === 'team' ? 'team' : recipients.join('\n');
      if (browsers.has(key)) continue;
      const found = await subscriptionsFor(alert.organizationId, recipients, alert.siteId);
      const quiet = await resting([...new Set(found.map((row) => row.userId))]);
      browsers.set(
        key,
        found.filter((row) => !quiet.has(row.userId)),
      );
    }
    const queued = planned.map((plan) => {
      const to = {
        emails: deps.emailEnabled ? (plan.recipients === 'team' ? team : plan.recipients) : null,
        browsers: browsers.get(plan.recipients === 'team' ? 'team' : plan.recipients.join('\n')) ?? [],
        webhookUrl: policy.webhookUrl,
      };
      return { plan, rows: stepRows(alert, context, plan, to, at, publicUrl) };
    });
    return { queued: [...queued, ...(ladder?.queued ?? [])], next: ladder?.next ?? null };
  }

  return {
    /**
     * Plans the alerts that need it (never planned, changed, or due), queues what their plan says,
     * and records when each next falls due: a tick costs what changed, not what is active.
     */
    async plan(): Promise<number> {
      const at = now();
      const resolvedSince = new Date(at.getTime() - RESOLVED_WINDOW_MS);
      const policies = new Map<string, NotificationPolicy>();
      /** Whether anyone in the organization receives pushes, read once a pass. */
      const pushing = new Map<string, boolean>();
      /** Whether a site of the organization has an on-call rota, read once a pass. */
      const rotas = new Map<string, boolean>();
      let queued = 0;
      for (let round = 0; round < PLAN_ROUNDS; round += 1) {
        const due = await deps.alerts.dueForNotification(at, resolvedSince, PLAN_BATCH);
        for (const alert of due) {
          let policy = policies.get(alert.organizationId);
          if (!policy) {
            policy = toPolicy(await dal.policy(alert.organizationId), deps.emailEnabled);
            policies.set(alert.organizationId, policy);
          }
          let dueAt: Date | null;
          try {
            // Planned work: nothing is told while the pause lasts; an alert still active when it ends
            // is planned then, and what is due by then leaves at once. One that closed meanwhile is not told.
            const paused = await deps.pausedUntil?.(alert.organizationId, alert.sensorId, alert.siteId, at);
            if (paused) {
              await deps.alerts.planned(alert.id, alert.organizationId, alert.revision, alert.status === 'resolved' ? null : paused);
              continue;
            }
            let pushable = pushing.get(alert.organizationId);
            if (pushable === undefined) {
              pushable = (await pushes.countIn(alert.organizationId)) > 0;
              pushing.set(alert.organizationId, pushable);
            }
            let rota = rotas.get(alert.organizationId);
            if (rota === undefined) {
              rota = (await deps.onCall?.anyRota(alert.organizationId)) ?? false;
              rotas.set(alert.organizationId, rota);
            }
            dueAt = nextDueAt(alert, policy, at);
            // No e-mail, no webhook, no browser subscribed and no rota: nothing could be queued, so nothing is described.
            if (deps.emailEnabled || policy.webhookUrl || pushable || rota) {
              const { queued: entries, next } = await rowsFor(alert, policy, at, pushable, rota);
              for (const { plan: planned, rows } of entries) {
                const fresh = await dal.enqueue(rows, at);
                queued += fresh.size;
                // The timeline says who was told, once, as soon as something was queued for this step
                // (a rung of the ladder is written even when the person could not be reached).
                if (planned.timeline && (fresh.size > 0 || planned.always)) {
                  await deps.alerts.appendEvent(alert.id, { ...planned.timeline, at, userId: null }, planned.key);
                }
              }
              if (next && (!dueAt || next < dueAt)) dueAt = next;
            }
          } catch (error) {
            // One alert that cannot be planned must not hold back the others: it is tried again later.
            deps.logger.error({ err: error, alertId: alert.id }, 'Notifications : alerte non planifiée');
            dueAt = new Date(at.getTime() + PLAN_RETRY_MS);
          }
          await deps.alerts.planned(alert.id, alert.organizationId, alert.revision, dueAt);
        }
        if (due.length < PLAN_BATCH) break;
      }
      return queued;
    },
  };
}
