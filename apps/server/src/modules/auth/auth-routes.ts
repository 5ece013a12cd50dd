import { endpoints } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthService } from './auth-service.ts';
import { route } from '../../plugins/endpoint-route.ts';

export const authRoutes: FastifyPluginAsyncZod<{ auth: AuthService }> = async (app, { auth }) => {
  app.route({
    ...route(endpoints.auth.login),
    bodyLimit: 8 * 1024,
    handler: async (request, reply) => {
      // A session token is never kept by a cache along the way.
      reply.header('cache-control', 'no-store');
      return auth.login(request.body.email, request.body.password, request.ip, request.body.rememberMe ?? false);
    },
  });

  /** The second step of a sign-in with two-factor authentication: the challenge of the password step and a code. */
  app.route({
    ...route(endpoints.auth.loginWithCode),
    bodyLimit: 8 * 1024,
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return auth.loginWithCode(request.body.challenge, request.body.code, request.ip);
    },
  });
};
