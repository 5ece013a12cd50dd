import { endpoints } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../errors.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';
import type { OnCallService } from './on-call-service.ts';
import { spokenAnswer } from './phone-providers.ts';

/** Each person's phone and quiet hours, and each site's rota (docs/api.md, Astreinte, SMS et appels). */
export const onCallRoutes: FastifyPluginAsyncZod<{ onCall: OnCallService }> = async (app, { onCall }) => {
  const owner = (request: Parameters<typeof currentUser>[0]) => {
    const user = currentUser(request);
    return { userId: user.id, organizationId: user.organization.id };
  };

  app.route({ ...route(endpoints.phone.get), handler: async (request) => onCall.mine(currentUser(request).id) });

  app.route({ ...route(endpoints.phone.set), handler: async (request) => onCall.setPhone(owner(request), request.body.phone) });

  app.route({
    ...route(endpoints.phone.verify),
    handler: async (request) => {
      const phone = await onCall.verify(currentUser(request).id, request.body.code);
      await request.audit('phone.verified', null, { number: phone.phone?.display ?? null });
      return phone;
    },
  });

  app.route({
    ...route(endpoints.phone.remove),
    handler: async (request, reply) => {
      if (await onCall.removePhone(owner(request))) await request.audit('phone.removed');
      return reply.code(204).send(null);
    },
  });

  app.route({
    ...route(endpoints.phone.quietHours),
    handler: async (request) => onCall.setQuietHours(owner(request), request.body.quietHours),
  });

  app.route({
    ...route(endpoints.onCall.get),
    handler: async (request) => onCall.rota(currentUser(request).organization.id, request.params.id),
  });

  app.route({
    ...route(endpoints.onCall.update),
    handler: async (request) => {
      const organizationId = currentUser(request).organization.id;
      const saved = await onCall.setRota(organizationId, request.params.id, request.body);
      await request.audit(
        'on_call.updated',
        { type: 'site', id: request.params.id, name: null },
        { slots: saved.onCall.slots.length, ladder: saved.onCall.ladder },
      );
      return saved;
    },
  });
};

/**
 * Where a voice provider posts the key the person pressed: Twilio as a form (`Digits`), answered
 * in TwiML; Vonage as JSON (`dtmf.digits`), answered in NCCO. « 1 » takes the alert into account in
 * the called person's name, as from the page, and is filed in the audit trail.
 */
export const voiceRoutes: FastifyPluginAsyncZod<{
  onCall: OnCallService;
  acknowledge(organizationId: string, alertId: string, userId: string, comment: string): Promise<{ id: string }>;
  audited(userId: string, ip: string, alertId: string): Promise<void>;
}> = async (app, { onCall, acknowledge, audited }) => {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16_384 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  app.route({
    ...route(endpoints.voice.answer),
    handler: async (request, reply) => {
      const form = String(request.headers['content-type'] ?? '').includes('x-www-form-urlencoded');
      const say = (words: string) => {
        const answer = spokenAnswer(form ? 'twilio' : 'vonage', words);
        return reply.code(200).type(answer.type).send(answer.body);
      };
      const claims = onCall.readVoiceToken(request.params.token);
      if (!claims) return say('Ce lien d’appel a expiré. Ouvrez Vigie pour prendre l’alerte en compte.');
      const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<string, unknown>;
      const dtmf = body['dtmf'];
      const digits = form
        ? body['Digits']
        : typeof dtmf === 'object' && dtmf !== null
          ? (dtmf as Record<string, unknown>)['digits']
          : undefined;
      if (digits !== '1') return say('Aucune prise en compte : l’alerte reste ouverte. Au revoir.');
      try {
        await acknowledge(claims.organizationId, claims.alertId, claims.userId, 'Prise en compte par téléphone (touche 1).');
      } catch (error) {
        if (error instanceof AppError && error.statusCode < 500) return say('Cette alerte est déjà prise en compte ou terminée. Merci.');
        throw error;
      }
      await audited(claims.userId, request.ip, claims.alertId);
      return say('Alerte prise en compte. Merci.');
    },
  });
};
