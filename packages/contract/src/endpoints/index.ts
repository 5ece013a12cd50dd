import type { Endpoint } from './define.ts';
import { accountEndpoints } from './accounts.ts';
import { alertEndpoints } from './alerts.ts';
import { deviceEndpoints } from './devices.ts';
import { integrationEndpoints } from './integrations.ts';
import { lorawanEndpoints } from './lorawan.ts';
import { pushEndpoints } from './push.ts';
import { onCallEndpoints } from './on-call.ts';
import { operatorEndpoints } from './operator.ts';
import { recordEndpoints } from './record.ts';
import { serviceEndpoints } from './health.ts';
import { reportEndpoints } from './reports.ts';
import { scimEndpoints } from './scim.ts';
import { siteEndpoints } from './sites.ts';
import { ssoEndpoints } from './sso.ts';
import { taskEndpoints } from './tasks.ts';

export * from './define.ts';
export type { BodyOf, CallArguments, CallOptions, CatalogueEndpoint, QueryOf, ResponseOf } from './call-types.ts';

/**
 * Every endpoint of the API, by area and name: `endpoints.sites.create`. The one place where a
 * path, its schemas and the roles that may call it are written (docs/decisions/0031-endpoint-catalogue.md).
 */
export const endpoints = {
  ...serviceEndpoints,
  ...accountEndpoints,
  ...integrationEndpoints,
  ...ssoEndpoints,
  ...scimEndpoints,
  ...deviceEndpoints,
  ...lorawanEndpoints,
  ...siteEndpoints,
  ...alertEndpoints,
  ...pushEndpoints,
  ...onCallEndpoints,
  ...recordEndpoints,
  ...reportEndpoints,
  ...taskEndpoints,
  ...operatorEndpoints,
};

function isEndpoint(value: unknown): value is Endpoint {
  return typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'access' in value;
}

function collect(group: object, into: Endpoint[]): Endpoint[] {
  for (const value of Object.values(group)) {
    if (isEndpoint(value)) into.push(value);
    else if (typeof value === 'object' && value !== null) collect(value, into);
  }
  return into;
}

/** The catalogue as a list, in declaration order; each `METHOD path` appears once. */
export const ENDPOINTS: readonly Endpoint[] = /* @__PURE__ */ collect(endpoints, []);
