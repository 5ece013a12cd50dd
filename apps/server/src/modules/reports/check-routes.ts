import { endpoints } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';
import { siteInScope, sitesOf } from '../../plugins/scope.ts';
import type { CheckService } from './check-service.ts';

/** docs/api.md, Actions guidées et contrôles manuels: temperatures taken by hand, in the sites one sees. */
export const checkRoutes: FastifyPluginAsyncZod<{ checks: CheckService }> = async (app, { checks }) => {
  app.route({
    ...route(endpoints.checks.list),
    handler: async (request) => {
      const sites = await sitesOf(request);
      return { checks: await checks.list(currentUser(request).organization.id, sites === null ? null : [...sites], request.query) };
    },
  });

  app.route({
    ...route(endpoints.checks.create),
    handler: async (request, reply) => {
      const user = currentUser(request);
      await siteInScope(request, request.body.siteId);
      const check = await checks.create(user.organization.id, { id: user.id, name: user.name ?? user.email }, request.body);
      return reply.code(201).send({ check });
    },
  });
};
