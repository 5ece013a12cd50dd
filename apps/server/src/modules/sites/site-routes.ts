import { endpoints } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SiteService } from './site-service.ts';
import { changes } from '../../plugins/audit.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';
import { sitesOf, withinScope } from '../../plugins/scope.ts';

/** docs/api.md, Sites: the sites (magasins) of the caller's organization. */
export const siteRoutes: FastifyPluginAsyncZod<{ sites: SiteService }> = async (app, { sites }) => {
  const organizationOf = (request: Parameters<typeof currentUser>[0]) => currentUser(request).organization.id;

  app.route({
    ...route(endpoints.sites.list),
    handler: async (request) => ({
      sites: withinScope(await sitesOf(request), await sites.list(organizationOf(request)), (site) => site.id),
    }),
  });

  app.route({
    ...route(endpoints.sites.create),
    handler: async (request, reply) => {
      const site = await sites.create(organizationOf(request), request.body);
      await request.audit('site.created', { type: 'site', id: site.id, name: site.name });
      return reply.code(201).send({ site });
    },
  });

  app.route({
    ...route(endpoints.sites.get),
    handler: async (request) => ({ site: await sites.get(organizationOf(request), request.params.id) }),
  });

  app.route({
    ...route(endpoints.sites.update),
    handler: async (request) => {
      const before = await sites.get(organizationOf(request), request.params.id);
      const site = await sites.update(organizationOf(request), request.params.id, request.body);
      await request.audit(
        'site.updated',
        { type: 'site', id: site.id, name: site.name },
        changes(before, site, ['name', 'timezone', 'openingHours']),
      );
      return { site };
    },
  });

  app.route({
    ...route(endpoints.sites.remove),
    handler: async (request, reply) => {
      const site = await sites.get(organizationOf(request), request.params.id);
      await sites.remove(organizationOf(request), request.params.id);
      await request.audit('site.deleted', { type: 'site', id: site.id, name: site.name });
      return reply.code(204).send(null);
    },
  });
};
