import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/database.ts';
import { siteRoutes } from './site-routes.ts';
import { createSiteService } from './site-service.ts';

/**
 * The sites module: an organization's shops and their opening hours; it keeps the sites.
 * In: how many devices a site holds (the devices module's) and what must go before a site does
 * (its alert rules, the alerts module's; called at run time). Out: the service and the routes.
 */
export function createSitesModule(options: {
  db: Database;
  countDevices: (organizationId: string, siteId: string) => Promise<number>;
  beforeRemove: (organizationId: string, siteId: string) => Promise<void>;
}) {
  const sites = createSiteService(options);
  const routes: FastifyPluginAsync = async (app) => {
    await app.register(siteRoutes, { sites });
  };
  return { sites, routes, services: { sites } };
}

export type SitesModule = ReturnType<typeof createSitesModule>;
