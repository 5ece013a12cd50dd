import { endpoints } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';
import type { SsoService } from './sso-service.ts';

/** docs/api.md, Authentification unique: the sign-in through the organization's provider, for anyone. */
export const publicSsoRoutes: FastifyPluginAsyncZod<{ sso: SsoService; publicUrl: string }> = async (app, { sso, publicUrl }) => {
  app.route({
    ...route(endpoints.sso.discover),
    bodyLimit: 8 * 1024,
    handler: async (request) => ({ sso: await sso.discover(request.body.email) }),
  });

  app.route({
    ...route(endpoints.sso.start),
    handler: async (request, reply) => {
      const { location } = await sso.start(request.query.email, request.query.next);
      return reply.header('cache-control', 'no-store').redirect(location, 302);
    },
  });

  app.route({
    ...route(endpoints.sso.callback),
    handler: async (request, reply) => {
      // The address the provider sent the browser back to, as the client registered it (PUBLIC_URL).
      const { location } = await sso.callback(request.query, new URL(request.url, `${publicUrl}/`));
      return reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').redirect(location, 302);
    },
  });

  app.route({
    ...route(endpoints.sso.exchange),
    bodyLimit: 8 * 1024,
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return sso.exchange(request.body.code, request.ip);
    },
  });
};

/** The organization's single sign-on, set by its admins (never with an API key). */
export const ssoSettingsRoutes: FastifyPluginAsyncZod<{ sso: SsoService }> = async (app, { sso }) => {
  app.route({
    ...route(endpoints.organizationSso.get),
    handler: async (request) => ({ sso: await sso.get(currentUser(request).organization.id) }),
  });

  app.route({
    ...route(endpoints.organizationSso.update),
    bodyLimit: 16 * 1024,
    handler: async (request) => {
      const organization = currentUser(request).organization;
      const settings = await sso.update(organization.id, request.body, request.sessionId ?? undefined);
      // The trail keeps what changed, never the client's secret.
      await request.audit(
        'organization.sso_updated',
        { type: 'organization', id: organization.id, name: organization.name },
        {
          issuer: settings.issuer,
          domains: settings.domains,
          enforced: settings.enforced,
          ...(request.body.clientSecret === undefined ? {} : { clientSecretChanged: true }),
        },
      );
      return { sso: settings };
    },
  });
};
