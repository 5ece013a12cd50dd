import { ENDPOINTS, endpointKey, ROLES, type Access } from '@vigie/contract';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { forbidden, MESSAGES, notFound } from '../errors.ts';
import { TOTP_MESSAGES } from '../modules/auth/totp-service.ts';
import { currentUser } from './authenticate.ts';
import { inScope, sitesOf } from './scope.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** docs/api.md, Clés d’API: what a key may never do, whatever its role. */
export const API_KEY_REFUSED =
  'Une clé d’API ne peut pas gérer l’équipe, les invitations, les clés d’API ni la sécurité de l’organisation, ni agir sur un compte personnel.';
const ORGANIZATION_WIDE = 'Seul un membre qui voit toute l’organisation peut modifier ce qui vaut pour toute l’organisation.';

/**
 * Holds a scoped member (who sees some sites only) to their scope, before the handler runs: a
 * thing of another site answers the 404 of a thing of another organization; what needs the whole
 * organization answers 403. Who sees the whole organization passes without a query.
 */
async function checkScope(request: FastifyRequest, permission: PermissionTable[RouteKey]): Promise<void> {
  const rule = permission.scope;
  const user = currentUser(request);
  // `sites`, `own` and `shared` are held by the route itself (its list is filtered by `sitesOf`).
  if (!user.scope || rule.kind === 'sites' || rule.kind === 'own' || rule.kind === 'shared') return;
  if (rule.kind === 'organization') throw forbidden(rule.message);
  const id = (request.params as Record<string, unknown> | undefined)?.['id'];
  // A malformed id is refused by the route's own validation, with its message.
  if (typeof id !== 'string' || !UUID.test(id)) return;
  const { locate, notFound: messages } = request.server.scopeDeps;
  const siteId = await locate[rule.resource](user.organization.id, id);
  // Unknown here: the handler answers its 404 as it would anyway.
  if (siteId === undefined) return;
  if (siteId === null) {
    if (request.method === 'GET' || request.method === 'HEAD') return;
    throw forbidden(ORGANIZATION_WIDE);
  }
  if (!inScope(await sitesOf(request), siteId)) throw notFound(rule.notFound ?? messages[rule.resource]);
}

/** Who may call a route, and what someone else is told: a member endpoint's access in the catalogue. */
export type Permission = Extract<Access, { kind: 'members' }>;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
/** `METHOD /full/url/:param`, as Fastify spells `routeOptions.url` (prefix included). */
export type RouteKey = `${Method} /api/${string}`;
export type PermissionTable = Readonly<Record<RouteKey, Omit<Permission, 'kind'> & Partial<Pick<Permission, 'kind'>>>>;

/**
 * Every member route and the roles that may call it, read from the endpoint catalogue
 * (`packages/contract/src/endpoints`): `admin` everything, `manager` all but members, invitations,
 * the audit trail and the security policy, `viewer` reads, acknowledges alerts, logs out and
 * follows the live stream. A route of the secured scope missing here stops the server at start.
 */
export const PERMISSIONS: PermissionTable = Object.fromEntries(
  ENDPOINTS.flatMap((endpoint) => (endpoint.access.kind === 'members' ? [[endpointKey(endpoint), endpoint.access]] : [])),
);

/** The key of a route in the table; a HEAD route (Fastify adds one to each GET) follows its GET. */
export function routeKey(method: string, url: string): string {
  return `${method === 'HEAD' ? 'GET' : method} ${url}`;
}

/** The entries of the table whose route the app has registered (some may be ahead of their routes). */
export function registeredRoutes(
  app: Pick<FastifyInstance, 'hasRoute'>,
  table: PermissionTable = PERMISSIONS,
): { method: Method; url: string; permission: PermissionTable[RouteKey] }[] {
  return Object.entries(table).flatMap(([key, permission]) => {
    const [method, url] = key.split(' ') as [Method, string];
    return app.hasRoute({ method, url }) ? [{ method, url, permission }] : [];
  });
}

/**
 * Applies the table to every route later registered in `scope` (call it before registering
 * them): each gets an onRequest check that runs right after the scope's authentication, before
 * the body is read. A route without an entry throws here, so the app does not start.
 */
export function enforcePermissions(scope: FastifyInstance, table: PermissionTable = PERMISSIONS): void {
  const entries = new Map<string, PermissionTable[RouteKey]>(Object.entries(table));
  scope.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const permissions = methods.map((method) => {
      const key = routeKey(method, route.url);
      const permission = entries.get(key);
      if (!permission) {
        throw new Error(`La route authentifiée « ${key} » n'a pas d'entrée dans la table des permissions (plugins/permissions.ts).`);
      }
      return permission;
    });
    const [permission] = permissions;
    if (!permission || permissions.some((other) => other !== permission)) {
      throw new Error(`La route « ${route.url} » mêle des méthodes aux permissions différentes : déclarez-les séparément.`);
    }
    const everyRole = permission.roles.length === ROLES.length;
    // The team, its access, its security and a person's own account are for people: an API key is refused them.
    const refusesKeys = permission.peopleOnly === true || permission.scope.kind === 'own';
    const check = async (request: FastifyRequest) => {
      if (refusesKeys && request.apiKey) throw forbidden(API_KEY_REFUSED);
      if (everyRole && permission.duringTotpSetup && permission.scope.kind === 'own') return;
      const user = currentUser(request);
      // An operator has no client organization: its routes are none of theirs (docs/api.md, Opérateur).
      if (user.operator) throw notFound(MESSAGES.routeNotFound);
      if (user.totpSetupRequired && !permission.duringTotpSetup) throw forbidden(TOTP_MESSAGES.setupRequired);
      if (!everyRole && !permission.roles.includes(user.role)) throw forbidden(permission.message);
      await checkScope(request, permission);
    };
    const existing = route.onRequest;
    route.onRequest = existing ? [check, ...(Array.isArray(existing) ? existing : [existing])] : [check];
  });
}
