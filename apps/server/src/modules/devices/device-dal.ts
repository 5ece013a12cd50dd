import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { deviceCredentials, type emitters, latestValues, readings, sensors } from '../../db/schema.ts';

export type DeviceTable = typeof emitters | typeof sensors;

export interface DeviceRecord {
  id: string;
  name: string;
  serial: string | null;
  model: string | null;
  lastSeenAt: Date | null;
  battery: number | null;
  inactivityTimeoutSeconds: number;
  createdAt: Date;
  updatedAt: Date;
  /** Only for sensors. */
  emitterId?: string | null;
  latest: Record<string, { value: number; ts: string }>;
}

export interface DeviceChanges {
  name?: string | undefined;
  inactivityTimeoutSeconds?: number | undefined;
}

/** Queries for one device table; every one of them is scoped to an organization. */
export function createDeviceDal(db: Database, table: DeviceTable) {
  const latest = sql<DeviceRecord['latest']>`coalesce((
      select json_object_agg(${latestValues.key}, json_build_object('value', ${latestValues.value}, 'ts', ${latestValues.ts}))
      from ${latestValues} where ${latestValues.deviceId} = ${table.id}
    ), '{}'::json)`;
  const columns = {
    id: table.id,
    name: table.name,
    serial: table.serial,
    model: table.model,
    lastSeenAt: table.lastSeenAt,
    battery: table.battery,
    inactivityTimeoutSeconds: table.inactivityTimeoutSeconds,
    createdAt: table.createdAt,
    updatedAt: table.updatedAt,
    ...(table === sensors ? { emitterId: sensors.emitterId } : {}),
    latest,
  };
  const owned = (organizationId: string, id: string) => and(eq(table.organizationId, organizationId), eq(table.id, id));

  return {
    list(organizationId: string): Promise<DeviceRecord[]> {
      return db.select(columns).from(table).where(eq(table.organizationId, organizationId)).orderBy(asc(table.createdAt), asc(table.id));
    },

    async find(organizationId: string, id: string): Promise<DeviceRecord | undefined> {
      const [row] = await db.select(columns).from(table).where(owned(organizationId, id)).limit(1);
      return row;
    },

    async findBySerial(organizationId: string, serial: string): Promise<{ id: string } | undefined> {
      const [row] = await db
        .select({ id: table.id })
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
            isUuid ? sql`(${table.serial} = ${reference} or ${table.id} = ${reference}::uuid)` : eq(table.serial, reference),
          ),
        )
        .limit(1);
      return row;
    },

    async create(
      organizationId: string,
      input: { name: string; serial?: string; model?: string | undefined; inactivityTimeoutSeconds?: number | undefined },
    ): Promise<DeviceRecord> {
      const [row] = await db
        .insert(table)
        .values({
          organizationId,
          name: input.name,
          serial: input.serial ?? null,
          model: input.model ?? null,
          ...(input.inactivityTimeoutSeconds === undefined ? {} : { inactivityTimeoutSeconds: input.inactivityTimeoutSeconds }),
        })
        .returning({ id: table.id });
      const created = row && (await this.find(organizationId, row.id));
      if (!created) throw new Error("L'appareil n'a pas été enregistré.");
      return created;
    },

    async update(organizationId: string, id: string, changes: DeviceChanges): Promise<DeviceRecord | undefined> {
      const [row] = await db
        .update(table)
        .set({
          ...(changes.name === undefined ? {} : { name: changes.name }),
          ...(changes.inactivityTimeoutSeconds === undefined ? {} : { inactivityTimeoutSeconds: changes.inactivityTimeoutSeconds }),
          updatedAt: new Date(),
        })
        .where(owned(organizationId, id))
        .returning({ id: table.id });
      return row && this.find(organizationId, row.id);
    },

    /** Deletes the device with its credentials, readings and latest values. */
    async remove(organizationId: string, id: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        const rows = await tx.delete(table).where(owned(organizationId, id)).returning({ id: table.id });
        if (rows.length === 0) return false;
        await tx.delete(deviceCredentials).where(eq(deviceCredentials.deviceId, id));
        await tx.delete(latestValues).where(eq(latestValues.deviceId, id));
        await tx.delete(readings).where(eq(readings.deviceId, id));
        return true;
      });
    },

    /** Devices that went silent for longer than their timeout during the last `windowSeconds`. */
    async recentlyOffline(windowSeconds: number): Promise<{ id: string; organizationId: string }[]> {
      return db
        .select({ id: table.id, organizationId: table.organizationId })
        .from(table)
        .where(
          sql`${table.lastSeenAt} is not null
            and ${table.lastSeenAt} + make_interval(secs => ${table.inactivityTimeoutSeconds}) <= now()
            and ${table.lastSeenAt} + make_interval(secs => ${table.inactivityTimeoutSeconds}) > now() - make_interval(secs => ${windowSeconds})`,
        );
    },

    async findMany(ids: string[]): Promise<(DeviceRecord & { organizationId: string })[]> {
      if (ids.length === 0) return [];
      return db
        .select({ ...columns, organizationId: table.organizationId })
        .from(table)
        .where(inArray(table.id, ids));
    },
  };
}

export type DeviceDal = ReturnType<typeof createDeviceDal>;
