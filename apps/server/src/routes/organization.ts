import { errorResponseSchema, installationKeyResponseSchema } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ProvisioningService } from '../modules/telemetry/provisioning-service.ts';
import { currentUser } from '../plugins/authenticate.ts';

export const organizationRoutes: FastifyPluginAsyncZod<{ provisioning: ProvisioningService }> = async (app, { provisioning }) => {
  const schema = { response: { 200: installationKeyResponseSchema, 401: errorResponseSchema } };

  app.get('/organization/installation-key', { schema }, async (request) => ({
    installationKey: await provisioning.installationKey(currentUser(request).organization.id),
  }));

  /** A new key; the old one stops installing devices (devices already installed keep working). */
  app.post('/organization/installation-key', { schema }, async (request) => ({
    installationKey: await provisioning.rotateInstallationKey(currentUser(request).organization.id),
  }));
};
