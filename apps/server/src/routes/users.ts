import { currentUserResponseSchema, errorResponseSchema } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../plugins/authenticate.ts';

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/user/me', { schema: { response: { 200: currentUserResponseSchema, 401: errorResponseSchema } } }, async (request) => ({
    user: currentUser(request),
  }));
};
