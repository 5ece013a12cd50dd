import webpush from 'web-push';
import type { AlertPush } from '@vigie/contract';
import { postChecked } from './webhook-sender.ts';
import type { VapidKeys } from './vapid.ts';

/** How long a push service keeps a message for a browser that is off: an alert an hour old is news still. */
const TTL_SECONDS = 3600;

/** A subscription's push service no longer knows it (404, 410): it is removed. */
export class SubscriptionGone extends Error {}

/**
 * Encrypts an alert for one browser (RFC 8291, `aes128gcm`), signs the request with the server's
 * VAPID key (RFC 8292) and POSTs it to the subscription's push service, on the address checked as
 * for webhooks: loopback and private networks are refused unless the operator allows them.
 */
export async function sendPush(options: {
  subscription: { endpoint: string; p256dh: string; auth: string };
  message: AlertPush;
  vapid: VapidKeys;
  allowPrivate: boolean;
  urgent: boolean;
}): Promise<void> {
  const { subscription, vapid } = options;
  const request = webpush.generateRequestDetails(
    { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
    JSON.stringify(options.message),
    {
      vapidDetails: { subject: vapid.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
      TTL: TTL_SECONDS,
      urgency: options.urgent ? 'high' : 'normal',
      topic: options.message.tag.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 32),
      contentEncoding: 'aes128gcm',
    },
  );
  const headers: Record<string, string | number> = { 'user-agent': 'Vigie-Push/1' };
  for (const [name, value] of Object.entries(request.headers)) if (value !== undefined) headers[name] = value as string | number;
  const status = await postChecked({
    url: new URL(request.endpoint),
    headers,
    body: request.body ?? Buffer.alloc(0),
    allowPrivate: options.allowPrivate,
    silent: 'Le service de notifications n’a pas répondu à temps.',
  });
  if (status === 404 || status === 410) throw new SubscriptionGone(`Abonnement expiré : le service de notifications a répondu ${status}.`);
  if (status < 200 || status >= 300) throw new Error(`Le service de notifications a répondu ${status}.`);
}
