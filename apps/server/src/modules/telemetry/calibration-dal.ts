import { and, asc, desc, eq, getTableColumns, gt, inArray, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../db/database.ts';
import { latestValues, readingAdjustments, readings, sensorCalibrations } from '../../db/schema.ts';

/** A verification without its certificate's bytes. */
export type CalibrationRecord = Omit<typeof sensorCalibrations.$inferSelect, 'certificate'> & { certificateSize: number | null };
export type CalibrationInsert = Omit<typeof sensorCalibrations.$inferInsert, 'id' | 'remindedAt'>;

/** The measure a verification corrects. */
export const CALIBRATED_KEY = 'temperature';

const { certificate: _bytes, ...listed } = getTableColumns(sensorCalibrations);
/** When a verification starts correcting: its own start, or its date for those recorded before there was one. */
const startOf = sql`coalesce(${sensorCalibrations.appliesFrom}, ${sensorCalibrations.verifiedAt})`;
const columns = { ...listed, certificateSize: sql<number | null>`octet_length(${sensorCalibrations.certificate})`.mapWith(Number) };

/** The only code that touches `sensor_calibrations`. */
export function createCalibrationDal(db: Database) {
  return {
    async create(values: CalibrationInsert): Promise<CalibrationRecord> {
      const [row] = await db.insert(sensorCalibrations).values(values).returning({ id: sensorCalibrations.id });
      if (!row) throw new Error('Vérification non enregistrée.');
      const [record] = await db.select(columns).from(sensorCalibrations).where(eq(sensorCalibrations.id, row.id));
      if (!record) throw new Error('Vérification non enregistrée.');
      return record;
    },

    /** A sensor's verifications, newest first. */
    list(organizationId: string, sensorId: string): Promise<CalibrationRecord[]> {
      return db
        .select(columns)
        .from(sensorCalibrations)
        .where(and(eq(sensorCalibrations.organizationId, organizationId), eq(sensorCalibrations.sensorId, sensorId)))
        .orderBy(desc(sensorCalibrations.verifiedAt), desc(sensorCalibrations.createdAt));
    },

    /** The verifications of these sensors dated at or before `before`, in the order they take effect (oldest first). */
    ofSensors(sensorIds: readonly string[], before?: Date): Promise<CalibrationRecord[]> {
      if (sensorIds.length === 0) return Promise.resolve([]);
      return db
        .select(columns)
        .from(sensorCalibrations)
        .where(and(inArray(sensorCalibrations.sensorId, [...sensorIds]), before ? lte(sensorCalibrations.verifiedAt, before) : undefined))
        .orderBy(asc(startOf), asc(sensorCalibrations.createdAt));
    },

    /** The verifications of these sensors recorded after `after` and dated before `before`, oldest recorded first. */
    recordedAfter(sensorIds: readonly string[], after: Date, before: Date): Promise<CalibrationRecord[]> {
      if (sensorIds.length === 0) return Promise.resolve([]);
      return db
        .select(columns)
        .from(sensorCalibrations)
        .where(
          and(
            inArray(sensorCalibrations.sensorId, [...sensorIds]),
            gt(sensorCalibrations.createdAt, after),
            sql`${sensorCalibrations.verifiedAt} < ${before.toISOString()}::timestamptz`,
          ),
        )
        .orderBy(asc(sensorCalibrations.createdAt));
    },

    async certificate(
      organizationId: string,
      sensorId: string,
      id: string,
    ): Promise<{ bytes: Buffer; name: string; type: string } | undefined> {
      const [row] = await db
        .select({
          bytes: sensorCalibrations.certificate,
          name: sensorCalibrations.certificateName,
          type: sensorCalibrations.certificateType,
        })
        .from(sensorCalibrations)
        .where(
          and(
            eq(sensorCalibrations.organizationId, organizationId),
            eq(sensorCalibrations.sensorId, sensorId),
            eq(sensorCalibrations.id, id),
          ),
        );
      if (!row?.bytes || !row.name || !row.type) return undefined;
      return { bytes: row.bytes, name: row.name, type: row.type };
    },

    /**
     * A mark in the order readings are stored: every reading stored before this call has a lower
     * row id (the readings' own sequence), every one stored after a higher one.
     */
    async readingMark(): Promise<number> {
      const [row] = await rowsOf<{ mark: string }>(db, sql`select nextval(pg_get_serial_sequence('readings', 'id')) as mark`);
      return Number(row?.mark ?? 0);
    },

    /**
     * Records that the sensor's temperatures of [from, to) stored before `mark` read `delta` (°C)
     * lower from now on: a new verification's offset replaces the one they were stored with. The
     * readings are never rewritten (decision 0046); the latest value, a copy kept for dashboards,
     * follows its reading. One transaction.
     */
    async adjust(
      calibrationId: string,
      sensorId: string,
      range: { from: Date; to: Date | null },
      delta: number,
      mark: number,
    ): Promise<void> {
      if (delta === 0) return;
      const to = range.to ? sql`and l.ts < ${range.to.toISOString()}::timestamptz` : sql``;
      await db.transaction(async (tx) => {
        const t = tx as unknown as Database;
        await t
          .insert(readingAdjustments)
          .values({ sensorId, calibrationId, fromTs: range.from, toTs: range.to, belowId: mark, delta: Math.round(delta * 1000) / 1000 });
        await t.execute(sql`
          update ${latestValues} l set value = round((l.value - ${delta})::numeric, 3)::float8
          where l.device_id = ${sensorId} and l.key = ${CALIBRATED_KEY} and l.ts >= ${range.from.toISOString()}::timestamptz ${to}
            and exists (select 1 from ${readings} r where r.device_id = l.device_id and r.key = l.key and r.ts = l.ts and r.id < ${mark})`);
      });
    },

    /** Verifications whose next one falls due before `horizon` and whose reminder is not queued yet. */
    dueBefore(horizon: Date, limit = 200): Promise<CalibrationRecord[]> {
      return db
        .select(columns)
        .from(sensorCalibrations)
        .where(
          and(isNotNull(sensorCalibrations.nextDueAt), lte(sensorCalibrations.nextDueAt, horizon), isNull(sensorCalibrations.remindedAt)),
        )
        .orderBy(asc(sensorCalibrations.nextDueAt))
        .limit(limit);
    },

    /** Marks the reminder queued; false when another instance did first. */
    async markReminded(id: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(sensorCalibrations)
        .set({ remindedAt: at })
        .where(and(eq(sensorCalibrations.id, id), isNull(sensorCalibrations.remindedAt)))
        .returning({ id: sensorCalibrations.id });
      return rows.length > 0;
    },

    /** Whether the sensor has a verification later than this one (which supersedes it for reminders). */
    async superseded(sensorId: string, verifiedAt: Date): Promise<boolean> {
      const [row] = await db
        .select({ id: sensorCalibrations.id })
        .from(sensorCalibrations)
        .where(and(eq(sensorCalibrations.sensorId, sensorId), gt(sensorCalibrations.verifiedAt, verifiedAt)))
        .limit(1);
      return row !== undefined;
    },
  };
}

export type CalibrationDal = ReturnType<typeof createCalibrationDal>;
