import { endpoints } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  app.route({ ...route(endpoints.user.me), handler: async (request) => ({ user: currentUser(request) }) });
};
