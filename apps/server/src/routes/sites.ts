import {
  createSiteRequestSchema,
  errorResponseSchema,
  idParamsSchema,
  siteListResponseSchema,
  siteResponseSchema,
  updateSiteRequestSchema,
} from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SiteService } from '../modules/sites/site-service.ts';
import { changes } from '../plugins/audit.ts';
import { currentUser } from '../plugins/authenticate.ts';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 404: errorResponseSchema, 409: errorResponseSchema };

/** docs/api.md, Sites: the sites (magasins) of the caller's organization. */
export const siteRoutes: FastifyPluginAsyncZod<{ sites: SiteService }> = async (app, { sites }) => {
  const organizationOf = (request: Parameters<typeof currentUser>[0]) => currentUser(request).organization.id;

  app.get('/sites', { schema: { response: { 200: siteListResponseSchema, ...errors } } }, async (request) => ({
    sites: await sites.list(organizationOf(request)),
  }));

  app.post(
    '/sites',
    { schema: { body: createSiteRequestSchema, response: { 201: siteResponseSchema, ...errors } } },
    async (request, reply) => {
      const site = await sites.create(organizationOf(request), request.body);
      await request.audit('site.created', { type: 'site', id: site.id, name: site.name });
      return reply.code(201).send({ site });
    },
  );

  app.get('/sites/:id', { schema: { params: idParamsSchema, response: { 200: siteResponseSchema, ...errors } } }, async (request) => ({
    site: await sites.get(organizationOf(request), request.params.id),
  }));

  app.put(
    '/sites/:id',
    { schema: { params: idParamsSchema, body: updateSiteRequestSchema, response: { 200: siteResponseSchema, ...errors } } },
    async (request) => {
      const before = await sites.get(organizationOf(request), request.params.id);
      const site = await sites.update(organizationOf(request), request.params.id, request.body);
      await request.audit(
        'site.updated',
        { type: 'site', id: site.id, name: site.name },
        changes(before, site, ['name', 'timezone', 'openingHours']),
      );
      return { site };
    },
  );

  app.delete('/sites/:id', { schema: { params: idParamsSchema, response: { 204: z.null(), ...errors } } }, async (request, reply) => {
    const site = await sites.get(organizationOf(request), request.params.id);
    await sites.remove(organizationOf(request), request.params.id);
    await request.audit('site.deleted', { type: 'site', id: site.id, name: site.name });
    return reply.code(204).send(null);
  });
};
