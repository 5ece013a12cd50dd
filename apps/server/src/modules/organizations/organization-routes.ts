import { endpoints } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { OrganizationService } from './organization-service.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';

export const organizationRoutes: FastifyPluginAsyncZod<{ organizations: OrganizationService }> = async (app, { organizations }) => {
  // A credential: kept by no cache, the browser's included.
  app.route({
    ...route(endpoints.installationKey.get),
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { installationKey: await organizations.installationKey(currentUser(request).organization.id) };
    },
  });

  /** A new key; the old one stops installing devices (devices already installed keep working). */
  app.route({
    ...route(endpoints.installationKey.rotate),
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const organization = currentUser(request).organization;
      const installationKey = await organizations.rotateInstallationKey(organization.id);
      await request.audit('installation_key.renewed', { type: 'organization', id: organization.id, name: organization.name });
      return { installationKey };
    },
  });
};
