import { randomBytes } from 'node:crypto';
import { type AlertStatus, endpoints, type NotificationPolicy, pathOf, type UpdateNotificationPolicyRequest } from '@vigie/contract';
import type { AlertRecord } from '../alerts/alert-types.ts';
import { toAlert } from '../alerts/alert-service.ts';
import { type AlertContext, alertEmail, alertPhone, alertPush, formatDuration } from './alert-message.ts';
import type { Mailer } from './mailer.ts';
import type { Database } from '../../db/database.ts';
import { createNotificationDal, type OutboxPayload, type OutboxRecord, type OutboxRow, type PolicyRecord } from './notification-dal.ts';
import { nextDueAt, type PlanPolicy, planNotifications } from './notification-plan.ts';
import { dueRungs, rungText } from './on-call-plan.ts';
import { displayPhone, type OnCallService } from './on-call-service.ts';
import { type PhoneProvider, ProviderError } from './phone-providers.ts';
import { createPushDal } from './push-dal.ts';
import { sendPush, SubscriptionGone } from './push-sender.ts';
import type { VapidKeys } from './vapid.ts';
import { checkWebhookUrl, sendWebhook } from './webhook-sender.ts';

export const DEFAULT_POLICY: PlanPolicy = {
  steps: [{ afterMinutes: 0, emails: null }],
  repeatMinutes: 60,
  reacknowledgeMinutes: 240,
};

const MAX_ATTEMPTS = 12;
const LEASE_MS = 2 * 60_000;
const BATCH = 20;
/** Messages of a batch sent at the same time. */
const SEND_CONCURRENCY = 5;
const RESOLVED_WINDOW_MS = 24 * 3600 * 1000;
/** Alerts planned per query, and queries per tick at most (the rest waits for the next tick). */
const PLAN_BATCH = 200;
const PLAN_ROUNDS = 25;
/** An alert that could not be planned is tried again after this delay. */
const PLAN_RETRY_MS = 60_000;

/** A message that has no reason to leave any more (its alert was taken into account). */
class NoLongerNeeded extends Error {}

/** 30 s, 1 min, 2 min… up to 1 h between attempts. */
export function retryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3600_000);
}

/** What is kept of a secret e-mail once it left or was given up: its subject only. */
function scrubbed(payload: OutboxPayload): OutboxPayload | undefined {
  return 'subject' in payload && payload.secret
    ? { subject: payload.subject, text: '(texte retiré : il contenait un lien secret)', secret: true }
    : undefined;
}

export interface NotifierLogger {
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/**
 * Tells people about alerts and insists until someone answers. Each clock tick plans what is due
 * for every active alert (escalation, repeat, reminder after an acknowledgement, end of alert),
 * queues it in the outbox under an idempotency key, then delivers what is due. Several instances
 * may tick together: the keys keep each message once, and claims keep each delivery to one sender.
 */
/** One e-mail that is not an alert (an invitation, a password reset), queued in the outbox. */
export interface OneEmail {
  organizationId: string;
  to: string;
  subject: string;
  text: string;
  idempotencyKey: string;
  /** The text holds a secret link: the outbox forgets it once the e-mail has left. */
  secret?: boolean;
}

/** What a service that e-mails a secret link is given: the outbox's sendEmail, secret always set. */
export type SendSecretEmail = (message: OneEmail & { secret: true }) => Promise<boolean>;

export function createNotificationService(deps: {
  db: Database;
  alerts: {
    dueForNotification(at: Date, resolvedSince: Date, limit: number): Promise<(AlertRecord & { revision: number })[]>;
    planned(alertId: string, organizationId: string, revision: number, dueAt: Date | null): Promise<void>;
    replanOrganization(organizationId: string): Promise<void>;
    appendEvent(
      alertId: string,
      event: { type: 'notified' | 'escalated' | 'called'; at: Date; userId: null; text: string },
      key: string,
    ): Promise<boolean>;
    /** An alert's status now: an SMS or a call is not made for an alert taken into account meanwhile. */
    get(organizationId: string, id: string): Promise<{ status: AlertStatus }>;
  };
  /** Phones, quiet hours and on-call rotas; without it, no ladder and no quiet hours. */
  onCall?: OnCallService;
  /** SMS and calls; null or absent when no provider is configured. */
  phone?: PhoneProvider | null;
  /** The sensor, site and rule of an alert, for the message. */
  describe(alert: AlertRecord): Promise<AlertContext>;
  /** When the pause of the alert's sensor or site ends (planned work); null when none holds it at `at`. */
  pausedUntil?: (organizationId: string, sensorId: string | null, siteId: string | null, at: Date) => Promise<Date | null>;
  /** The addresses of an organization's admins and managers whose scope holds the site. */
  teamEmails(organizationId: string, siteId: string | null): Promise<string[]>;
  /** Who is told, as people whose scope holds the site: the admins and managers (`null`), or the people of these addresses. */
  recipientIds(organizationId: string, emails: readonly string[] | null, siteId: string | null): Promise<string[]>;
  /**
   * Those of these addresses (lower-cased) that belong to members of the organization whose scope does
   * not hold the site: a step naming them tells them nothing of it. An address of no member stays.
   */
  outOfScope(organizationId: string, emails: readonly string[], siteId: string | null): Promise<ReadonlySet<string>>;
  /** The server's Web Push key pair. */
  vapid: VapidKeys;
  mailer: Mailer | null;
  allowPrivateWebhooks: boolean;
  publicUrl: string;
  now: () => Date;
  logger: NotifierLogger;
}) {
  const { now } = deps;
  const dal = createNotificationDal(deps.db);
  const pushes = createPushDal(deps.db);

  function toPolicy(record: PolicyRecord | undefined): NotificationPolicy {
    return {
      steps: record?.steps ?? DEFAULT_POLICY.steps,
      repeatMinutes: record ? record.repeatMinutes : DEFAULT_POLICY.repeatMinutes,
      reacknowledgeMinutes: record?.reacknowledgeMinutes ?? DEFAULT_POLICY.reacknowledgeMinutes,
      webhookUrl: record?.webhookUrl ?? null,
      webhookSecret: record?.webhookSecret ?? null,
      emailEnabled: deps.mailer !== null,
    };
  }

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

  interface Queued {
    plan: { key: string; timeline: { type: 'notified' | 'escalated' | 'called'; text: string } | null; always?: boolean };
    rows: OutboxRow[];
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
    const phone = due.some((rung) => rung.channel !== 'push') ? alertPhone(alert, context, { now: at, publicUrl: deps.publicUrl }) : null;
    const push = alertPush(alert, context, 'opened', { now: at, publicUrl: deps.publicUrl });
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
      deps.mailer && planned.some((p) => p.recipients === 'team') ? await deps.teamEmails(alert.organizationId, alert.siteId) : [];
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
      const rows: OutboxRow[] = [];
      if (deps.mailer) {
        const message = alertEmail(alert, context, plan.reason, { now: at, publicUrl: deps.publicUrl });
        for (const to of new Set(plan.recipients === 'team' ? team : plan.recipients)) {
          rows.push({
            organizationId: alert.organizationId,
            idempotencyKey: `${plan.key}:mail:${to.toLowerCase()}`,
            channel: 'email',
            target: to,
            payload: message,
          });
        }
      }
      const subscribed = browsers.get(plan.recipients === 'team' ? 'team' : plan.recipients.join('\n')) ?? [];
      if (subscribed.length > 0) {
        const push = alertPush(alert, context, plan.reason, { now: at, publicUrl: deps.publicUrl });
        for (const subscription of subscribed) {
          rows.push({
            organizationId: alert.organizationId,
            idempotencyKey: `${plan.key}:push:${subscription.id}`,
            channel: 'push',
            target: subscription.endpoint,
            payload: { push, subscriptionId: subscription.id, urgent: alert.severity === 'critical' },
          });
        }
      }
      if (policy.webhookUrl) {
        const body = {
          type: 'alert.notification',
          reason: plan.reason,
          deliveryId: `${plan.key}:webhook`,
          alert: toAlert(alert, context.forecast?.eta ?? null),
          sensor: { id: alert.sensorId, name: context.sensorName },
          site: alert.siteId ? { id: alert.siteId, name: context.siteName } : null,
          url: `${deps.publicUrl}/dashboard/alertes/${alert.id}`,
        };
        rows.push({
          organizationId: alert.organizationId,
          idempotencyKey: `${plan.key}:webhook`,
          channel: 'webhook',
          target: policy.webhookUrl,
          payload: { body },
        });
      }
      return { plan, rows };
    });
    return { queued: [...queued, ...(ladder?.queued ?? [])], next: ladder?.next ?? null };
  }

  /**
   * Plans the alerts that need it (never planned, changed, or due), queues what their plan says,
   * and records when each next falls due: a tick costs what changed, not what is active.
   */
  async function plan(): Promise<number> {
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
          policy = toPolicy(await dal.policy(alert.organizationId));
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
          if (deps.mailer || policy.webhookUrl || pushable || rota) {
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
  }

  async function deliver(): Promise<number> {
    let sent = 0;
    for (;;) {
      const at = now();
      const claimed = await dal.claim(at, BATCH, LEASE_MS);
      if (claimed.length === 0) return sent;
      // Several at once (each on its own connection): a storm's thousands of e-mails go out in
      // about a minute instead of one handshake after another; each still succeeds or fails alone.
      await eachAtMost(SEND_CONCURRENCY, claimed, async (message) => {
        try {
          if (message.channel === 'push') {
            if (!('push' in message.payload)) throw new Error('Notification poussée sans contenu.');
            const subscription = await pushes.byId(message.payload.subscriptionId);
            // The browser unsubscribed since: nothing to send.
            if (subscription) {
              await sendPush({
                subscription,
                message: message.payload.push,
                vapid: deps.vapid,
                allowPrivate: deps.allowPrivateWebhooks,
                urgent: message.payload.urgent,
              }).catch(async (error: unknown) => {
                if (error instanceof SubscriptionGone) await pushes.remove(subscription.id);
                throw error;
              });
            }
          } else if (message.channel === 'sms' || message.channel === 'call') {
            await sendByPhone(message);
          } else if (message.channel === 'email') {
            if (!deps.mailer) throw new Error('E-mail désactivé : SMTP_URL n’est pas défini.');
            if (!('subject' in message.payload)) throw new Error('Message sans objet.');
            await deps.mailer.send({
              to: message.target,
              subject: message.payload.subject,
              text: message.payload.text,
              idempotencyKey: message.idempotencyKey,
            });
          } else {
            if (!('body' in message.payload)) throw new Error('Webhook sans corps.');
            const policy = await dal.policy(message.organizationId);
            if (!policy?.webhookSecret) throw new Error('Webhook sans secret : enregistrez à nouveau son adresse.');
            await sendWebhook({
              url: message.target,
              secret: policy.webhookSecret,
              body: message.payload.body,
              deliveryId: message.idempotencyKey,
              allowPrivate: deps.allowPrivateWebhooks,
              now: at,
            });
          }
          await dal.markSent(message.id, now(), scrubbed(message.payload));
          sent += 1;
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          // An expired subscription, a refused number or an alert taken into account is not tried again.
          const final =
            message.attempts >= MAX_ATTEMPTS ||
            error instanceof SubscriptionGone ||
            error instanceof NoLongerNeeded ||
            (error instanceof ProviderError && !error.retry);
          const retryAt = final ? null : new Date(now().getTime() + retryDelayMs(message.attempts));
          await dal.markFailed(message.id, reason, retryAt, scrubbed(message.payload));
          await phoneOutcome(message, { failed: reason, retryAt, skipped: error instanceof NoLongerNeeded });
          deps.logger.warn(
            { channel: message.channel, key: message.idempotencyKey, attempts: message.attempts, err: reason },
            'Notification non remise',
          );
        }
      });
      if (claimed.length < BATCH) return sent;
    }
  }

  const PHONE_WORD = { sms: 'SMS', call: 'Appel' } as const;
  const inWords = (ms: number) => (ms < 60_000 ? `${Math.max(1, Math.round(ms / 1000))}\u00a0s` : formatDuration(ms));

  /** Texts or calls one rung of the ladder, unless the alert was taken into account since it was queued. */
  async function sendByPhone(message: OutboxRecord): Promise<void> {
    if (!('phone' in message.payload)) throw new Error('SMS ou appel sans contenu.');
    const { phone } = message.payload;
    const alert = await deps.alerts.get(message.organizationId, phone.alertId).catch(() => null);
    if (alert?.status !== 'open') throw new NoLongerNeeded('Alerte prise en compte ou terminée entre-temps : rien n’est envoyé.');
    if (!deps.phone || !deps.onCall)
      throw new ProviderError('Aucun fournisseur de SMS ou d’appels n’est configuré (PHONE_PROVIDER).', false);
    if (message.channel === 'sms') {
      await deps.phone.sms(message.target, phone.text);
    } else {
      if (!deps.phone.call) throw new ProviderError('Ce fournisseur n’est pas réglé pour les appels.', false);
      const token = deps.onCall.voiceToken({ organizationId: message.organizationId, alertId: phone.alertId, userId: phone.userId });
      await deps.phone.call(message.target, phone.text, `${deps.publicUrl}${pathOf(endpoints.voice.answer, { token })}`);
    }
    await phoneOutcome(message, {});
  }

  /** The timeline's line for what became of an SMS or a call: sent, failed and tried again, or given up. */
  async function phoneOutcome(
    message: OutboxRecord,
    outcome: { failed?: string; retryAt?: Date | null; skipped?: boolean },
  ): Promise<void> {
    if ((message.channel !== 'sms' && message.channel !== 'call') || !('phone' in message.payload)) return;
    const { phone } = message.payload;
    const what = `${PHONE_WORD[message.channel]} à ${phone.person}`;
    const provider = deps.phone?.name === 'vonage' ? 'Vonage' : 'Twilio';
    let text: string;
    let key: string;
    if (outcome.skipped) return;
    if (outcome.failed === undefined) {
      text = `${what} : remis à ${provider}.`;
      key = `${message.idempotencyKey}:sent`;
    } else {
      const later = outcome.retryAt ? ` Nouvel essai dans ${inWords(outcome.retryAt.getTime() - now().getTime())}.` : ' Abandonné.';
      text = `${what} : échec (${outcome.failed}).${later}`;
      key = `${message.idempotencyKey}:try${message.attempts}`;
    }
    await deps.alerts
      .appendEvent(phone.alertId, { type: 'called', at: now(), userId: null, text }, key)
      .catch((error: unknown) => deps.logger.warn({ err: error, key }, 'Chronologie : issue d’un appel non notée'));
  }

  let running: Promise<void> = Promise.resolve();
  /** The run waiting behind the one under way; later requests join it instead of queueing more. */
  let waiting: { plan: boolean; done: Promise<void> } | null = null;
  let closed = false;

  /**
   * Runs a pass (plan then deliver, or deliver only) after the one under way on this instance.
   * At most one pass waits: a burst of requests (a thousand alerts opening at once) makes one more
   * pass, not a thousand. A failure is logged, never thrown.
   */
  function requestPass(withPlan: boolean): Promise<void> {
    if (closed) return running;
    if (waiting) {
      waiting.plan ||= withPlan;
      return waiting.done;
    }
    const entry: { plan: boolean; done: Promise<void> } = { plan: withPlan, done: Promise.resolve() };
    entry.done = running.then(async () => {
      waiting = null;
      try {
        if (entry.plan) await plan();
        await deliver();
      } catch (error) {
        deps.logger.error({ err: error }, 'Notifications : tour en échec');
      }
    });
    waiting = entry;
    running = entry.done;
    return entry.done;
  }

  return {
    async getPolicy(organizationId: string): Promise<NotificationPolicy> {
      return toPolicy(await dal.policy(organizationId));
    },

    async updatePolicy(organizationId: string, changes: UpdateNotificationPolicyRequest): Promise<NotificationPolicy> {
      const current = toPolicy(await dal.policy(organizationId));
      const webhookUrl = changes.webhookUrl === undefined ? current.webhookUrl : changes.webhookUrl;
      // A new address is checked now, with the check each sending repeats: refused, nothing changes.
      if (webhookUrl !== null && webhookUrl !== current.webhookUrl) await checkWebhookUrl(webhookUrl, deps.allowPrivateWebhooks);
      // A new address gets a new secret: a receiver configured for the old one must not be fooled.
      const webhookSecret =
        webhookUrl === null
          ? null
          : webhookUrl === current.webhookUrl && current.webhookSecret
            ? current.webhookSecret
            : randomBytes(32).toString('base64url');
      const saved = toPolicy(
        await dal.savePolicy(organizationId, {
          steps: changes.steps ?? current.steps,
          repeatMinutes: changes.repeatMinutes === undefined ? current.repeatMinutes : changes.repeatMinutes,
          reacknowledgeMinutes: changes.reacknowledgeMinutes ?? current.reacknowledgeMinutes,
          webhookUrl,
          webhookSecret,
        }),
      );
      // Delays, recipients or the webhook changed: every alert of the organization is planned anew.
      await deps.alerts.replanOrganization(organizationId);
      return saved;
    },

    /** Plans then delivers; passes are serialized on this instance, and a burst of calls makes one more pass. */
    tick(): Promise<void> {
      return requestPass(true);
    },

    /**
     * Queues one e-mail (not an alert: an invitation) under its idempotency key, then delivers
     * what is due without waiting. Whichever instance claims it sends it, once. False when
     * e-mail is off (no SMTP_URL): nothing is queued.
     */
    async sendEmail(message: OneEmail): Promise<boolean> {
      if (!deps.mailer) return false;
      await dal.enqueue(
        [
          {
            organizationId: message.organizationId,
            idempotencyKey: message.idempotencyKey,
            channel: 'email',
            target: message.to,
            payload: { subject: message.subject, text: message.text, ...(message.secret ? { secret: true } : {}) },
          },
        ],
        now(),
      );
      void requestPass(false);
      return true;
    },

    outbox: (organizationId: string) => dal.list(organizationId),

    /** Waits for the tick under way, then closes the SMTP connection. */
    async close(): Promise<void> {
      closed = true;
      await running;
      deps.mailer?.close();
    },
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;

/** Runs `task` on every item, at most `limit` at a time; resolves once all are done (tasks handle their own errors). */
async function eachAtMost<T>(limit: number, items: readonly T[], task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
