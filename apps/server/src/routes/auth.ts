import {
  errorResponseSchema,
  loginChallengeResponseSchema,
  loginRequestSchema,
  loginResponseSchema,
  totpLoginRequestSchema,
} from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthService } from '../modules/auth/auth-service.ts';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 429: errorResponseSchema };

export const authRoutes: FastifyPluginAsyncZod<{ auth: AuthService }> = async (app, { auth }) => {
  app.post(
    '/auth/login',
    {
      bodyLimit: 8 * 1024,
      // Without two-factor authentication, the specification's `{accessToken}`; with it, the code step's challenge.
      schema: { body: loginRequestSchema, response: { 200: z.union([loginResponseSchema, loginChallengeResponseSchema]), ...errors } },
    },
    async (request, reply) => {
      // A session token is never kept by a cache along the way.
      reply.header('cache-control', 'no-store');
      return auth.login(request.body.email, request.body.password, request.ip, request.body.rememberMe ?? false);
    },
  );

  /** The second step of a sign-in with two-factor authentication: the challenge of the password step and a code. */
  app.post(
    '/auth/login/totp',
    { bodyLimit: 8 * 1024, schema: { body: totpLoginRequestSchema, response: { 200: loginResponseSchema, ...errors } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return auth.loginWithCode(request.body.challenge, request.body.code, request.ip);
    },
  );
};
