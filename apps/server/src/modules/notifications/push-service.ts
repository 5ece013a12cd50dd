import { type PushSubscription, type PushSubscriptionRequest, pushSubscriptionRequestSchema } from '@vigie/contract';
import type { Database } from '../../db/database.ts';
import { badRequest } from '../../errors.ts';
import { createPushDal } from './push-dal.ts';
import type { VapidKeys } from './vapid.ts';
import { resolveWebhookTarget, UnresolvedTargetError, WebhookTargetError } from './webhook-sender.ts';

/** At most this many browsers per person: a phone, a shop's tablet, a few computers. */
export const MAX_SUBSCRIPTIONS_PER_PERSON = 10;

/**
 * Web Push subscriptions: one per person and browser. The push service's address is checked as
 * a webhook's is (no loopback, no private network unless the operator allows it), here and again
 * at each sending.
 */
export function createPushService(deps: { db: Database; vapid: VapidKeys; allowPrivate: boolean; now: () => Date }) {
  const dal = createPushDal(deps.db);
  return {
    publicKey: deps.vapid.publicKey,

    async subscribe(owner: { organizationId: string; userId: string }, body: PushSubscriptionRequest): Promise<PushSubscription> {
      const input = pushSubscriptionRequestSchema.parse(body);
      try {
        await resolveWebhookTarget(new URL(input.endpoint), deps.allowPrivate);
      } catch (error) {
        // A push service's name that does not resolve from here now is kept: each sending checks
        // the address again, and refuses a private one then.
        if (error instanceof WebhookTargetError && !(error instanceof UnresolvedTargetError)) {
          throw badRequest(error.message.replaceAll('webhook', 'service de notifications'));
        }
        if (!(error instanceof WebhookTargetError)) throw error;
      }
      const mine = await dal.ofUsers(owner.organizationId, [owner.userId]);
      if (mine.length >= MAX_SUBSCRIPTIONS_PER_PERSON && !mine.some((row) => row.endpoint === input.endpoint)) {
        throw badRequest(
          `Vous recevez déjà les alertes sur ${MAX_SUBSCRIPTIONS_PER_PERSON} appareils : arrêtez-les sur l’un d’eux avant d’en ajouter un.`,
        );
      }
      const row = await dal.save({ ...owner, endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth }, deps.now());
      return { id: row.id, endpoint: row.endpoint, createdAt: row.createdAt.toISOString() };
    },

    /** True when this person's subscription of that address existed. */
    async unsubscribe(userId: string, endpoint: string): Promise<boolean> {
      return dal.removeOwn(userId, endpoint);
    },
  };
}

export type PushService = ReturnType<typeof createPushService>;
