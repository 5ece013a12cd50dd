import { type AlertStatus, endpoints, pathOf } from '@vigie/contract';
import { formatDuration } from './alert-message.ts';
import type { OutboxRecord } from './notification-dal.ts';
import type { OnCallService } from './on-call-service.ts';
import { type PhoneProvider, ProviderError } from './phone-providers.ts';

/** A message that has no reason to leave any more (its alert was taken into account). */
export class NoLongerNeeded extends Error {}

const PHONE_WORD = { sms: 'SMS', call: 'Appel' } as const;
const inWords = (ms: number) => (ms < 60_000 ? `${Math.max(1, Math.round(ms / 1000))}\u00a0s` : formatDuration(ms));

/**
 * The outbox's SMS and calls: a rung of the on-call ladder leaves only while its alert is still
 * open, and what became of it (handed to the provider, failed, given up) goes on the alert's timeline.
 */
export function createPhoneDelivery(deps: {
  alerts: {
    appendEvent(alertId: string, event: { type: 'called'; at: Date; userId: null; text: string }, key: string): Promise<boolean>;
    /** An alert's status now: an SMS or a call is not made for an alert taken into account meanwhile. */
    get(organizationId: string, id: string): Promise<{ status: AlertStatus }>;
  };
  /** Signs the link a call's voice menu answers on; without it, no SMS and no call. */
  onCall?: Pick<OnCallService, 'voiceToken'>;
  /** SMS and calls; null or absent when no provider is configured. */
  phone?: PhoneProvider | null;
  publicUrl: string;
  now: () => Date;
  logger: { warn(obj: object, msg?: string): void };
}) {
  const { now } = deps;

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

  return {
    /** Texts or calls one rung of the ladder, unless the alert was taken into account since it was queued. */
    async sendByPhone(message: OutboxRecord): Promise<void> {
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
    },

    phoneOutcome,
  };
}

export type PhoneDelivery = ReturnType<typeof createPhoneDelivery>;
