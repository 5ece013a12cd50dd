import { and, asc, eq, gt, inArray, isNull, lt, lte, ne, or, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { alertPauses, alerts, notificationSchedule } from '../../db/schema.ts';

export type PauseRecord = typeof alertPauses.$inferSelect;

/** The only code that touches the pauses; every query is scoped to an organization. */
export function createPauseDal(db: Database) {
  /** A target's pauses: the sensor's own, or the site's. */
  const targetOf = (target: { sensorId: string } | { siteId: string }): SQL | undefined =>
    'sensorId' in target
      ? eq(alertPauses.sensorId, target.sensorId)
      : and(eq(alertPauses.siteId, target.siteId), isNull(alertPauses.sensorId));

  /**
   * The organization's pauses, or those that held one sensor (its own and its site's), that
   * overlap the period, oldest first: [from, to), or [from, to] with `toIncluded` (from = to: those
   * going on at that instant).
   */
  const overlapping = (
    organizationId: string,
    period: { from: Date; to: Date; toIncluded?: boolean },
    sensor?: { sensorId: string; siteId: string },
  ): Promise<PauseRecord[]> => {
    const startedBy = period.toIncluded ? lte(alertPauses.from, period.to) : lt(alertPauses.from, period.to);
    return db
      .select()
      .from(alertPauses)
      .where(
        and(
          eq(alertPauses.organizationId, organizationId),
          sensor
            ? or(eq(alertPauses.sensorId, sensor.sensorId), and(eq(alertPauses.siteId, sensor.siteId), isNull(alertPauses.sensorId)))
            : undefined,
          startedBy,
          gt(alertPauses.until, period.from),
        ),
      )
      .orderBy(asc(alertPauses.from));
  };

  return {
    /** Ends the target's pause going on (a renewal replaces it), then starts the new one. */
    async start(input: {
      organizationId: string;
      sensorId: string | null;
      siteId: string | null;
      reason: string;
      from: Date;
      until: Date;
      createdBy: string | null;
    }): Promise<PauseRecord> {
      return db.transaction(async (tx) => {
        const target = input.sensorId ? { sensorId: input.sensorId } : { siteId: input.siteId ?? '' };
        await tx
          .update(alertPauses)
          .set({ until: input.from })
          .where(and(eq(alertPauses.organizationId, input.organizationId), targetOf(target), gt(alertPauses.until, input.from)));
        const [row] = await tx.insert(alertPauses).values(input).returning();
        return row as PauseRecord;
      });
    },
    overlapping,
    /** A sensor's pauses, its own and its site's, that overlap [from, to), oldest first. */
    during(organizationId: string, sensorId: string, siteId: string, from: Date, to: Date): Promise<PauseRecord[]> {
      return overlapping(organizationId, { from, to }, { sensorId, siteId });
    },
    async get(organizationId: string, id: string): Promise<PauseRecord | undefined> {
      const [row] = await db
        .select()
        .from(alertPauses)
        .where(and(eq(alertPauses.organizationId, organizationId), eq(alertPauses.id, id)))
        .limit(1);
      return row;
    },
    /** Ends a pause now; false when it had ended already. */
    async end(organizationId: string, id: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(alertPauses)
        .set({ until: at })
        .where(and(eq(alertPauses.organizationId, organizationId), eq(alertPauses.id, id), gt(alertPauses.until, at)))
        .returning({ id: alertPauses.id });
      return rows.length > 0;
    },
    /** When the pause that holds back an alert of this sensor (or of its site) ends; null when none does at `at`. */
    async pausedUntil(organizationId: string, sensorId: string | null, siteId: string | null, at: Date): Promise<Date | null> {
      // A task's or a process's alert (no sensor) is held back by its site's pause only.
      const sitePause = siteId ? and(isNull(alertPauses.sensorId), eq(alertPauses.siteId, siteId)) : undefined;
      const which =
        sensorId === null ? sitePause : siteId ? or(eq(alertPauses.sensorId, sensorId), sitePause) : eq(alertPauses.sensorId, sensorId);
      if (!which) return null;
      const rows = await db
        .select({ until: alertPauses.until })
        .from(alertPauses)
        .where(and(eq(alertPauses.organizationId, organizationId), lte(alertPauses.from, at), gt(alertPauses.until, at), which));
      return rows.reduce<Date | null>((latest, row) => (latest === null || row.until > latest ? row.until : latest), null);
    },
    /** The active alerts of the paused target (a sensor's, or every sensor's of a site). */
    activeAlerts(organizationId: string, target: { sensorId: string } | { siteId: string }): Promise<{ id: string }[]> {
      return db
        .select({ id: alerts.id })
        .from(alerts)
        .where(
          and(
            eq(alerts.organizationId, organizationId),
            ne(alerts.status, 'resolved'),
            'sensorId' in target ? eq(alerts.sensorId, target.sensorId) : eq(alerts.siteId, target.siteId),
          ),
        );
    },
    /** These alerts are planned again at the notifier's next turn (a pause ended: what waited leaves). */
    async replan(alertIds: string[]): Promise<void> {
      if (alertIds.length > 0) await db.delete(notificationSchedule).where(inArray(notificationSchedule.alertId, alertIds));
    },
  };
}

export type PauseDal = ReturnType<typeof createPauseDal>;
