import type { Mailer } from './mailer.ts';
import type { NotificationDal, OutboxPayload, OutboxRecord } from './notification-dal.ts';
import { NoLongerNeeded, type PhoneDelivery } from './phone-delivery.ts';
import { ProviderError } from './phone-providers.ts';
import type { PushDal } from './push-dal.ts';
import { sendPush, SubscriptionGone } from './push-sender.ts';
import type { VapidKeys } from './vapid.ts';
import { sendWebhook } from './webhook-sender.ts';

const MAX_ATTEMPTS = 12;
const LEASE_MS = 2 * 60_000;
const BATCH = 20;
/** Messages of a batch sent at the same time. */
const SEND_CONCURRENCY = 5;

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

/**
 * Sends what the outbox holds and is due: e-mails, webhooks and pushes here, SMS and calls through
 * the phone delivery. Each message is claimed for a lease first, so that of several instances only
 * one sends it; a failure is tried again later, up to a limit, unless it cannot succeed.
 */
export function createOutboxDelivery(deps: {
  dal: NotificationDal;
  pushes: PushDal;
  phone: PhoneDelivery;
  /** The server's Web Push key pair. */
  vapid: VapidKeys;
  mailer: Mailer | null;
  allowPrivateWebhooks: boolean;
  now: () => Date;
  logger: { warn(obj: object, msg?: string): void };
}) {
  const { dal, pushes, now } = deps;

  /** Sends one claimed message by its channel; throws when it did not leave. */
  async function send(message: OutboxRecord, at: Date): Promise<void> {
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
      await deps.phone.sendByPhone(message);
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
  }

  return {
    /** Claims and sends due messages, batch after batch, until none is left; returns how many left. */
    async deliver(): Promise<number> {
      let sent = 0;
      for (;;) {
        const at = now();
        const claimed = await dal.claim(at, BATCH, LEASE_MS);
        if (claimed.length === 0) return sent;
        // Several at once (each on its own connection): a storm's thousands of e-mails go out in
        // about a minute instead of one handshake after another; each still succeeds or fails alone.
        await eachAtMost(SEND_CONCURRENCY, claimed, async (message) => {
          try {
            await send(message, at);
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
            await deps.phone.phoneOutcome(message, { failed: reason, retryAt, skipped: error instanceof NoLongerNeeded });
            deps.logger.warn(
              { channel: message.channel, key: message.idempotencyKey, attempts: message.attempts, err: reason },
              'Notification non remise',
            );
          }
        });
        if (claimed.length < BATCH) return sent;
      }
    },
  };
}

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
