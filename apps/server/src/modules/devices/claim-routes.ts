import { endpoints } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ClaimingService } from './claiming-service.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';
import { siteInScope } from '../../plugins/scope.ts';

/** docs/api.md, Rattachement des appareils d'usine: a person claims a labelled factory device for their organization. */
export const claimRoutes: FastifyPluginAsyncZod<{ claiming: Pick<ClaimingService, 'claim' | 'check'> }> = async (app, { claiming }) => {
  app.route({
    ...route(endpoints.devices.claim),
    bodyLimit: 16 * 1024,
    handler: async (request, reply) => {
      const user = currentUser(request);
      // A member who sees some shops installs into one of them (the first, when none is named).
      const siteId = await siteInScope(request, request.body.siteId);
      const view = await claiming.claim({ organizationId: user.organization.id, userId: user.id }, { ...request.body, siteId }, request.ip);
      await request.audit(
        'device.claimed',
        { type: view.kind, id: view.device.id, name: view.device.name },
        { serial: view.device.serial },
      );
      return reply.code(201).send(view.kind === 'sensor' ? { sensor: view.device } : { emitter: view.device });
    },
  });

  // Step 1 of the installer: the label is checked before anything else is asked; nothing is written but the count of wrong codes.
  app.route({
    ...route(endpoints.devices.claimCheck),
    bodyLimit: 16 * 1024,
    handler: async (request) => {
      const user = currentUser(request);
      const device = await claiming.check({ organizationId: user.organization.id, userId: user.id }, request.body, request.ip);
      return { device };
    },
  });
};
