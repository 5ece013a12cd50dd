import {
  errorResponseSchema,
  passwordResetConfirmRequestSchema,
  passwordResetRequestedResponseSchema,
  passwordResetRequestSchema,
} from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PasswordResetService } from '../modules/auth/password-reset-service.ts';

const errors = {
  400: errorResponseSchema,
  404: errorResponseSchema,
  410: errorResponseSchema,
  429: errorResponseSchema,
};

/**
 * « Mot de passe oublié ? », before anyone is signed in: public, outside the secured scope, and
 * throttled per address; the reset link's secret is the credential.
 */
export const passwordResetRoutes: FastifyPluginAsyncZod<{ passwordResets: PasswordResetService }> = async (app, { passwordResets }) => {
  app.post(
    '/auth/password-reset',
    {
      bodyLimit: 8 * 1024,
      schema: { body: passwordResetRequestSchema, response: { 202: passwordResetRequestedResponseSchema, ...errors } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return reply.code(202).send({ message: await passwordResets.request(request.body.email, request.ip) });
    },
  );

  app.post(
    '/auth/password-reset/confirm',
    { bodyLimit: 8 * 1024, schema: { body: passwordResetConfirmRequestSchema, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      await passwordResets.confirm(request.body, request.ip);
      return reply.code(204).send(null);
    },
  );
};
