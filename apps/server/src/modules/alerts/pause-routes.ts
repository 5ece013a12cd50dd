import { endpoints, type Pause } from '@vigie/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';
import { assertInScope, siteInScope, sitesOf, withinScope } from '../../plugins/scope.ts';
import type { PauseService } from './pause-service.ts';

/** What a pause holds, in the member's scope only (else the 404 of another organization's). */
async function pausedInScope(request: FastifyRequest, pause: Pick<Pause, 'sensorId' | 'siteId'>): Promise<void> {
  if (pause.sensorId) await assertInScope(request, 'sensor', pause.sensorId);
  else if (pause.siteId) await siteInScope(request, pause.siteId);
}

/** docs/api.md, Pauses: « Mettre en pause » a sensor or a site for planned work. */
export const pauseRoutes: FastifyPluginAsyncZod<{ pauses: PauseService }> = async (app, { pauses }) => {
  const organizationOf = (request: FastifyRequest) => currentUser(request).organization.id;

  app.route({
    ...route(endpoints.pauses.list),
    handler: async (request) => {
      // One sensor's pauses: the sensor must be in the member's scope (else the 404 of another organization's).
      if (request.query.sensorId) await assertInScope(request, 'sensor', request.query.sensorId);
      const listed = await pauses.list(organizationOf(request), request.query);
      return { pauses: withinScope(await sitesOf(request), listed, (pause) => pause.siteId) };
    },
  });

  app.route({
    ...route(endpoints.pauses.create),
    handler: async (request, reply) => {
      await pausedInScope(request, { sensorId: request.body.sensorId ?? null, siteId: request.body.siteId ?? null });
      const { pause, name } = await pauses.start(organizationOf(request), currentUser(request).id, request.body);
      await request.audit(
        'pause.started',
        { type: pause.sensorId ? 'sensor' : 'site', id: pause.sensorId ?? pause.siteId ?? '', name },
        {
          reason: pause.reason,
          until: pause.until,
        },
      );
      return reply.code(201).send({ pause });
    },
  });

  app.route({
    ...route(endpoints.pauses.end),
    handler: async (request, reply) => {
      await pausedInScope(request, await pauses.get(organizationOf(request), request.params.id));
      const pause = await pauses.end(organizationOf(request), request.params.id);
      await request.audit(
        'pause.ended',
        { type: pause.sensorId ? 'sensor' : 'site', id: pause.sensorId ?? pause.siteId ?? '', name: null },
        {
          reason: pause.reason,
        },
      );
      return reply.code(204).send(null);
    },
  });
};
