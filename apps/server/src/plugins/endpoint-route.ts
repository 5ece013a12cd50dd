import { ENDPOINTS, endpointKey, type Endpoint, type EndpointSchemas, type HttpMethod } from '@vigie/contract';
import type { FastifyInstance } from 'fastify';

/** Where the API is mounted (app.ts registers every route under it). */
export const API_PREFIX = '/api';

/** A member endpoint's credentials: a session, and an API key too unless it is for people only (docs/api.md, Clés d’API). */
function securityOf(access: Extract<Endpoint['access'], { kind: 'members' }>): Record<string, string[]>[] {
  return access.peopleOnly || access.scope.kind === 'own' ? [{ session: [] }] : [{ session: [] }, { apiKey: [] }];
}

/**
 * The route options of a catalogue endpoint, for `app.route({ ...route(endpoints.sites.create), handler })`
 * in a plugin registered under {@link API_PREFIX}: its method, its URL inside that prefix, and its
 * schemas with the summary and section the OpenAPI document shows. The handler's request and
 * reply are typed from the schemas.
 */
export function route<M extends HttpMethod, P extends string, S extends EndpointSchemas>(endpoint: Endpoint<M, P, S>) {
  if (!endpoint.path.startsWith(`${API_PREFIX}/`)) throw new Error(`Le point d’accès ${endpoint.path} n’est pas sous ${API_PREFIX}.`);
  return {
    method: endpoint.method,
    url: endpoint.path.slice(API_PREFIX.length),
    schema: {
      ...endpoint.schema,
      summary: endpoint.summary,
      tags: [endpoint.tag],
      ...(endpoint.description ? { description: endpoint.description } : {}),
      ...(endpoint.access.kind === 'members' ? { security: securityOf(endpoint.access) } : {}),
    },
  };
}

const routesOf = new WeakMap<object, Set<string>>();

/**
 * Holds the server to the catalogue: a route under {@link API_PREFIX} that is not in it stops the
 * app at start, and so does an endpoint of the catalogue that no route serves. `exempt` lists
 * prefixes outside the API proper (the reference's own page and files). Call it on the root
 * instance before any route is registered.
 */
export function enforceCatalogue(app: FastifyInstance, exempt: readonly string[]): void {
  const known = new Set(ENDPOINTS.map(endpointKey));
  const registered = new Set<string>();
  routesOf.set(app, registered);
  app.addHook('onRoute', (options) => {
    if (!options.url.startsWith(`${API_PREFIX}/`) || exempt.some((prefix) => options.url.startsWith(prefix))) return;
    for (const method of Array.isArray(options.method) ? options.method : [options.method]) {
      // Fastify adds a HEAD route to each GET: it follows its GET.
      if (method === 'HEAD') continue;
      const key = `${method} ${options.url}`;
      if (!known.has(key)) {
        throw new Error(`La route « ${key} » n’est pas dans le catalogue des points d’accès (packages/contract/src/endpoints).`);
      }
      registered.add(key);
    }
  });
  app.addHook('onReady', async () => {
    const missing = [...known].filter((key) => !registered.has(key));
    if (missing.length > 0) throw new Error(`Points d’accès du catalogue qu’aucune route ne sert : ${missing.join(', ')}.`);
  });
}

/** The `METHOD /api/path` of every API route the app registered (HEAD routes aside). */
export function registeredApiRoutes(app: FastifyInstance): string[] {
  return [...(routesOf.get(app) ?? [])].sort();
}
