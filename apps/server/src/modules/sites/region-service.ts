import type { MemberScope, Region } from '@vigie/contract';
import { badRequest, conflict, notFound } from '../../errors.ts';
import type { Database } from '../../db/database.ts';
import { createRegionDal, type RegionRecord } from './region-dal.ts';

export const REGION_NOT_FOUND = 'Région introuvable.';
const NAME_TAKEN = 'Une région de l’organisation porte déjà ce nom.';

const toRegion = (record: RegionRecord): Region => ({ id: record.id, name: record.name });

/** The sites a person sees: `null` for the whole organization, else the set of their sites' ids. */
export type SitesInScope = ReadonlySet<string> | null;

/**
 * Regions (groups of sites) and the scopes built on them (docs/api.md, Régions et portées): a
 * scope's sites are read afresh at each request, so a site moved into a region joins it at once.
 */
export function createRegionService(deps: { db: Database; changed?: (organizationId: string) => Promise<void> }) {
  const dal = createRegionDal(deps.db);

  async function exists(organizationId: string, id: string): Promise<void> {
    if (!(await dal.find(organizationId, id))) throw notFound(REGION_NOT_FOUND);
  }

  /** Whether a scope holds a site (`null`: the whole organization holds them all). */
  async function covers(organizationId: string, scope: MemberScope | null, siteId: string | null): Promise<boolean> {
    if (!scope) return true;
    if (!siteId) return false;
    return new Set(await dal.sitesIn(organizationId, scope.siteIds, scope.regionIds)).has(siteId);
  }

  return {
    async list(organizationId: string): Promise<Region[]> {
      return (await dal.list(organizationId)).map(toRegion);
    },

    async get(organizationId: string, id: string): Promise<Region> {
      const record = await dal.find(organizationId, id);
      if (!record) throw notFound(REGION_NOT_FOUND);
      return toRegion(record);
    },

    async create(organizationId: string, name: string): Promise<Region> {
      if (await dal.findByName(organizationId, name)) throw conflict(NAME_TAKEN);
      try {
        return toRegion(await dal.create(organizationId, name));
      } catch (error) {
        // Two creations of the same name at once: the unique index decides.
        if (await dal.findByName(organizationId, name)) throw conflict(NAME_TAKEN);
        throw error;
      }
    },

    async rename(organizationId: string, id: string, name: string): Promise<Region> {
      await exists(organizationId, id);
      if (await dal.findByName(organizationId, name, id)) throw conflict(NAME_TAKEN);
      const record = await dal.rename(organizationId, id, name);
      if (!record) throw notFound(REGION_NOT_FOUND);
      return toRegion(record);
    },

    async remove(organizationId: string, id: string): Promise<void> {
      if (!(await dal.remove(organizationId, id))) throw notFound(REGION_NOT_FOUND);
      // Its sites belong to no region now: the templates aimed at it leave them.
      await deps.changed?.(organizationId);
    },

    exists,

    /** Refuses a scope naming a site or region that is not the organization's (400, French). */
    async validate(organizationId: string, scope: MemberScope | null): Promise<void> {
      if (!scope) return;
      const regions = new Set(await dal.existing(organizationId, scope.regionIds));
      if (scope.regionIds.some((id) => !regions.has(id)))
        throw badRequest('La portée nomme une région qui n’est pas celle de l’organisation.');
      const sites = new Set(await dal.sitesIn(organizationId, scope.siteIds, []));
      if (scope.siteIds.some((id) => !sites.has(id))) throw badRequest('La portée nomme un site qui n’est pas celui de l’organisation.');
    },

    covers,

    /** The people whose scope holds the site (who is told of its alerts). */
    async covering<T extends { scope: MemberScope | null }>(
      organizationId: string,
      siteId: string | null,
      people: readonly T[],
    ): Promise<T[]> {
      if (people.every((person) => person.scope === null)) return [...people];
      const sites = new Map<string, boolean>();
      const kept: T[] = [];
      for (const person of people) {
        const key = JSON.stringify(person.scope);
        if (!sites.has(key)) sites.set(key, await covers(organizationId, person.scope, siteId));
        if (sites.get(key)) kept.push(person);
      }
      return kept;
    },

    async sitesInScope(organizationId: string, scope: MemberScope | null | undefined): Promise<SitesInScope> {
      if (!scope) return null;
      return new Set(await dal.sitesIn(organizationId, scope.siteIds, scope.regionIds));
    },
  };
}

export type RegionService = ReturnType<typeof createRegionService>;
