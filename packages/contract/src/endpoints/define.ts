import type { z } from 'zod';
import { ROLES, type Role } from '../values/auth.ts';

/**
 * The endpoint catalogue's building blocks. Each endpoint of the API is declared once, in
 * `endpoints/<area>.ts`: its method, path, schemas, who may call it and a French summary. The
 * server registers its routes from it (schemas, authorization), the web client calls it by name,
 * the screens ask it what a role may do, and the OpenAPI document is generated from it.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Who may call an endpoint. */
export type Access =
  /** Anyone, without a session (signing in, health, accepting an invitation…). */
  | { readonly kind: 'public' }
  /** A device or a program with its own credentials (installation key, device token, integration secret, SCIM token) or none (protocol). */
  | { readonly kind: 'device' }
  /** An operator's session (docs/api.md, Opérateur); anyone else, signed in or not, is answered 404. */
  | { readonly kind: 'operator' }
  /** A signed-in member whose role is listed; the others get a 403 with `message`. */
  | {
      readonly kind: 'members';
      readonly roles: readonly Role[];
      /** The French sentence of the 403; empty when every role may call it. */
      readonly message: string;
      /**
       * Open to an admin who must still turn on two-factor authentication (their organization
       * requires it): their own account and signing out. Every other endpoint answers 403 until then.
       */
      readonly duringTotpSetup?: true;
      /**
       * Refused (403) to an API key, whatever its role (docs/api.md, Clés d’API): what manages the
       * team, its access and its security (members, invitations, API keys, the security policy).
       * A person's own account (`own`) is refused to keys as well: a key is nobody's account.
       */
      readonly peopleOnly?: true;
      /**
       * How a member whose scope is some sites only is held to it (docs/api.md, Régions et
       * portées): required, so that no member endpoint is declared without its rule.
       */
      readonly scope: ScopeRule;
    };

/** The things of an organization that belong to one site, found by the `:id` of their path. */
export const SCOPED_RESOURCES = ['sensor', 'emitter', 'site', 'alert', 'alertRule', 'report', 'task', 'process'] as const;
export type ScopedResource = (typeof SCOPED_RESOURCES)[number];

/**
 * How the server holds a scoped member (one who sees some sites only) to their scope:
 * - `organization`: refused (403) before the handler unless the member sees the whole organization;
 * - `resource`: the thing named by `:id` must be in one of their sites, else the server answers,
 *   before the handler, the 404 it gives for another organization's;
 * - `sites`: a list, a stream or a write whose module keeps to the member's sites (`sitesOf`,
 *   `withinScope`): what is out of scope is left out, or answers as another organization's;
 * - `own`: the person's own account (profile, password, phone, subscriptions…), whatever the scope;
 * - `shared`: a setting of the whole organization that no site owns (codecs, templates, the
 *   security policy, the members' names), read alike by every member; its secrets are not in it.
 */
export type ScopeRule =
  | { readonly kind: 'organization'; readonly message: string }
  | {
      readonly kind: 'resource';
      readonly resource: ScopedResource;
      /** The route's own 404 for what it does not find, when it is not the resource's (« Cet appareil n’est pas dans la corbeille. »). */
      readonly notFound?: string;
    }
  | { readonly kind: 'sites' }
  | { readonly kind: 'own' }
  | { readonly kind: 'shared' };

export const SCOPE_KINDS = ['organization', 'resource', 'sites', 'own', 'shared'] as const satisfies readonly ScopeRule['kind'][];

type MemberAccess = Extract<Access, { kind: 'members' }>;
/** The roles of a member endpoint, still without its scope rule: give it one of the rules below. */
export type MemberRoles = Omit<MemberAccess, 'scope'>;

/** For members who see the whole organization only: `action` completes « Seul un membre qui voit toute l’organisation peut … ». */
export const wholeOrganization = (access: MemberRoles, action: string): Access => ({
  ...access,
  scope: { kind: 'organization', message: `Seul un membre qui voit toute l’organisation peut ${action}.` },
});

/**
 * On a thing of one site named by the path's `:id`; `notFound`, the route's own 404 when it is
 * not the resource's, so that a thing of another site answers exactly as another organization's.
 */
export const onResource = (access: MemberRoles, resource: ScopedResource, notFound?: string): Access => ({
  ...access,
  scope: notFound ? { kind: 'resource', resource, notFound } : { kind: 'resource', resource },
});

/** A list, stream or write that its module keeps to the member's sites. */
export const withinSites = (access: MemberRoles): Access => ({ ...access, scope: { kind: 'sites' } });

/** The person's own account. */
export const own = (access: MemberRoles): Access => ({ ...access, scope: { kind: 'own' } });

/** A setting of the whole organization read alike by every member (no site owns it). */
export const shared = (access: MemberRoles): Access => ({ ...access, scope: { kind: 'shared' } });

export const publicAccess: Access = { kind: 'public' };
export const deviceAccess: Access = { kind: 'device' };
export const operatorAccess: Access = { kind: 'operator' };
/** The team, its access and its security: refused to API keys (`peopleOnly`), whatever their role. */
export const forPeopleOnly = (access: Access): Access => (access.kind === 'members' ? { ...access, peopleOnly: true } : access);

/** Every member, whatever their role. */
export const everyone: MemberRoles = { kind: 'members', roles: ROLES, message: '' };
/** Every member, also while an admin must still set up two-factor authentication. */
export const ownAccount: Access = { kind: 'members', roles: ROLES, message: '', duringTotpSetup: true, scope: { kind: 'own' } };
/** Admins and managers: `action` completes « Seuls un administrateur ou un responsable peuvent … ». */
export const managers = (action: string): MemberRoles => ({
  kind: 'members',
  roles: ['admin', 'manager'],
  message: `Seuls un administrateur ou un responsable peuvent ${action}.`,
});
/** Admins only: `action` completes « Seul un administrateur peut … ». */
export const admins = (action: string): MemberRoles => ({
  kind: 'members',
  roles: ['admin'],
  message: `Seul un administrateur peut ${action}.`,
});

/** The schemas of an endpoint, as Fastify takes them (zod). `response` is keyed by status code. */
export interface EndpointSchemas {
  readonly params?: z.ZodType;
  readonly querystring?: z.ZodType;
  readonly body?: z.ZodType;
  readonly headers?: z.ZodType;
  readonly response?: Readonly<Record<number, z.ZodType>>;
}

/** What a client needs to call an endpoint: its method, its path and who may call it (`routes.ts`). */
export interface Route<M extends HttpMethod = HttpMethod, P extends string = string> {
  readonly method: M;
  /** The full path, `/api/…`, with `:name` parameters as Fastify spells them. */
  readonly path: P;
  readonly access: Access;
}

export interface Endpoint<
  M extends HttpMethod = HttpMethod,
  P extends string = string,
  S extends EndpointSchemas = EndpointSchemas,
> extends Route<M, P> {
  /** One French line: what the endpoint does. */
  readonly summary: string;
  /** More French detail for the reference (optional). */
  readonly description?: string;
  /** The reference's section (e.g. « Sites »). */
  readonly tag: string;
  readonly schema: S;
  /** The media types of a success answer when it is not JSON (`application/pdf`, `text/csv`, `text/event-stream`). */
  readonly produces?: readonly string[];
}

/** Declares an endpoint, keeping its exact method, path and schema types. */
export function endpoint<const M extends HttpMethod, const P extends `/api/${string}`, const S extends EndpointSchemas>(
  definition: Endpoint<M, P, S>,
): Endpoint<M, P, S> {
  return definition;
}

/** The names of a path's `:parameters`, e.g. `'id'` for `/api/sites/:id`. */
export type PathParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** The values of a path's parameters; `{}` when it has none. */
export type PathParams<P extends string> = [PathParamNames<P>] extends [never] ? Record<never, never> : Record<PathParamNames<P>, string>;

/** A query string's values; `undefined` or `null` entries are left out. */
export type QueryValues = Readonly<Record<string, string | number | boolean | null | undefined>>;

/**
 * The concrete path of a call: each `:name` replaced by its value, URI-encoded, then the query
 * string (entries in their given order). A missing parameter throws: it is a programming error.
 */
export function pathOf<P extends string>(endpoint: { readonly path: P }, params?: PathParams<P>, query?: QueryValues): string {
  const values = (params ?? {}) as Readonly<Record<string, string>>;
  const path = endpoint.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`Paramètre « ${name} » manquant pour ${endpoint.path}.`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) search.append(key, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * True when a member of `role` may call `endpoint` (what the server will enforce); with `scoped`
 * true (the member sees some sites only), false too where the whole organization is needed.
 */
export function can(role: Role | null | undefined, endpoint: { readonly access: Access }, scoped = false): boolean {
  const { access } = endpoint;
  if (access.kind !== 'members') return true;
  if (scoped && access.scope.kind === 'organization') return false;
  return role !== null && role !== undefined && access.roles.includes(role);
}

/** `METHOD /api/path`, the key of an endpoint in tables and messages. */
export const endpointKey = (endpoint: { readonly method: HttpMethod; readonly path: string }): string =>
  `${endpoint.method} ${endpoint.path}`;
