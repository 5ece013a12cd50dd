import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/database.ts';
import type { OverviewAlert, OverviewSensor } from './overview.ts';
import { regionRoutes } from './region-routes.ts';
import { createRegionService } from './region-service.ts';
import { siteRoutes } from './site-routes.ts';
import { createSiteService } from './site-service.ts';

/**
 * The sites module: an organization's shops, their opening hours and the regions that group
 * them (and so the scopes of members who see some of them); it keeps the sites and regions.
 * In: how many devices a site holds (the devices module's), what must go before a site does
 * (its alert rules, the alerts module's; called at run time), and for the overview the sensors and
 * alerts. Out: the services and the routes.
 */
export function createSitesModule(options: {
  db: Database;
  now: () => Date;
  countDevices: (organizationId: string, siteId: string) => Promise<number>;
  beforeRemove: (organizationId: string, siteId: string) => Promise<void>;
  sensorsOf: (organizationId: string) => Promise<OverviewSensor[]>;
  alertsOf: (organizationId: string, from: Date) => Promise<OverviewAlert[]>;
}) {
  const regions = createRegionService({ db: options.db });
  const sites = createSiteService({ ...options, regionExists: regions.exists });
  const routes: FastifyPluginAsync = async (app) => {
    await app.register(siteRoutes, { sites });
    await app.register(regionRoutes, {
      ...{ regions, sites, sensorsOf: options.sensorsOf, activeAndRecentAlerts: options.alertsOf, now: options.now },
    });
  };
  return { sites, regions, routes, services: { sites, regions } };
}

export type SitesModule = ReturnType<typeof createSitesModule>;
