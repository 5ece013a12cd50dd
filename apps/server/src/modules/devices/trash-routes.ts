import { DEVICE_KINDS, endpoints } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { TrashService } from './trash-service.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';
import { locatedInScope } from '../../plugins/scope.ts';

/** The trash (Corbeille): deleted devices, restorable until they are purged. */
export const trashRoutes: FastifyPluginAsyncZod<{ trash: TrashService }> = async (app, { trash }) => {
  app.route({
    ...route(endpoints.trash.list),
    handler: async (request) => {
      const devices = await trash.list(currentUser(request).organization.id);
      const seen = await Promise.all(
        DEVICE_KINDS.map((kind) =>
          locatedInScope(
            request,
            devices.filter((device) => device.kind === kind),
            kind,
            (device) => device.id,
          ),
        ),
      );
      const kept = new Set(seen.flat());
      return { devices: devices.filter((device) => kept.has(device)) };
    },
  });
};
