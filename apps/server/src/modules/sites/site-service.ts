import { type CreateSiteRequest, DEFAULT_OPENING_HOURS, DEFAULT_TIMEZONE, type Site, type UpdateSiteRequest } from '@vigie/contract';
import { conflict, notFound } from '../../errors.ts';
import type { Database } from '../../db/database.ts';
import { createSiteDal, type SiteRecord } from './site-dal.ts';

/** The name of the site every organization starts with, where its existing devices go. */
export const DEFAULT_SITE_NAME = 'Magasin principal';

export const SITE_NOT_FOUND = 'Site introuvable.';
const NOT_FOUND = SITE_NOT_FOUND;

export function toSite(record: SiteRecord): Site {
  return { id: record.id, name: record.name, timezone: record.timezone, openingHours: record.openingHours, regionId: record.regionId };
}

/**
 * Sites (magasins) of an organization. An organization always keeps at least one; a site that
 * still holds devices cannot be deleted (the devices would be left nowhere).
 */
export function createSiteService(deps: {
  db: Database;
  /** How many devices (emitters and sensors, the trash included: a trashed device keeps its site) a site holds. */
  countDevices: (organizationId: string, siteId: string) => Promise<number>;
  /** Before the site goes: its rules are removed by their own module, which closes their alerts. */
  beforeRemove?: (organizationId: string, siteId: string) => Promise<void>;
  /** Told after a site came, went or changed region: the organization's rule templates follow. */
  changed?: (organizationId: string) => Promise<void>;
  /** Throws a French 404 unless the region is the organization's. */
  regionExists: (organizationId: string, regionId: string) => Promise<void>;
}) {
  const dal = createSiteDal(deps.db);
  const defaults = { name: DEFAULT_SITE_NAME, timezone: DEFAULT_TIMEZONE, openingHours: DEFAULT_OPENING_HOURS };

  /** A site of the organization by id or by name (case-insensitive), or undefined. */
  async function findByReference(organizationId: string, reference: string): Promise<Site | undefined> {
    const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(reference);
    const record = (isUuid ? await dal.find(organizationId, reference) : undefined) ?? (await dal.findByName(organizationId, reference));
    return record ? toSite(record) : undefined;
  }

  return {
    async list(organizationId: string): Promise<Site[]> {
      const records = await dal.list(organizationId);
      if (records.length > 0) return records.map(toSite);
      return [toSite(await dal.firstOrCreate(organizationId, defaults))];
    },

    async get(organizationId: string, id: string): Promise<Site> {
      const record = await dal.find(organizationId, id);
      if (!record) throw notFound(NOT_FOUND);
      return toSite(record);
    },

    /** The site a device goes to: the one named (404 when not the organization's) or the first one. */
    async siteFor(organizationId: string, siteId: string | undefined): Promise<string> {
      if (siteId === undefined) return (await dal.firstOrCreate(organizationId, defaults)).id;
      if (!(await dal.find(organizationId, siteId))) throw notFound(NOT_FOUND);
      return siteId;
    },

    /** A site by id or name for a device that installs itself; a new name creates the site. */
    async siteNamed(organizationId: string, reference: string): Promise<string> {
      const found = await findByReference(organizationId, reference);
      if (found) return found.id;
      await dal.firstOrCreate(organizationId, defaults);
      return (await dal.create(organizationId, { ...defaults, name: reference.trim().slice(0, 100) })).id;
    },

    findByReference,

    /** Every site of every organization with when it was created, for work that runs for all of them. */
    async *all(): AsyncGenerator<Site & { organizationId: string; createdAt: Date }> {
      let after: string | null = null;
      for (;;) {
        const page = await dal.page(after, 500);
        for (const record of page) yield { ...toSite(record), organizationId: record.organizationId, createdAt: record.createdAt };
        const last = page[page.length - 1];
        if (!last || page.length < 500) return;
        after = last.id;
      }
    },

    /** Sites by id for the alert engine, which reads the site of a sensor it already holds. */
    async byId(id: string): Promise<Site | undefined> {
      const record = await dal.findById(id);
      return record ? toSite(record) : undefined;
    },

    async create(organizationId: string, input: CreateSiteRequest): Promise<Site> {
      if (input.regionId) await deps.regionExists(organizationId, input.regionId);
      const record = await dal.create(organizationId, {
        name: input.name,
        timezone: input.timezone ?? DEFAULT_TIMEZONE,
        openingHours: input.openingHours ?? DEFAULT_OPENING_HOURS,
        regionId: input.regionId ?? null,
      });
      await deps.changed?.(organizationId);
      return toSite(record);
    },

    async update(organizationId: string, id: string, changes: UpdateSiteRequest): Promise<Site> {
      if (changes.regionId) await deps.regionExists(organizationId, changes.regionId);
      const record = await dal.update(organizationId, id, changes);
      if (!record) throw notFound(NOT_FOUND);
      if (changes.regionId !== undefined) await deps.changed?.(organizationId);
      return toSite(record);
    },

    async remove(organizationId: string, id: string): Promise<void> {
      if (!(await dal.find(organizationId, id))) throw notFound(NOT_FOUND);
      const devices = await deps.countDevices(organizationId, id);
      if (devices > 0) {
        throw conflict(
          `Ce site contient encore ${devices} appareil${devices > 1 ? 's' : ''} : déplacez-les vers un autre site avant de le supprimer.`,
        );
      }
      if ((await dal.count(organizationId)) <= 1) throw conflict('Impossible de supprimer le dernier site de l’organisation.');
      await deps.beforeRemove?.(organizationId, id);
      await dal.remove(organizationId, id);
      await deps.changed?.(organizationId);
    },
  };
}

export type SiteService = ReturnType<typeof createSiteService>;
