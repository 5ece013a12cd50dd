import type { MemberScope, ScopedResource } from '@vigie/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notFound } from '../errors.ts';
import { currentUser } from './authenticate.ts';

/** The sites a person sees: `null` for the whole organization, else the ids of their sites. */
export type SitesInScope = ReadonlySet<string> | null;

/**
 * Where a thing of one site is: its site's id; `null` when it belongs to the whole organization
 * (an organization-wide rule); `undefined` when the organization has no such thing.
 */
export type Locate = (organizationId: string, id: string) => Promise<string | null | undefined>;

/** What the scope check asks the modules: a scope's sites, and where each kind of thing is. */
export interface ScopeDeps {
  sitesInScope(organizationId: string, scope: MemberScope): Promise<ReadonlySet<string>>;
  /**
   * The sites a member sees now, their account read afresh (an open live stream follows a change of
   * scope): `null` for the whole organization, `undefined` when they are no longer its member.
   * With `apiKeyId`, the sites of that API key in force (`undefined` once revoked or expired).
   */
  memberSites(organizationId: string, userId: string, apiKeyId?: string | null): Promise<SitesInScope | undefined>;
  locate: Readonly<Record<ScopedResource, Locate>>;
  /** The ids of the organization's devices (both kinds, the trash included) in these sites. */
  devicesIn(organizationId: string, sites: ReadonlySet<string>): Promise<string[]>;
  /** The French 404 of each kind of thing, the one its own routes answer. */
  notFound: Readonly<Record<ScopedResource, string>>;
}

declare module 'fastify' {
  interface FastifyInstance {
    scopeDeps: ScopeDeps;
  }
  interface FastifyRequest {
    /** The signed-in person's sites, read once per request (see `sitesOf`). */
    scopeSites: SitesInScope | undefined;
  }
}

/** Makes the scope's dependencies known to every route of the app (before the routes register). */
export function installScope(app: FastifyInstance, deps: ScopeDeps): void {
  app.decorate('scopeDeps', deps);
  app.decorateRequest('scopeSites', undefined);
}

/**
 * The sites the signed-in person sees (docs/api.md, Régions et portées): `null` for the whole
 * organization. Read afresh at each request, so a site moved into a region of the scope is seen at
 * once; a person who sees everything costs no query.
 */
export async function sitesOf(request: FastifyRequest): Promise<SitesInScope> {
  if (request.scopeSites !== undefined) return request.scopeSites;
  const user = currentUser(request);
  const sites = user.scope ? await request.server.scopeDeps.sitesInScope(user.organization.id, user.scope) : null;
  request.scopeSites = sites;
  return sites;
}

/** Whether a site is among those seen; a thing of no site (`null`) only by who sees everything. */
export function inScope(sites: SitesInScope, siteId: string | null | undefined): boolean {
  return sites === null || (typeof siteId === 'string' && sites.has(siteId));
}

/**
 * The site a new thing goes to, held to the person's scope: the one named when they see it (else
 * the 404 of a site of another organization), or for a scoped member who names none the first of
 * theirs; `undefined` (the organization's default) for who sees everything.
 */
export async function siteInScope(request: FastifyRequest, siteId: string | undefined): Promise<string | undefined> {
  const sites = await sitesOf(request);
  if (sites === null) return siteId;
  if (siteId === undefined) {
    const [first] = [...sites].sort();
    if (first === undefined) throw notFound(request.server.scopeDeps.notFound.site);
    return first;
  }
  if (!sites.has(siteId)) throw notFound(request.server.scopeDeps.notFound.site);
  return siteId;
}

/** Refuses, with the 404 of another organization's, a thing of a site the person does not see. */
export async function assertInScope(request: FastifyRequest, resource: ScopedResource, id: string): Promise<void> {
  const sites = await sitesOf(request);
  if (sites === null) return;
  const siteId = await request.server.scopeDeps.locate[resource](currentUser(request).organization.id, id);
  if (siteId !== undefined && !inScope(sites, siteId)) throw notFound(request.server.scopeDeps.notFound[resource]);
}

/** Keeps the things whose site (found by `resource` and the id `idOf` gives) the person sees. */
export async function locatedInScope<T>(
  request: FastifyRequest,
  items: readonly T[],
  resource: ScopedResource,
  idOf: (item: T) => string,
): Promise<T[]> {
  const sites = await sitesOf(request);
  if (sites === null) return [...items];
  const organizationId = currentUser(request).organization.id;
  const located = await Promise.all(items.map((item) => request.server.scopeDeps.locate[resource](organizationId, idOf(item))));
  return items.filter((_, index) => inScope(sites, located[index]));
}

/** Keeps the things whose site is seen. */
export function withinScope<T>(sites: SitesInScope, items: readonly T[], siteOf: (item: T) => string | null | undefined): T[] {
  return sites === null ? [...items] : items.filter((item) => inScope(sites, siteOf(item)));
}
