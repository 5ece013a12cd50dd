import { endpoints } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { TrashService } from './trash-service.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';

/** The trash (Corbeille): deleted devices, restorable until they are purged. */
export const trashRoutes: FastifyPluginAsyncZod<{ trash: TrashService }> = async (app, { trash }) => {
  app.route({
    ...route(endpoints.trash.list),
    handler: async (request) => ({ devices: await trash.list(currentUser(request).organization.id) }),
  });
};
