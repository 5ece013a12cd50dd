import { claimRequestSchema, claimResponseSchema, errorResponseSchema } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ClaimingService } from '../modules/claiming/claiming-service.ts';
import { currentUser } from '../plugins/authenticate.ts';

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
  429: errorResponseSchema,
};

/** docs/api.md, Rattachement des appareils d'usine: a person claims a labelled factory device for their organization. */
export const claimRoutes: FastifyPluginAsyncZod<{ claiming: Pick<ClaimingService, 'claim'> }> = async (app, { claiming }) => {
  app.post(
    '/devices/claim',
    { bodyLimit: 16 * 1024, schema: { body: claimRequestSchema, response: { 201: claimResponseSchema, ...errors } } },
    async (request, reply) => {
      const user = currentUser(request);
      const view = await claiming.claim({ organizationId: user.organization.id, userId: user.id }, request.body, request.ip);
      await request.audit(
        'device.claimed',
        { type: view.kind, id: view.device.id, name: view.device.name },
        { serial: view.device.serial },
      );
      return reply.code(201).send(view.kind === 'sensor' ? { sensor: view.device } : { emitter: view.device });
    },
  );
};
