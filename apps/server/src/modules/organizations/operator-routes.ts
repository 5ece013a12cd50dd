import { endpoints } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';
import type { OperatorService } from './operator-service.ts';

/** The operator's routes (docs/api.md, Opérateur); app.ts registers them behind the operator's check (404 to anyone else). */
export const operatorRoutes: FastifyPluginAsyncZod<{ operator: OperatorService }> = async (app, { operator }) => {
  const who = (request: Parameters<typeof currentUser>[0]) => {
    const user = currentUser(request);
    return { id: user.id, name: user.name, email: user.email };
  };

  app.route({ ...route(endpoints.operator.organizations), handler: async () => ({ organizations: await operator.list() }) });

  app.route({
    ...route(endpoints.operator.createOrganization),
    handler: async (request, reply) => reply.code(201).send({ organization: await operator.create(who(request), request.body) }),
  });

  app.route({
    ...route(endpoints.operator.updateOrganization),
    handler: async (request) => ({ organization: await operator.update(who(request), request.params.id, request.body) }),
  });

  app.route({
    ...route(endpoints.operator.deleteOrganization),
    handler: async (request, reply) =>
      reply.code(202).send({ organization: await operator.scheduleErasure(who(request), request.params.id) }),
  });
};
