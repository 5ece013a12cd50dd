import { z } from 'zod';

/** Base64url without padding, as browsers give a subscription's keys. */
const base64url = (what: string, bytes: number) =>
  z
    .string({ error: `${what} est attendue (base64url).` })
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, { error: `${what} doit être écrite en base64url.` })
    .refine((value) => Math.floor((value.replace(/=+$/, '').length * 3) / 4) === bytes, {
      error: `${what} doit faire ${bytes} octets.`,
    });

/** The Web Push key browsers subscribe with (VAPID, RFC 8292): an uncompressed P-256 point. */
export const pushPublicKeyResponseSchema = z.object({ publicKey: z.string() });
export type PushPublicKeyResponse = z.infer<typeof pushPublicKeyResponseSchema>;

const endpointSchema = z
  .string({ error: 'L’adresse du service de notifications (endpoint) est attendue.' })
  .max(1000, { error: 'L’adresse du service de notifications est trop longue (1 000 caractères au plus).' })
  .refine(
    (value) => {
      try {
        return ['https:', 'http:'].includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    { error: 'L’adresse du service de notifications doit être une adresse http(s).' },
  );

/** A browser's subscription, as `PushSubscription.toJSON()` gives it. */
export const pushSubscriptionRequestSchema = z.strictObject({
  endpoint: endpointSchema,
  expirationTime: z.number({ error: 'expirationTime doit être un nombre ou null.' }).nullable().optional(),
  keys: z.strictObject(
    {
      p256dh: base64url('La clé p256dh', 65),
      auth: base64url('Le secret auth', 16),
    },
    { error: 'Les clés de l’abonnement sont attendues : {p256dh, auth}.' },
  ),
});
export type PushSubscriptionRequest = z.infer<typeof pushSubscriptionRequestSchema>;

export const pushUnsubscribeRequestSchema = z.strictObject({ endpoint: endpointSchema });
export type PushUnsubscribeRequest = z.infer<typeof pushUnsubscribeRequestSchema>;

export const pushSubscriptionSchema = z.object({ id: z.uuid(), endpoint: z.string(), createdAt: z.iso.datetime() });
export type PushSubscription = z.infer<typeof pushSubscriptionSchema>;
export const pushSubscriptionResponseSchema = z.object({ subscription: pushSubscriptionSchema });

/** What a pushed alert carries, decrypted by the service worker. */
export interface AlertPush {
  title: string;
  /** Names the sensor, its site and the value. */
  body: string;
  /** The alert's page. */
  url: string;
  alertId: string;
  /** One notification per alert on the screen: a repeat replaces the one before. */
  tag: string;
}
