import type { Check, CheckListQuery, CreateCheckRequest } from '@vigie/contract';
import type { Database } from '../../db/database.ts';
import { badRequest, notFound } from '../../errors.ts';
import { type CheckRecord, createCheckDal } from './check-dal.ts';

/** How far back a check may be noted: a week (a reading noted on paper during a weekend without network). */
const MAX_AGE_MS = 7 * 24 * 3600 * 1000;
/** A clock a minute ahead on a phone is not « the future ». */
const CLOCK_SKEW_MS = 60_000;

export function toCheck(record: CheckRecord): Check {
  return {
    id: record.id,
    siteId: record.siteId,
    sensorId: record.sensorId,
    kind: record.kind,
    product: record.product,
    supplier: record.supplier,
    temperature: record.temperature,
    accepted: record.accepted,
    quantity: record.quantity,
    note: record.note,
    takenAt: record.takenAt.toISOString(),
    takenBy: { id: record.takenBy, name: record.takenByName },
    createdAt: record.createdAt.toISOString(),
  };
}

/**
 * Temperatures taken by hand (docs/api.md, Actions guidées et contrôles manuels): kept apart from
 * the sensors' readings, with who took them and when, and listed in the month's HACCP report.
 */
export function createCheckService(deps: {
  db: Database;
  now: () => Date;
  /** Throws the 404 of a site the organization does not have. */
  assertSite: (organizationId: string, siteId: string) => Promise<void>;
  /** The site of a sensor of the organization, or undefined. */
  sensorSite: (organizationId: string, sensorId: string) => Promise<string | undefined>;
}) {
  const dal = createCheckDal(deps.db);
  return {
    async create(organizationId: string, by: { id: string; name: string }, input: CreateCheckRequest): Promise<Check> {
      await deps.assertSite(organizationId, input.siteId);
      if (input.sensorId) {
        const site = await deps.sensorSite(organizationId, input.sensorId);
        if (site === undefined) throw notFound('Capteur introuvable.');
        if (site !== input.siteId) throw badRequest('Ce capteur n’est pas dans ce magasin.');
      }
      const now = deps.now();
      const takenAt = input.takenAt ? new Date(input.takenAt) : now;
      if (takenAt.getTime() > now.getTime() + CLOCK_SKEW_MS) throw badRequest('Un contrôle ne peut pas être daté dans le futur.');
      if (now.getTime() - takenAt.getTime() > MAX_AGE_MS) throw badRequest('Un contrôle se note dans les 7 jours qui le suivent.');
      const record = await dal.create({
        organizationId,
        siteId: input.siteId,
        sensorId: input.sensorId ?? null,
        kind: input.kind,
        product: input.product ?? null,
        supplier: input.kind === 'delivery' ? (input.supplier ?? null) : null,
        temperature: Math.round(input.temperature * 100) / 100,
        accepted: input.kind === 'delivery' ? (input.accepted ?? null) : null,
        quantity: input.quantity ?? null,
        note: input.note ?? null,
        takenAt,
        takenBy: by.id,
        takenByName: by.name,
        // When it was entered, on the server's clock: a check of a signed month entered later shows both dates.
        createdAt: now,
      });
      return toCheck(record);
    },

    async list(organizationId: string, siteIds: readonly string[] | null, query: CheckListQuery): Promise<Check[]> {
      const rows = await dal.list(organizationId, {
        siteIds,
        siteId: query.siteId,
        sensorId: query.sensorId,
        ...(query.from ? { from: new Date(query.from) } : {}),
        ...(query.to ? { to: new Date(query.to) } : {}),
      });
      return rows.map(toCheck);
    },

    /** A site's checks taken in [from, to), oldest first, for its report. */
    async ofSite(organizationId: string, siteId: string, from: Date, to: Date): Promise<Check[]> {
      return (await dal.list(organizationId, { siteIds: null, siteId, from, to }, 5000)).map(toCheck).reverse();
    },
  };
}

export type CheckService = ReturnType<typeof createCheckService>;
