import { and, eq, gt, gte, inArray, isNull, sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../db/database.ts';
import { sensors } from '../../db/schema.ts';
import type { DeviceTable } from './device-dal.ts';
import type { DeviceTouch, WatchedDevice } from './device-types.ts';

/**
 * When the devices of one table were last heard from: the contacts that ingestion records, and
 * what the alert engine, the background analysis and the offline job read of them, whatever the
 * organization (none of these is reached by a user's request).
 */
export function createDeviceContactDal(db: Database, table: DeviceTable) {
  const active = isNull(table.deletedAt);
  /** What the engine and the analysis read of a device: who it is, where, and when it was last heard. */
  const watchedColumns = {
    id: table.id,
    organizationId: table.organizationId,
    siteId: table.siteId,
    name: table.name,
    lastSeenAt: table.lastSeenAt,
    inactivityTimeoutSeconds: table.inactivityTimeoutSeconds,
  };

  return {
    /** Active devices by id or by site, whatever the organization: for the alert engine. */
    async watched(filter: { ids: string[] } | { organizationId: string; siteId: string }): Promise<WatchedDevice[]> {
      const where =
        'ids' in filter
          ? filter.ids.length === 0
            ? sql`false`
            : inArray(table.id, filter.ids)
          : and(eq(table.organizationId, filter.organizationId), eq(table.siteId, filter.siteId));
      return db.select(watchedColumns).from(table).where(and(where, active));
    },

    /**
     * Active devices heard from since `since`, whatever the organization, by id from just after
     * `after` (keyset pages): the background analysis reads them all, page by page.
     */
    async seenSince(since: Date, limit: number, after?: string): Promise<(WatchedDevice & { name: string })[]> {
      return db
        .select(watchedColumns)
        .from(table)
        .where(and(active, gte(table.lastSeenAt, since), after === undefined ? undefined : gt(table.id, after)))
        .orderBy(table.id)
        .limit(limit);
    },

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
  };
}
