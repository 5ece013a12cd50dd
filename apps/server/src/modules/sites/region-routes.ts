import { endpoints, type OverviewSite } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RegionService } from './region-service.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';
import { sitesOf } from '../../plugins/scope.ts';
import { monthStart, overviewOf, type OverviewAlert, type OverviewSensor } from './overview.ts';
import type { SiteService } from './site-service.ts';

/** docs/api.md, Régions et portées: the regions, and the overview of the sites in the caller's scope. */
export const regionRoutes: FastifyPluginAsyncZod<{
  regions: RegionService;
  sites: SiteService;
  sensorsOf: (organizationId: string) => Promise<OverviewSensor[]>;
  activeAndRecentAlerts: (organizationId: string, from: Date) => Promise<OverviewAlert[]>;
  /** The food-safety plan's tasks due in [from, to), counted by site (the tasks module's). */
  tasksOf?: (organizationId: string, from: Date, to: Date) => Promise<ReadonlyMap<string, NonNullable<OverviewSite['tasks']>>>;
  now: () => Date;
}> = async (app, { regions, sites, sensorsOf, activeAndRecentAlerts, tasksOf, now }) => {
  const organizationOf = (request: Parameters<typeof currentUser>[0]) => currentUser(request).organization.id;

  app.route({
    ...route(endpoints.regions.list),
    handler: async (request) => {
      const all = await regions.list(organizationOf(request));
      const scope = await sitesOf(request);
      if (scope === null) return { regions: all };
      // A member who sees some shops: the regions of those shops.
      const theirs = new Set(
        (await sites.list(organizationOf(request))).flatMap((site) => (scope.has(site.id) && site.regionId ? [site.regionId] : [])),
      );
      return { regions: all.filter((region) => theirs.has(region.id)) };
    },
  });

  app.route({
    ...route(endpoints.regions.create),
    handler: async (request, reply) => {
      const region = await regions.create(organizationOf(request), request.body.name);
      await request.audit('region.created', { type: 'region', id: region.id, name: region.name });
      return reply.code(201).send({ region });
    },
  });

  app.route({
    ...route(endpoints.regions.update),
    handler: async (request) => {
      const before = await regions.get(organizationOf(request), request.params.id);
      const region = await regions.rename(organizationOf(request), request.params.id, request.body.name);
      await request.audit(
        'region.updated',
        { type: 'region', id: region.id, name: region.name },
        { name: { from: before.name, to: region.name } },
      );
      return { region };
    },
  });

  app.route({
    ...route(endpoints.regions.remove),
    handler: async (request, reply) => {
      const region = await regions.get(organizationOf(request), request.params.id);
      await regions.remove(organizationOf(request), request.params.id);
      await request.audit('region.deleted', { type: 'region', id: region.id, name: region.name });
      return reply.code(204).send(null);
    },
  });

  app.route({
    ...route(endpoints.overview.get),
    handler: async (request) => {
      const organizationId = organizationOf(request);
      const scope = await sitesOf(request);
      const inScope = (await sites.list(organizationId)).filter((site) => scope === null || scope.has(site.id));
      const at = now();
      const [sensors, alerts, tasks] = await Promise.all([
        sensorsOf(organizationId),
        activeAndRecentAlerts(organizationId, monthStart(at)),
        tasksOf?.(organizationId, monthStart(at), at),
      ]);
      return { sites: overviewOf(inScope, sensors, alerts, at, tasks) };
    },
  });
};
