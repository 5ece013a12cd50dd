import { endpoints } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';
import type { CalibrationService } from './calibration-service.ts';

/** A certificate is base64 in JSON: 2 MB of file is about 2,7 MB of text. */
const CALIBRATION_BODY_LIMIT = 3 * 1024 * 1024;
const organizationOf = (request: Parameters<typeof currentUser>[0]) => currentUser(request).organization.id;

/** docs/api.md, Vérifications des capteurs: a sensor's verification register and its certificates. */
export const calibrationRoutes: FastifyPluginAsyncZod<{ calibrations: CalibrationService }> = async (app, { calibrations }) => {
  app.route({
    ...route(endpoints.calibrations.list),
    handler: async (request) => ({ calibrations: await calibrations.list(organizationOf(request), request.params.id) }),
  });

  app.route({
    ...route(endpoints.calibrations.create),
    bodyLimit: CALIBRATION_BODY_LIMIT,
    handler: async (request, reply) => {
      const user = currentUser(request);
      const calibration = await calibrations.create(
        user.organization.id,
        request.params.id,
        { id: user.id, name: user.name ?? user.email },
        request.body,
      );
      return reply.code(201).send({ calibration });
    },
  });

  app.route({
    ...route(endpoints.calibrations.certificate),
    handler: async (request, reply) => {
      const file = await calibrations.certificate(organizationOf(request), request.params.id, request.params.calibrationId);
      const extension = { 'application/pdf': 'pdf', 'image/png': 'png', 'image/jpeg': 'jpg' }[file.type] ?? 'bin';
      const name = file.name.replace(/[^\p{L}\p{N} ._-]+/gu, '').trim() || `certificat.${extension}`;
      return reply
        .type(file.type)
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(name)}`)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(file.bytes);
    },
  });
};
