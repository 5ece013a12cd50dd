import { errorResponseSchema, trashListResponseSchema } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { TrashService } from '../modules/devices/trash-service.ts';
import { currentUser } from '../plugins/authenticate.ts';

/** The trash (Corbeille): deleted devices, restorable until they are purged. */
export const trashRoutes: FastifyPluginAsyncZod<{ trash: TrashService }> = async (app, { trash }) => {
  app.get('/trash', { schema: { response: { 200: trashListResponseSchema, 401: errorResponseSchema } } }, async (request) => ({
    devices: await trash.list(currentUser(request).organization.id),
  }));
};
