import { errorResponseSchema, installationKeyResponseSchema } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { OrganizationService } from '../modules/organizations/organization-service.ts';
import { currentUser } from '../plugins/authenticate.ts';

export const organizationRoutes: FastifyPluginAsyncZod<{ organizations: OrganizationService }> = async (app, { organizations }) => {
  const schema = { response: { 200: installationKeyResponseSchema, 401: errorResponseSchema } };

  app.get('/organization/installation-key', { schema }, async (request) => ({
    installationKey: await organizations.installationKey(currentUser(request).organization.id),
  }));

  /** A new key; the old one stops installing devices (devices already installed keep working). */
  app.post('/organization/installation-key', { schema }, async (request) => ({
    installationKey: await organizations.rotateInstallationKey(currentUser(request).organization.id),
  }));
};
