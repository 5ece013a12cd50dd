import { endpoints } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MESSAGES } from '../errors.ts';
import { route } from './endpoint-route.ts';

export const healthRoutes: FastifyPluginAsyncZod<{ ping: () => Promise<void> }> = async (app, { ping }) => {
  // Both answer 503 while the server starts (startServer): an external broker not joined yet.
  app.route({ ...route(endpoints.health.live), handler: async () => ({ status: 'ok' as const }) });

  app.route({
    ...route(endpoints.health.ready),
    handler: async (request, reply) => {
      try {
        await ping();
        return { status: 'ok' as const };
      } catch (error) {
        request.log.warn({ err: error }, 'Base de données injoignable');
        return reply.code(503).send({ message: MESSAGES.databaseUnavailable });
      }
    },
  });
};
