import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { endpointKey, endpoints } from '@vigie/contract';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_PREFIX, route } from './endpoint-route.ts';

/** The version of the API's contract the document describes. */
export const API_VERSION = '1.0';

/** Where the interactive API reference is served (its page, its script and style files). */
export const API_REFERENCE_PREFIX = `${API_PREFIX}/docs`;

/**
 * The OpenAPI 3.1 document of the API, built from the routes as they register (their schemas,
 * summaries and sections come from the endpoint catalogue), and the interactive reference that
 * renders it. Register before any route: the document collects routes as they are added.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'API Vigie',
        version: API_VERSION,
        description:
          'L’API de Vigie : sites, émetteurs et capteurs, télémétrie, alertes, rapports HACCP, prévisions, équipe. ' +
          'Les membres s’authentifient avec le jeton de session reçu à la connexion (`Authorization: Bearer …`), les programmes avec une clé d’API ; ' +
          'les appareils avec la clé d’installation ou leur propre jeton (voir docs/protocole-appareils.md). ' +
          'Chaque erreur répond `{ "message": "…" }` en français.',
      },
      components: {
        securitySchemes: {
          session: {
            type: 'http',
            scheme: 'bearer',
            description: `Jeton de session d’un membre, reçu de ${endpointKey(endpoints.auth.login)}.`,
          },
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            description: `Clé d’API (\`vk_…\`) créée par un administrateur (${endpointKey(endpoints.apiKeys.create)}) : elle agit avec son rôle et sa portée, sauf sur l’équipe, les clés et la sécurité.`,
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: API_REFERENCE_PREFIX,
    // Everything is served from the package: no request leaves the host (no validator badge).
    uiConfig: { validatorUrl: null, docExpansion: 'list', deepLinking: true, layout: 'BaseLayout' },
    theme: { title: 'API Vigie — référence' },
  });
}

/** Serves the document itself (public, like the reference page). */
export async function openApiRoutes(api: FastifyInstance): Promise<void> {
  api.withTypeProvider<ZodTypeProvider>().route({
    ...route(endpoints.reference.openapi),
    handler: async () => api.swagger() as unknown as Record<string, unknown>,
  });
}
