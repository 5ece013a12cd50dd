import { z } from 'zod';
import { errorResponseSchema } from '../common.ts';
import {
  pushPublicKeyResponseSchema,
  pushSubscriptionRequestSchema,
  pushSubscriptionResponseSchema,
  pushUnsubscribeRequestSchema,
} from '../push.ts';
import { endpoint, everyone, own, publicAccess } from './define.ts';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema };
const tag = 'Notifications poussées';

/** Web Push: the server's key, and each person's subscriptions, one per browser. */
export const pushEndpoints = {
  push: {
    publicKey: endpoint({
      method: 'GET',
      path: '/api/push/public-key',
      summary: 'Donne la clé publique VAPID (base64url) avec laquelle un navigateur s’abonne aux notifications poussées.',
      tag,
      access: publicAccess,
      schema: { response: { 200: pushPublicKeyResponseSchema } },
    }),
    subscribe: endpoint({
      method: 'POST',
      path: '/api/user/push-subscriptions',
      summary: 'Enregistre l’abonnement Web Push de ce navigateur pour la personne connectée : ses alertes y seront poussées.',
      description:
        'Le corps est `PushSubscription.toJSON()` du navigateur. Une adresse sur la boucle locale ou un réseau privé est refusée (400), sauf avec `WEBHOOK_ALLOW_PRIVATE=true`. Le même navigateur abonné à nouveau remplace l’abonnement d’avant.',
      tag,
      access: own(everyone),
      schema: {
        body: pushSubscriptionRequestSchema.meta({
          examples: [
            {
              endpoint: 'https://fcm.googleapis.com/fcm/send/c1KrmpTuRm…',
              expirationTime: null,
              keys: {
                p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
                auth: 'tBHItJI5svbpez7KI4CCXg',
              },
            },
          ],
        }),
        response: { 201: pushSubscriptionResponseSchema, ...errors },
      },
    }),
    unsubscribe: endpoint({
      method: 'DELETE',
      path: '/api/user/push-subscriptions',
      summary: 'Retire l’abonnement de ce navigateur (par son adresse) : plus rien n’y est poussé.',
      tag,
      access: own(everyone),
      schema: { body: pushUnsubscribeRequestSchema, response: { 204: z.null(), ...errors } },
    }),
  },
};
