import { endpoints } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';
import type { ApiKeyService } from './api-key-service.ts';

/** docs/api.md, Clés d’API: the organization's keys, managed by its admins (never with a key). */
export const apiKeyRoutes: FastifyPluginAsyncZod<{ apiKeys: ApiKeyService }> = async (app, { apiKeys }) => {
  app.route({
    ...route(endpoints.apiKeys.list),
    handler: async (request) => ({ apiKeys: await apiKeys.list(currentUser(request).organization.id) }),
  });

  app.route({
    ...route(endpoints.apiKeys.create),
    handler: async (request, reply) => {
      const created = await apiKeys.create(currentUser(request), request.body);
      // The trail keeps what the key may do, never its secret.
      await request.audit(
        'api_key.created',
        { type: 'api_key', id: created.id, name: created.name },
        { role: created.role, prefix: created.prefix, ...(created.expiresAt ? { expiresAt: created.expiresAt } : {}) },
      );
      return reply.code(201).send({ apiKey: created });
    },
  });

  app.route({
    ...route(endpoints.apiKeys.revoke),
    handler: async (request, reply) => {
      const revoked = await apiKeys.revoke(currentUser(request).organization.id, request.params.id);
      await request.audit('api_key.revoked', { type: 'api_key', id: revoked.id, name: revoked.name }, { prefix: revoked.prefix });
      return reply.code(204).send(null);
    },
  });
};
