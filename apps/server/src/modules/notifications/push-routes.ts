import { endpoints } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';
import type { PushService } from './push-service.ts';

/** The server's Web Push key: public, a browser needs it before anyone signs in to subscribe. */
export const pushPublicRoutes: FastifyPluginAsyncZod<{ push: PushService }> = async (app, { push }) => {
  app.route({
    ...route(endpoints.push.publicKey),
    handler: async () => ({ publicKey: push.publicKey }),
  });
};

/** Each person's browsers that receive their alerts (docs/api.md, Notifications poussées). */
export const pushRoutes: FastifyPluginAsyncZod<{ push: PushService }> = async (app, { push }) => {
  app.route({
    ...route(endpoints.push.subscribe),
    handler: async (request, reply) => {
      const user = currentUser(request);
      const subscription = await push.subscribe({ organizationId: user.organization.id, userId: user.id }, request.body);
      await request.audit('push.subscribed', null, { service: new URL(subscription.endpoint).host });
      return reply.code(201).send({ subscription });
    },
  });

  app.route({
    ...route(endpoints.push.unsubscribe),
    handler: async (request, reply) => {
      const user = currentUser(request);
      if (await push.unsubscribe(user.id, request.body.endpoint)) {
        await request.audit('push.unsubscribed', null, { service: new URL(request.body.endpoint).host });
      }
      return reply.code(204).send(null);
    },
  });
};
