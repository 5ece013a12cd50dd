import { z } from 'zod';
import { isoDateTimeSchema, uuidSchema } from './common.ts';
import { taskCountsSchema } from './tasks.ts';
import { hasOverloadedCharacter, OVERLOADED_CHARACTER_MESSAGE } from './text.ts';

/** A calendar month `YYYY-MM`, read on the site's own wall clock. */
export const reportMonthSchema = z
  .string({ error: 'Le mois doit être une chaîne « AAAA-MM », par exemple « 2026-11 ».' })
  .regex(/^(?:19|20|21)\d{2}-(?:0[1-9]|1[0-2])$/, { error: 'Le mois doit être au format « AAAA-MM », par exemple « 2026-11 ».' });

export const createReportRequestSchema = z.strictObject(
  { siteId: uuidSchema, month: reportMonthSchema },
  { error: 'Indiquez le site (siteId) et le mois (month, « AAAA-MM »).' },
);
export type CreateReportRequest = z.infer<typeof createReportRequestSchema>;

export const REPORT_COMMENT_MAX_LENGTH = 1000;

export const signReportRequestSchema = z.strictObject(
  {
    comment: z
      .string({ error: 'Le commentaire doit être un texte.' })
      .trim()
      .max(REPORT_COMMENT_MAX_LENGTH, { error: `Le commentaire ne doit pas dépasser ${REPORT_COMMENT_MAX_LENGTH} caractères.` })
      .refine((value) => !hasOverloadedCharacter(value), { error: OVERLOADED_CHARACTER_MESSAGE })
      .optional(),
  },
  { error: 'Corps invalide : { "comment": "…" } facultatif est attendu.' },
);
export type SignReportRequest = z.infer<typeof signReportRequestSchema>;

export const reportListQuerySchema = z.strictObject({ siteId: uuidSchema.optional() });

/** The consolidated report of a month: the chain (the shops one sees), or one region. */
export const consolidatedReportQuerySchema = z.strictObject({ month: reportMonthSchema, regionId: uuidSchema.optional() });
export type ConsolidatedReportQuery = z.infer<typeof consolidatedReportQuerySchema>;

/** One unit (sensor) of a report, as its first page sums it up. */
export const reportUnitSummarySchema = z.object({
  sensorId: uuidSchema,
  name: z.string(),
  /** The limits the unit is held to; null when no rule sets any (no compliance figure then). */
  min: z.number().nullable(),
  max: z.number().nullable(),
  /** Share of the period within limits, in percent of the whole period (a blank is not compliant); null without limits. */
  compliancePercent: z.number().nullable(),
  inRangeSeconds: z.number(),
  outOfRangeSeconds: z.number(),
  noDataSeconds: z.number(),
  /** Excursions listed: at least as long as the alert delay of the unit's rules, or that raised an alert. */
  excursionCount: z.number().int(),
  excursionSeconds: z.number(),
  /** Shorter rises the rules tolerate (a door opened, a defrost): counted, not listed, still out of limits. */
  briefExcursionCount: z.number().int(),
  briefExcursionSeconds: z.number(),
  /** Alerts of the unit still open or acknowledged when the report was made. */
  openItems: z.number().int(),
});
export type ReportUnitSummary = z.infer<typeof reportUnitSummarySchema>;

/** What the report's first page says: enough for a preview. */
export const reportSummarySchema = z.object({
  siteName: z.string(),
  timezone: z.string(),
  /** The period covered: the month on the site's clock, cut at the report's making for the current month. */
  from: isoDateTimeSchema,
  to: isoDateTimeSchema,
  units: z.array(reportUnitSummarySchema),
  excursionCount: z.number().int(),
  excursionSeconds: z.number(),
  briefExcursionCount: z.number().int(),
  noDataSeconds: z.number(),
  openItems: z.number().int(),
  /**
   * The food-safety plan's tasks due in the period (docs/api.md, Plan de maîtrise sanitaire): done
   * in their window, late (within their grace), missed, and those answered out of their limits;
   * absent in reports made before the plan existed.
   */
  tasks: taskCountsSchema.optional(),
});
export type ReportSummary = z.infer<typeof reportSummarySchema>;

/** docs/api.md, Rapports: a report never changes after it is made; signing adds who and when beside it. */
export const reportSchema = z.object({
  id: uuidSchema,
  siteId: uuidSchema,
  month: reportMonthSchema,
  createdAt: isoDateTimeSchema,
  /** SHA-256 (hex) of the PDF's bytes, as served by `endpoints.reports.pdf`. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** Made by the monthly job (true) or on demand (false). */
  automatic: z.boolean(),
  createdBy: uuidSchema.nullable(),
  signedBy: uuidSchema.nullable(),
  signedByName: z.string().nullable(),
  signedAt: isoDateTimeSchema.nullable(),
  signComment: z.string().nullable(),
  /** SHA-256 (hex) of the signed PDF (signature block filled), as served by `endpoints.reports.signedPdf`; null before signing. */
  signedSha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
  summary: reportSummarySchema,
});
export type Report = z.infer<typeof reportSchema>;

export const reportResponseSchema = z.object({ report: reportSchema });
export const reportListResponseSchema = z.object({ reports: z.array(reportSchema) });

/** The live stream's `report` event: a report was made (by a person or by the monthly job) or signed. */
export const reportStreamEventSchema = z.object({
  action: z.enum(['created', 'signed']),
  report: reportSchema,
});
export type ReportStreamEvent = z.infer<typeof reportStreamEventSchema>;
