import { createHash } from 'node:crypto';
import { CERTIFICATE_MAX_BYTES, type Calibration, type CertificateType, type CreateCalibrationRequest } from '@vigie/contract';
import type { Database } from '../../db/database.ts';
import { badRequest, notFound } from '../../errors.ts';
import type { EventHub } from '../events/event-hub.ts';
import { CALIBRATED_KEY, type CalibrationRecord, createCalibrationDal } from './calibration-dal.ts';

const DAY_MS = 24 * 3600 * 1000;
/** How far back a verification may be dated: a month (the certificate comes by post). */
const MAX_AGE_MS = 31 * DAY_MS;
const CLOCK_SKEW_MS = 60_000;
/** The people in charge are reminded this long before a verification falls due. */
export const REMINDER_DAYS = 30;
/** How long an instance trusts what it read of a sensor's verifications (the bus makes it forget sooner). */
const CORRECTIONS_TTL_MS = 5_000;

/** The first bytes of each accepted certificate type. */
const MAGIC: Record<CertificateType, number[]> = {
  'application/pdf': [0x25, 0x50, 0x44, 0x46, 0x2d],
  'image/png': [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  'image/jpeg': [0xff, 0xd8, 0xff],
};

export function toCalibration(record: CalibrationRecord): Calibration {
  return {
    id: record.id,
    sensorId: record.sensorId,
    verifiedAt: record.verifiedAt.toISOString(),
    method: record.method,
    offset: record.measuredOffset,
    nextDueAt: record.nextDueAt?.toISOString() ?? null,
    note: record.note,
    certificate:
      record.certificateName && record.certificateType && record.certificateSha256
        ? {
            fileName: record.certificateName,
            contentType: record.certificateType as CertificateType,
            size: record.certificateSize ?? 0,
            sha256: record.certificateSha256,
          }
        : null,
    by: { id: record.recordedBy, name: record.recordedByName },
    createdAt: record.createdAt.toISOString(),
    appliesFrom: startOf(record).toISOString(),
    amendedPeriod:
      startOf(record).getTime() > record.verifiedAt.getTime()
        ? { from: record.verifiedAt.toISOString(), to: startOf(record).toISOString() }
        : null,
  };
}

/** When a verification starts correcting: past the signed periods it fell in when recorded; its date for older ones. */
export function startOf(record: Pick<CalibrationRecord, 'appliesFrom' | 'verifiedAt'>): Date {
  return record.appliesFrom ?? record.verifiedAt;
}

/** When each offset starts, oldest first: the offset at `ts` is the last one started at or before it. */
type Corrections = readonly { from: number; offset: number }[];

export function offsetAt(corrections: Corrections, ts: number): number {
  let offset = 0;
  for (const entry of corrections) {
    if (entry.from > ts) break;
    offset = entry.offset;
  }
  return offset;
}

/** Decodes and checks a certificate: its type by its first bytes, its size. */
function certificateBytes(upload: NonNullable<CreateCalibrationRequest['certificate']>): Buffer {
  const bytes = Buffer.from(upload.data, 'base64');
  if (bytes.length === 0) throw badRequest('Le certificat est vide.');
  if (bytes.length > CERTIFICATE_MAX_BYTES) throw badRequest('Le certificat dépasse 2 Mo.');
  const magic = MAGIC[upload.contentType];
  if (!magic.every((byte, index) => bytes[index] === byte)) {
    throw badRequest('Le contenu du certificat ne correspond pas à son type (PDF, PNG ou JPEG).');
  }
  return bytes;
}

/**
 * A sensor's verification register (docs/api.md, Vérifications des capteurs): the verifications,
 * their certificates, the corrections they set on the sensor's temperatures — applied as readings
 * are stored, and to those already stored since the verification — and the reminders of the next.
 */
export function createCalibrationService(deps: {
  db: Database;
  now: () => Date;
  events: EventHub;
  /** Throws the 404 of a sensor the organization does not have (or has in the trash). */
  assertSensor: (organizationId: string, sensorId: string) => Promise<void>;
  /**
   * The end of the time from `at` on that signed reports of the sensor's shop cover without a
   * break (`at` itself when none does): a verification never corrects a signed period.
   */
  signedUntil?: (organizationId: string, sensorId: string, at: Date) => Promise<Date>;
}) {
  const dal = createCalibrationDal(deps.db);
  const cache = new Map<string, { corrections: Corrections; expires: number }>();
  const forget = (sensorId: string) => cache.delete(sensorId);
  deps.events.subscribeAll((event) => {
    if (event.type === 'calibration-changed') forget(event.data.sensorId);
  });

  const correctionsOf = (records: readonly CalibrationRecord[]): Corrections =>
    records.map((record) => ({ from: startOf(record).getTime(), offset: record.measuredOffset }));

  return {
    async create(
      organizationId: string,
      sensorId: string,
      by: { id: string; name: string },
      input: CreateCalibrationRequest,
    ): Promise<Calibration> {
      await deps.assertSensor(organizationId, sensorId);
      const now = deps.now();
      const verifiedAt = new Date(input.verifiedAt);
      if (verifiedAt.getTime() > now.getTime() + CLOCK_SKEW_MS) throw badRequest('Une vérification ne peut pas être datée dans le futur.');
      if (now.getTime() - verifiedAt.getTime() > MAX_AGE_MS) throw badRequest('Une vérification se note dans les 31 jours qui la suivent.');
      const nextDueAt = input.nextDueAt ? new Date(input.nextDueAt) : null;
      if (nextDueAt && nextDueAt.getTime() <= verifiedAt.getTime()) {
        throw badRequest('La prochaine vérification doit suivre celle-ci.');
      }
      const certificate = input.certificate ? certificateBytes(input.certificate) : null;
      const offset = Math.round(input.offset * 100) / 100;

      // Dated inside a signed period, it applies from that period's end: the signed record stays as signed.
      const signedEnd = deps.signedUntil ? await deps.signedUntil(organizationId, sensorId, verifiedAt) : verifiedAt;
      const appliesFrom = new Date(
        Math.min(Math.max(signedEnd.getTime(), verifiedAt.getTime()), Math.max(now.getTime(), verifiedAt.getTime())),
      );

      const before = await dal.ofSensors([sensorId]);
      const previous = offsetAt(correctionsOf(before), appliesFrom.getTime());
      const next = before.find((record) => startOf(record).getTime() > appliesFrom.getTime());
      const record = await dal.create({
        organizationId,
        sensorId,
        verifiedAt,
        appliesFrom,
        method: input.method,
        measuredOffset: offset,
        nextDueAt,
        note: input.note ?? null,
        certificate,
        certificateName: input.certificate?.fileName ?? null,
        certificateType: input.certificate?.contentType ?? null,
        certificateSha256: certificate ? createHash('sha256').update(certificate).digest('hex') : null,
        recordedBy: by.id,
        recordedByName: by.name,
        createdAt: now,
      });
      // Readings stored from here on are corrected by every instance once it has heard; those
      // stored before (below the mark) are read corrected from the adjustment recorded here,
      // never rewritten.
      const mark = await dal.readingMark();
      forget(sensorId);
      await deps.events.publishHeard([{ organizationId, type: 'calibration-changed', data: { sensorId } }]);
      const delta = offset - previous;
      await dal.adjust(record.id, sensorId, { from: appliesFrom, to: next ? startOf(next) : null }, delta, mark);
      if (delta !== 0) deps.events.publish([{ organizationId, type: 'devices-changed', data: { kind: 'sensor' } }]);
      return toCalibration(record);
    },

    async list(organizationId: string, sensorId: string): Promise<Calibration[]> {
      await deps.assertSensor(organizationId, sensorId);
      return (await dal.list(organizationId, sensorId)).map(toCalibration);
    },

    async certificate(organizationId: string, sensorId: string, id: string) {
      const file = await dal.certificate(organizationId, sensorId, id);
      if (!file) throw notFound('Certificat introuvable.');
      return file;
    },

    /** Each sensor's last verification at or before `before`. */
    async lastOf(sensorIds: readonly string[], before: Date): Promise<Map<string, Calibration>> {
      const last = new Map<string, Calibration>();
      for (const record of await dal.ofSensors(sensorIds, before)) last.set(record.sensorId, toCalibration(record));
      return last;
    },

    /**
     * Corrects the temperatures of readings about to be stored, in place: each by the offset of
     * its sensor's verification in force at its time. Returns the same rows.
     */
    async correct<R extends { deviceId: string; key: string; ts: Date; value: number }>(rows: R[]): Promise<R[]> {
      const now = Date.now();
      const missing = new Set<string>();
      for (const row of rows) {
        if (row.key !== CALIBRATED_KEY) continue;
        const cached = cache.get(row.deviceId);
        if (!cached || cached.expires <= now) missing.add(row.deviceId);
      }
      if (missing.size > 0) {
        const records = await dal.ofSensors([...missing]);
        if (cache.size > 10_000) cache.clear();
        for (const sensorId of missing) {
          cache.set(sensorId, {
            corrections: correctionsOf(records.filter((record) => record.sensorId === sensorId)),
            expires: now + CORRECTIONS_TTL_MS,
          });
        }
      }
      for (const row of rows) {
        if (row.key !== CALIBRATED_KEY) continue;
        const offset = offsetAt(cache.get(row.deviceId)?.corrections ?? [], row.ts.getTime());
        if (offset !== 0) row.value = Math.round((row.value - offset) * 1000) / 1000;
      }
      return rows;
    },

    /** The offset a stored temperature of this sensor at `ts` was corrected by (the CSV's raw column); null when never verified. */
    async offsetsOf(sensorId: string): Promise<((ts: Date) => number) | null> {
      const corrections = correctionsOf(await dal.ofSensors([sensorId]));
      return corrections.length === 0 ? null : (ts) => offsetAt(corrections, ts.getTime());
    },

    /** Verifications falling due within REMINDER_DAYS (or past due) and not reminded yet, the latest of each sensor only. */
    async dueForReminder(): Promise<{ organizationId: string; calibration: Calibration }[]> {
      const horizon = new Date(deps.now().getTime() + REMINDER_DAYS * DAY_MS);
      const due: { organizationId: string; calibration: Calibration }[] = [];
      for (const record of await dal.dueBefore(horizon)) {
        // A later verification has its own due date: this one's is moot.
        if (await dal.superseded(record.sensorId, record.verifiedAt)) await dal.markReminded(record.id, deps.now());
        else due.push({ organizationId: record.organizationId, calibration: toCalibration(record) });
      }
      return due;
    },

    markReminded: (id: string) => dal.markReminded(id, deps.now()),

    /** Verifications of these sensors recorded after `after` and dated before `before` (a signed report's amendments). */
    async recordedAfter(sensorIds: readonly string[], after: Date, before: Date): Promise<Calibration[]> {
      return (await dal.recordedAfter(sensorIds, after, before)).map(toCalibration);
    },
  };
}

export type CalibrationService = ReturnType<typeof createCalibrationService>;
