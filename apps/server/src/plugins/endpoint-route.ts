import type { Endpoint, EndpointSchemas, HttpMethod } from '@vigie/contract';

/** Where the API is mounted (app.ts registers every route under it). */
export const API_PREFIX = '/api';

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
      ...(endpoint.access.kind === 'members' ? { security: [{ session: [] }] } : {}),
    },
  };
}
