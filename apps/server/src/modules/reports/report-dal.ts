import { and, asc, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { ReportSummary } from '@vigie/contract';
import { isUniqueViolation } from '../../db/connection-errors.ts';
import type { Database } from '../../db/database.ts';
import { reports } from '../../db/schema.ts';

/** A report as it is written once: its bytes, the JSON snapshot of its content, its summary. */
export interface NewReport {
  id: string;
  organizationId: string;
  siteId: string;
  month: string;
  createdAt: Date;
  createdBy: string | null;
  automatic: boolean;
  sha256: string;
  pdf: Buffer;
  csv: Buffer;
  content: unknown;
  summary: ReportSummary;
}

/** A report's record without its bytes, with its sign-off once there is one. */
export type ReportRecord = Omit<NewReport, 'pdf' | 'csv' | 'content'> & {
  signedBy: string | null;
  signedByName: string | null;
  signedAt: Date | null;
  signComment: string | null;
  signedSha256: string | null;
};

const columns = {
  id: reports.id,
  organizationId: reports.organizationId,
  siteId: reports.siteId,
  month: reports.month,
  createdAt: reports.createdAt,
  createdBy: reports.createdBy,
  automatic: reports.automatic,
  sha256: reports.sha256,
  summary: reports.summary,
  signedBy: reports.signedBy,
  signedByName: reports.signedByName,
  signedAt: reports.signedAt,
  signComment: reports.signComment,
  signedSha256: reports.signedSha256,
};

/** The only code that touches the `reports` table; every query a person makes is scoped to an organization. */
export function createReportDal(db: Database) {
  const owned = (organizationId: string, id: string) => and(eq(reports.organizationId, organizationId), eq(reports.id, id));

  return {
    /** The site's signed reports, the first signed first: which months a signature covers, and up to when. */
    signedOf(siteId: string): Promise<ReportRecord[]> {
      return db
        .select(columns)
        .from(reports)
        .where(and(eq(reports.siteId, siteId), isNotNull(reports.signedAt)))
        .orderBy(asc(reports.signedAt));
    },

    /** The content of the site's month's first signed report, with its record: what a later report of that month repeats. */
    async firstSigned(siteId: string, month: string): Promise<{ record: ReportRecord; content: unknown } | undefined> {
      const [row] = await db
        .select({ ...columns, content: reports.content })
        .from(reports)
        .where(and(eq(reports.siteId, siteId), eq(reports.month, month), isNotNull(reports.signedAt)))
        .orderBy(asc(reports.signedAt))
        .limit(1);
      if (!row) return undefined;
      const { content, ...record } = row;
      return { record, content };
    },

    async insert(report: NewReport): Promise<ReportRecord> {
      const [row] = await db.insert(reports).values(report).returning(columns);
      if (!row) throw new Error('Insertion du rapport sans résultat.');
      return row;
    },

    /**
     * Stores the monthly job's report unless another instance already stored that site and month's;
     * undefined then.
     */
    async insertAutomatic(report: NewReport): Promise<ReportRecord | undefined> {
      try {
        const [row] = await db.insert(reports).values(report).onConflictDoNothing().returning(columns);
        return row;
      } catch (error) {
        if (isUniqueViolation(error)) return undefined;
        throw error;
      }
    },

    /** The site's automatic report of the month, if it was made. */
    async automaticOf(siteId: string, month: string): Promise<ReportRecord | undefined> {
      const [row] = await db
        .select(columns)
        .from(reports)
        .where(and(eq(reports.siteId, siteId), eq(reports.month, month), eq(reports.automatic, true)))
        .limit(1);
      return row;
    },

    list(organizationId: string, siteId?: string): Promise<ReportRecord[]> {
      return db
        .select(columns)
        .from(reports)
        .where(and(eq(reports.organizationId, organizationId), siteId ? eq(reports.siteId, siteId) : undefined))
        .orderBy(desc(reports.month), desc(reports.createdAt), desc(reports.id))
        .limit(1000);
    },

    async find(organizationId: string, id: string): Promise<ReportRecord | undefined> {
      const [row] = await db.select(columns).from(reports).where(owned(organizationId, id)).limit(1);
      return row;
    },

    async file(
      organizationId: string,
      id: string,
      format: 'pdf' | 'csv' | 'signed.pdf',
    ): Promise<{ record: ReportRecord; bytes: Buffer | null } | undefined> {
      const [row] = await db
        .select({ ...columns, bytes: format === 'pdf' ? reports.pdf : format === 'csv' ? reports.csv : reports.signedPdf })
        .from(reports)
        .where(owned(organizationId, id))
        .limit(1);
      if (!row) return undefined;
      const { bytes, ...record } = row;
      return { record, bytes };
    },

    /** The content snapshot a report was made from (to lay out its signed copy). */
    async content(organizationId: string, id: string): Promise<unknown> {
      const [row] = await db.select({ content: reports.content }).from(reports).where(owned(organizationId, id)).limit(1);
      return row?.content;
    },

    /** Records the sign-off once: undefined when the report is already signed (or not this organization's). */
    async sign(
      organizationId: string,
      id: string,
      signature: { by: string; byName: string; at: Date; comment: string | null; signedPdf: Buffer; signedSha256: string },
    ): Promise<ReportRecord | undefined> {
      const [row] = await db
        .update(reports)
        .set({
          signedBy: signature.by,
          signedByName: signature.byName,
          signedAt: signature.at,
          signComment: signature.comment,
          signedPdf: signature.signedPdf,
          signedSha256: signature.signedSha256,
        })
        .where(and(owned(organizationId, id), isNull(reports.signedAt)))
        .returning(columns);
      return row;
    },
  };
}

export type ReportDal = ReturnType<typeof createReportDal>;
