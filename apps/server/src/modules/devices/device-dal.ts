import { and, asc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { holdQuota } from '../../db/quotas.ts';
import type { DeviceKind, DeviceStatus } from '@vigie/contract';
import { emitters, sensors } from '../../db/schema.ts';
import { createDeviceContactDal } from './device-contact-dal.ts';
import { createDeviceTrashDal } from './device-trash-dal.ts';
import type { DeviceChanges, DeviceRecord, NewDevice } from './device-types.ts';

export type DeviceTable = typeof emitters | typeof sensors;

/**
 * The only code that touches one device table (emitters or sensors). Every query a user can
 * reach is scoped to an organization, and only the trash functions see trashed devices. The
 * devices' last contacts are in device-contact-dal.ts, their trash in device-trash-dal.ts.
 */
export function createDeviceDal(db: Database, kind: DeviceKind) {
  const table: DeviceTable = kind === 'sensor' ? sensors : emitters;
  const columns = {
    id: table.id,
    name: table.name,
    serial: table.serial,
    model: table.model,
    lastSeenAt: table.lastSeenAt,
    battery: table.battery,
    inactivityTimeoutSeconds: table.inactivityTimeoutSeconds,
    siteId: table.siteId,
    createdAt: table.createdAt,
    updatedAt: table.updatedAt,
    ...(table === sensors ? { emitterId: sensors.emitterId } : {}),
  };
  const active = isNull(table.deletedAt);
  const owned = (organizationId: string, id: string) => and(eq(table.organizationId, organizationId), eq(table.id, id), active);

  async function find(organizationId: string, id: string): Promise<DeviceRecord | undefined> {
    const [row] = await db.select(columns).from(table).where(owned(organizationId, id)).limit(1);
    return row;
  }

  const contacts = createDeviceContactDal(db, table);
  const trash = createDeviceTrashDal(db, table, find);

  return {
    list(organizationId: string): Promise<DeviceRecord[]> {
      return db
        .select(columns)
        .from(table)
        .where(and(eq(table.organizationId, organizationId), active))
        .orderBy(asc(table.createdAt), asc(table.id));
    },

    /**
     * A page of the organization's devices matching `filter`, in the order of the whole list
     * (creation, then id), after `after`; and how many match in all.
     */
    async page(
      organizationId: string,
      filter: {
        q?: string | undefined;
        siteId?: string | undefined;
        status?: DeviceStatus | undefined;
        at: Date;
        /** The sites a scoped member sees; undefined, all of them. */
        siteIds?: readonly string[] | undefined;
      },
      /** The id of the last device of the previous page. */
      afterId: string | undefined,
      limit: number,
    ): Promise<{ records: DeviceRecord[]; total: number }> {
      const pattern = filter.q ? `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
      const deadline = sql`${table.lastSeenAt} + make_interval(secs => ${table.inactivityTimeoutSeconds})`;
      const at = filter.at.toISOString();
      const where = and(
        eq(table.organizationId, organizationId),
        active,
        pattern ? sql`(${table.name} ilike ${pattern} or ${table.serial} ilike ${pattern})` : undefined,
        filter.siteId ? eq(table.siteId, filter.siteId) : undefined,
        filter.siteIds ? (filter.siteIds.length > 0 ? inArray(table.siteId, [...filter.siteIds]) : sql`false`) : undefined,
        filter.status === 'never'
          ? isNull(table.lastSeenAt)
          : filter.status === 'online'
            ? and(isNotNull(table.lastSeenAt), sql`${deadline} >= ${at}::timestamptz`)
            : filter.status === 'offline'
              ? and(isNotNull(table.lastSeenAt), sql`${deadline} < ${at}::timestamptz`)
              : undefined,
      );
      const [records, [counted]] = await Promise.all([
        db
          .select(columns)
          .from(table)
          .where(
            and(
              where,
              // Compared with the stored time itself (microseconds), not a copy rounded by JavaScript.
              afterId
                ? sql`(${table.createdAt}, ${table.id}) > (select d.created_at, d.id from ${table} d where d.id = ${afterId}::uuid and d.organization_id = ${organizationId}::uuid)`
                : undefined,
            ),
          )
          .orderBy(asc(table.createdAt), asc(table.id))
          .limit(limit),
        db
          .select({ count: sql<number>`count(*)::int` })
          .from(table)
          .where(where),
      ]);
      return { records, total: counted?.count ?? 0 };
    },

    find,

    /** The site of a device of the organization, in the trash too; undefined when it has no such device. */
    async siteOf(organizationId: string, id: string): Promise<string | undefined> {
      const [row] = await db
        .select({ siteId: table.siteId })
        .from(table)
        .where(and(eq(table.organizationId, organizationId), eq(table.id, id)))
        .limit(1);
      return row?.siteId;
    },

    /** Which of these ids are devices of this kind, whatever the organization, the trash included. */
    async known(ids: readonly string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .select({ id: table.id })
        .from(table)
        .where(inArray(table.id, [...ids]));
      return rows.map((row) => row.id);
    },

    /** Whether the device exists and is not in the trash. */
    async isActive(organizationId: string, id: string): Promise<boolean> {
      const [row] = await db.select({ id: table.id }).from(table).where(owned(organizationId, id)).limit(1);
      return row !== undefined;
    },

    async findBySerial(organizationId: string, serial: string): Promise<{ id: string; deletedAt: Date | null } | undefined> {
      const [row] = await db
        .select({ id: table.id, deletedAt: table.deletedAt })
        .from(table)
        .where(and(eq(table.organizationId, organizationId), eq(table.serial, serial)))
        .limit(1);
      return row;
    },

    /** A device of the organization by serial, or by id when the reference is a UUID. */
    async findByReference(organizationId: string, reference: string): Promise<{ id: string } | undefined> {
      const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(reference);
      const [row] = await db
        .select({ id: table.id })
        .from(table)
        .where(
          and(
            eq(table.organizationId, organizationId),
            active,
            isUuid ? sql`(${table.serial} = ${reference} or ${table.id} = ${reference}::uuid)` : eq(table.serial, reference),
          ),
        )
        .limit(1);
      return row;
    },

    async create(organizationId: string, input: NewDevice): Promise<DeviceRecord> {
      // A sensor counts towards the organization's quota: counted and inserted under the lock of its row.
      const [row] = await db.transaction(async (tx) => {
        if (kind === 'sensor') await holdQuota(tx, organizationId, 'sensors');
        return tx
          .insert(table)
          .values({
            organizationId,
            name: input.name,
            siteId: input.siteId,
            serial: input.serial ?? null,
            model: input.model ?? null,
            ...(input.inactivityTimeoutSeconds === undefined ? {} : { inactivityTimeoutSeconds: input.inactivityTimeoutSeconds }),
          })
          .returning({ id: table.id });
      });
      const created = row && (await find(organizationId, row.id));
      if (!created) throw new Error("L'appareil n'a pas été enregistré.");
      return created;
    },

    async update(organizationId: string, id: string, changes: DeviceChanges): Promise<DeviceRecord | undefined> {
      const [row] = await db
        .update(table)
        .set({
          ...(changes.name === undefined ? {} : { name: changes.name }),
          ...(changes.inactivityTimeoutSeconds === undefined ? {} : { inactivityTimeoutSeconds: changes.inactivityTimeoutSeconds }),
          ...(changes.siteId === undefined ? {} : { siteId: changes.siteId }),
          updatedAt: new Date(),
        })
        .where(owned(organizationId, id))
        .returning({ id: table.id });
      return row && find(organizationId, row.id);
    },

    /** Devices of a site, the trash included (a trashed device still belongs to its site). */
    async countInSite(organizationId: string, siteId: string): Promise<number> {
      const [row] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(table)
        .where(and(eq(table.organizationId, organizationId), eq(table.siteId, siteId)));
      return row?.count ?? 0;
    },

    // When devices were last heard from (device-contact-dal.ts).
    watched: contacts.watched,

    // The trash (device-trash-dal.ts).
    trash: trash.trash,
    restore: trash.restore,
    listTrashed: trash.listTrashed,
    expired: trash.expired,
    purge: trash.purge,

    seenSince: contacts.seenSince,
    claimOffline: contacts.claimOffline,
    touch: contacts.touch,

    async findMany(ids: string[]): Promise<(DeviceRecord & { organizationId: string })[]> {
      if (ids.length === 0) return [];
      return db
        .select({ ...columns, organizationId: table.organizationId })
        .from(table)
        .where(and(inArray(table.id, ids), active));
    },
  };
}

export type DeviceDal = ReturnType<typeof createDeviceDal>;
