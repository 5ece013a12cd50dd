import { errorResponseSchema, loginRequestSchema, loginResponseSchema } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthService } from '../modules/auth/auth-service.ts';

export const authRoutes: FastifyPluginAsyncZod<{ auth: AuthService }> = async (app, { auth }) => {
  app.post(
    '/auth/login',
    {
      bodyLimit: 8 * 1024,
      schema: {
        body: loginRequestSchema,
        response: { 200: loginResponseSchema, 400: errorResponseSchema, 401: errorResponseSchema, 429: errorResponseSchema },
      },
    },
    async (request, reply) => {
      // A session token is never kept by a cache along the way.
      reply.header('cache-control', 'no-store');
      return { accessToken: await auth.login(request.body.email, request.body.password, request.ip, request.body.rememberMe ?? false) };
    },
  );
};
