import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/database.ts';
import { organizationRoutes } from './organization-routes.ts';
import { createOrganizationService } from './organization-service.ts';

/**
 * The organizations module: organizations, their security requirement and their devices'
 * installation key. In: the database. Out: the service, the installation key's routes.
 */
export function createOrganizationsModule(options: { db: Database }) {
  const organizations = createOrganizationService({ db: options.db });
  const routes: FastifyPluginAsync = async (app) => {
    await app.register(organizationRoutes, { organizations });
  };
  return { organizations, routes, services: { organizations } };
}

export type OrganizationsModule = ReturnType<typeof createOrganizationsModule>;
