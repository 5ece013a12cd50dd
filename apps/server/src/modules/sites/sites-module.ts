import type { MemberScope, OverviewSite } from '@vigie/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/database.ts';
import type { Announced } from '../events/events-module.ts';
import type { OverviewAlert, OverviewSensor } from './overview.ts';
import { regionRoutes } from './region-routes.ts';
import { createRegionService } from './region-service.ts';
import { siteRoutes } from './site-routes.ts';
import { createSiteService } from './site-service.ts';

/**
 * The sites module: an organization's shops, their opening hours and the regions that group
 * them (and so the scopes of members who see some of them); it keeps the sites and regions.
 * In: how many devices a site holds (the devices module's), what must go before a site does
 * (its alert rules) and who follows the sites (the rule templates) — the alerts module's, called
 * at run time — for the overview the sensors and alerts, and `tell` (announces to every instance
 * that the sites of regions changed: open live streams follow the scopes). Out: the services and
 * the routes.
 */
export function createSitesModule(options: {
  db: Database;
  now: () => Date;
  countDevices: (organizationId: string, siteId: string) => Promise<number>;
  /** The alerts module's: a site's rules go before it does, and the rule templates follow sites that come, go or change region. */
  rules: () => { siteRemoving(organizationId: string, siteId: string): Promise<void>; sitesChanged(organizationId: string): Promise<void> };
  sensorsOf: (organizationId: string) => Promise<OverviewSensor[]>;
  alertsOf: (organizationId: string, from: Date) => Promise<OverviewAlert[]>;
  /** The food-safety plan's tasks due in [from, to), counted by site (the tasks module's, called at run time). */
  tasksOf?: (organizationId: string, from: Date, to: Date) => Promise<ReadonlyMap<string, NonNullable<OverviewSite['tasks']>>>;
  tell: (announced: Announced) => Promise<void>;
}) {
  const changed = async (organizationId: string) => {
    // A site came, went or changed region: scopes hold other sites, every instance's open streams read theirs again.
    await options.tell([{ organizationId, type: 'sites-changed', data: {} }]);
    await options.rules().sitesChanged(organizationId);
  };
  const regions = createRegionService({ db: options.db, changed });
  const sites = createSiteService({
    ...options,
    beforeRemove: (organizationId, siteId) => options.rules().siteRemoving(organizationId, siteId),
    changed,
    regionExists: regions.exists,
  });
  const routes: FastifyPluginAsync = async (app) => {
    await app.register(siteRoutes, { sites });
    await app.register(regionRoutes, {
      ...{ regions, sites, sensorsOf: options.sensorsOf, activeAndRecentAlerts: options.alertsOf, now: options.now },
      ...(options.tasksOf ? { tasksOf: options.tasksOf } : {}),
    });
  };
  /** A scope as people read it: « toute l’organisation », or its shops then its regions by name (« Lyon Part-Dieu, région Nord »). */
  async function describeScope(organizationId: string, scope: MemberScope | null): Promise<string> {
    if (!scope) return 'toute l’organisation';
    const [allSites, allRegions] = await Promise.all([sites.list(organizationId), regions.list(organizationId)]);
    const siteNames = new Map(allSites.map((site) => [site.id, site.name]));
    const regionNames = new Map(allRegions.map((region) => [region.id, region.name]));
    const names = [
      ...scope.siteIds.flatMap((id) => siteNames.get(id) ?? []),
      ...scope.regionIds.flatMap((id) => (regionNames.has(id) ? [`région ${regionNames.get(id)}`] : [])),
    ];
    return names.length > 0 ? names.join(', ') : 'aucun site';
  }
  return { sites, regions, describeScope, routes, services: { sites, regions } };
}

export type SitesModule = ReturnType<typeof createSitesModule>;
