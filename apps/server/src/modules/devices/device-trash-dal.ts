import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lt } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import type { DeviceTable } from './device-dal.ts';
import type { DeviceRecord, TrashedRecord } from './device-types.ts';

/**
 * The trash of one device table: a device moved there keeps its row (restorable) until its delay
 * is over, then is purged for good.
 */
export function createDeviceTrashDal(
  db: Database,
  table: DeviceTable,
  /** A device of the organization, not in the trash (to answer one just restored). */
  find: (organizationId: string, id: string) => Promise<DeviceRecord | undefined>,
) {
  const owned = (organizationId: string, id: string) =>
    and(eq(table.organizationId, organizationId), eq(table.id, id), isNull(table.deletedAt));

  return {
    /** Moves the device to the trash; false when it is missing or already there. */
    async trash(organizationId: string, id: string, now: Date): Promise<boolean> {
      const rows = await db.update(table).set({ deletedAt: now }).where(owned(organizationId, id)).returning({ id: table.id });
      return rows.length > 0;
    },

    /** Brings a device back from the trash if it was deleted after `notBefore` (not yet due for purge). */
    async restore(organizationId: string, id: string, notBefore: Date): Promise<DeviceRecord | undefined> {
      const [row] = await db
        .update(table)
        .set({ deletedAt: null })
        .where(and(eq(table.organizationId, organizationId), eq(table.id, id), gt(table.deletedAt, notBefore)))
        .returning({ id: table.id });
      return row && find(organizationId, row.id);
    },

    /** The organization's trashed devices deleted after `notBefore`, newest deletion first. */
    async listTrashed(organizationId: string, notBefore: Date): Promise<TrashedRecord[]> {
      const rows = await db
        .select({ id: table.id, name: table.name, serial: table.serial, model: table.model, deletedAt: table.deletedAt })
        .from(table)
        .where(and(eq(table.organizationId, organizationId), gt(table.deletedAt, notBefore)))
        .orderBy(desc(table.deletedAt), asc(table.id));
      return rows.flatMap(({ deletedAt, ...row }) => (deletedAt ? [{ ...row, deletedAt }] : []));
    },

    /** Up to `limit` devices trashed before the cutoff: due for purge, never restorable again. */
    async expired(cutoff: Date, limit: number): Promise<string[]> {
      const rows = await db
        .select({ id: table.id })
        .from(table)
        .where(and(isNotNull(table.deletedAt), lt(table.deletedAt, cutoff)))
        .limit(limit);
      return rows.map((row) => row.id);
    },

    /** Erases expired trashed devices for good, answering the organization of each; idempotent, so several instances may run it at once. */
    async purge(ids: string[], cutoff: Date): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .delete(table)
        .where(and(inArray(table.id, ids), lt(table.deletedAt, cutoff)))
        .returning({ organizationId: table.organizationId });
      return rows.map((row) => row.organizationId);
    },
  };
}
