import { randomBytes } from 'node:crypto';
import type { AlertStatus, NotificationPolicy, UpdateNotificationPolicyRequest } from '@vigie/contract';
import type { AlertRecord } from '../alerts/alert-types.ts';
import type { AlertContext } from './alert-message.ts';
import type { Mailer } from './mailer.ts';
import type { Database } from '../../db/database.ts';
import { createNotificationDal, type PolicyRecord } from './notification-dal.ts';
import { createNotificationPlanner, toPolicy as policyOf } from './notification-planner.ts';
import type { OnCallService } from './on-call-service.ts';
import { createOutboxDelivery } from './outbox-delivery.ts';
import { createPhoneDelivery } from './phone-delivery.ts';
import type { PhoneProvider } from './phone-providers.ts';
import { createPushDal } from './push-dal.ts';
import type { VapidKeys } from './vapid.ts';
import { checkWebhookUrl } from './webhook-sender.ts';

export { DEFAULT_POLICY } from './notification-planner.ts';
export { retryDelayMs } from './outbox-delivery.ts';

export interface NotifierLogger {
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

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

/**
 * Tells people about alerts and insists until someone answers. Each clock tick plans what is due
 * for every active alert (escalation, repeat, reminder after an acknowledgement, end of alert),
 * queues it in the outbox under an idempotency key, then delivers what is due. Several instances
 * may tick together: the keys keep each message once, and claims keep each delivery to one sender.
 *
 * Composes three jobs, each its own factory: the planner (notification-planner.ts), the outbox's
 * delivery (outbox-delivery.ts: e-mails, webhooks, pushes) and its SMS and calls (phone-delivery.ts);
 * it keeps the policy, the serialized passes and the one-off e-mails.
 */
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
  const toPolicy = (record: PolicyRecord | undefined): NotificationPolicy => policyOf(record, deps.mailer !== null);
  const planner = createNotificationPlanner({
    dal,
    pushes,
    alerts: deps.alerts,
    onCall: deps.onCall,
    describe: deps.describe,
    pausedUntil: deps.pausedUntil,
    teamEmails: deps.teamEmails,
    recipientIds: deps.recipientIds,
    outOfScope: deps.outOfScope,
    emailEnabled: deps.mailer !== null,
    publicUrl: deps.publicUrl,
    now,
    logger: deps.logger,
  });
  const phone = createPhoneDelivery({
    alerts: deps.alerts,
    onCall: deps.onCall,
    phone: deps.phone,
    publicUrl: deps.publicUrl,
    now,
    logger: deps.logger,
  });
  const outbox = createOutboxDelivery({
    dal,
    pushes,
    phone,
    vapid: deps.vapid,
    mailer: deps.mailer,
    allowPrivateWebhooks: deps.allowPrivateWebhooks,
    now,
    logger: deps.logger,
  });

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
        if (entry.plan) await planner.plan();
        await outbox.deliver();
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
