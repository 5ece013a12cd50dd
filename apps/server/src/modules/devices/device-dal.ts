import { and, asc, desc, eq, gt, gte, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../db/database.ts';
import type { DeviceKind, DeviceStatus } from '@vigie/contract';
import { emitters, sensors } from '../../db/schema.ts';
import type { DeviceChanges, DeviceRecord, DeviceTouch, NewDevice, TrashedRecord, WatchedDevice } from './device-types.ts';

export type DeviceTable = typeof emitters | typeof sensors;

/**
 * The only code that touches one device table (emitters or sensors). Every query a user can
 * reach is scoped to an organization, and only the trash functions see trashed devices.
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

    async find(organizationId: string, id: string): Promise<DeviceRecord | undefined> {
      const [row] = await db.select(columns).from(table).where(owned(organizationId, id)).limit(1);
      return row;
    },

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
      const [row] = await db
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
          ...(changes.siteId === undefined ? {} : { siteId: changes.siteId }),
          updatedAt: new Date(),
        })
        .where(owned(organizationId, id))
        .returning({ id: table.id });
      return row && this.find(organizationId, row.id);
    },

    /** Devices of a site, the trash included (a trashed device still belongs to its site). */
    async countInSite(organizationId: string, siteId: string): Promise<number> {
      const [row] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(table)
        .where(and(eq(table.organizationId, organizationId), eq(table.siteId, siteId)));
      return row?.count ?? 0;
    },

    /** Active devices by id or by site, whatever the organization: for the alert engine. */
    async watched(filter: { ids: string[] } | { organizationId: string; siteId: string }): Promise<WatchedDevice[]> {
      const where =
        'ids' in filter
          ? filter.ids.length === 0
            ? sql`false`
            : inArray(table.id, filter.ids)
          : and(eq(table.organizationId, filter.organizationId), eq(table.siteId, filter.siteId));
      return db
        .select({
          id: table.id,
          organizationId: table.organizationId,
          siteId: table.siteId,
          name: table.name,
          lastSeenAt: table.lastSeenAt,
          inactivityTimeoutSeconds: table.inactivityTimeoutSeconds,
        })
        .from(table)
        .where(and(where, active));
    },

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
      return row && this.find(organizationId, row.id);
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

    /**
     * Active devices heard from since `since`, whatever the organization, by id from just after
     * `after` (keyset pages): the background analysis reads them all, page by page.
     */
    async seenSince(since: Date, limit: number, after?: string): Promise<(WatchedDevice & { name: string })[]> {
      return db
        .select({
          id: table.id,
          organizationId: table.organizationId,
          siteId: table.siteId,
          name: table.name,
          lastSeenAt: table.lastSeenAt,
          inactivityTimeoutSeconds: table.inactivityTimeoutSeconds,
        })
        .from(table)
        .where(and(active, gte(table.lastSeenAt, since), after === undefined ? undefined : gt(table.id, after)))
        .orderBy(table.id)
        .limit(limit);
    },

    /** Devices that went silent for longer than their timeout during the last `windowSeconds`. */
    /**
     * Claims the devices whose silence has just passed their inactivity timeout and was not
     * announced yet: the update locks each row, so of several instances running the job at once,
     * one claims it and the others see it claimed. A device heard from again can be claimed anew.
     */
    async claimOffline(): Promise<{ id: string; organizationId: string }[]> {
      return db
        .update(table)
        .set({ offlineAnnouncedAt: sql`now()` })
        .where(
          sql`${table.deletedAt} is null
            and ${table.lastSeenAt} is not null
            and ${table.lastSeenAt} + make_interval(secs => ${table.inactivityTimeoutSeconds}) <= now()
            and (${table.offlineAnnouncedAt} is null or ${table.offlineAnnouncedAt} < ${table.lastSeenAt})`,
        )
        .returning({ id: table.id, organizationId: table.organizationId });
    },

    /**
     * Marks devices as heard from now (battery and transmitter kept when not reported), in one
     * statement locking rows in id order, so concurrent batches cannot deadlock. Answers the
     * organizations of the sensors that came through another transmitter than before.
     *
     * The stored last contact is kept to the second: a device heard again within a second of its
     * stored time is not rewritten unless its battery or transmitter changed (a device sending
     * ten messages a second would otherwise write its row ten times). Memory keeps the exact time.
     */
    async touch(touches: DeviceTouch[]): Promise<string[]> {
      if (touches.length === 0) return [];
      const json = JSON.stringify(
        [...touches].sort((a, b) => (a.deviceId < b.deviceId ? -1 : 1)).map((t) => ({ i: t.deviceId, b: t.battery, e: t.emitterId })),
      );
      // The reported values under their columns' names (the JSON keys are one letter: less to parse).
      const reported = sql`(select i as id, b as battery, e as emitter_id from json_to_recordset(${json}::json) as r(i uuid, b real, e uuid))`;
      const rewritten = sql`(d.last_seen_at is null or d.last_seen_at <= now() - interval '1 second'
        or (v.battery is not null and v.battery is distinct from d.battery))`;
      // Transmitters, and sensors heard directly: no transmitter to compare.
      if (table !== sensors || !touches.some((touch) => touch.emitterId)) {
        await db.execute(
          sql`update ${table} d set last_seen_at = now(), battery = coalesce(v.battery, d.battery)
              from ${reported} v where d.id = v.id and ${rewritten}`,
        );
        return [];
      }
      // Every part of the statement reads the rows as they were before it: \`moved\` compares the old transmitter.
      const moved = await rowsOf<{ organization_id: string }>(
        db,
        sql`with v as ${reported},
            moved as (
              select distinct d.organization_id from ${sensors} d join v on d.id = v.id
              where v.emitter_id is not null and d.emitter_id is distinct from v.emitter_id
            ),
            touched as (
              update ${sensors} d set last_seen_at = now(), battery = coalesce(v.battery, d.battery), emitter_id = coalesce(v.emitter_id, d.emitter_id)
              from v where d.id = v.id
                and (${rewritten} or (v.emitter_id is not null and v.emitter_id is distinct from d.emitter_id))
            )
            select organization_id from moved`,
      );
      return moved.map((row) => row.organization_id);
    },

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
