import { endpoints } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';
import type { DigestService } from './digest-service.ts';

/** docs/api.md, Résumé quotidien: one's own choice of the morning e-mail of yesterday's alerts. */
export const digestRoutes: FastifyPluginAsyncZod<{ digests: DigestService }> = async (app, { digests }) => {
  app.route({
    ...route(endpoints.digest.get),
    handler: async (request) => ({ digest: await digests.get(currentUser(request).id) }),
  });

  app.route({
    ...route(endpoints.digest.set),
    handler: async (request) => {
      const user = currentUser(request);
      return { digest: await digests.set(user.id, user.organization.id, request.body.enabled) };
    },
  });
};
