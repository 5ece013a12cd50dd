import { endpoints } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { PasswordResetService } from './password-reset-service.ts';
import { route } from '../../plugins/endpoint-route.ts';

/**
 * « Mot de passe oublié ? », before anyone is signed in: public, outside the secured scope, and
 * throttled per address; the reset link's secret is the credential.
 */
export const passwordResetRoutes: FastifyPluginAsyncZod<{ passwordResets: PasswordResetService }> = async (app, { passwordResets }) => {
  app.route({
    ...route(endpoints.auth.requestPasswordReset),
    bodyLimit: 8 * 1024,
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return reply.code(202).send({ message: await passwordResets.request(request.body.email, request.ip) });
    },
  });

  app.route({
    ...route(endpoints.auth.confirmPasswordReset),
    bodyLimit: 8 * 1024,
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      await passwordResets.confirm(request.body, request.ip);
      return reply.code(204).send(null);
    },
  });
};
