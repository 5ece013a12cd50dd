import { endpoints } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  app.route({
    ...route(endpoints.user.me),
    handler: async (request) => {
      const user = currentUser(request);
      // An operator belongs to no client organization (docs/api.md, Opérateur).
      const operator = user.operator === true;
      return { user: { ...user, organization: operator ? null : user.organization, operator } };
    },
  });
};
