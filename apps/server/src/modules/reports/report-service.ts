import { createHash, randomUUID } from 'node:crypto';
import type { CreateReportRequest, Report, Site } from '@vigie/contract';
import type { Logger } from 'pino';
import { isDatabaseUnavailable } from '../../db/connection-errors.ts';
import type { Database } from '../../db/database.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { buildAmendedContent, buildReportContent, type ReportSources } from './report-builder.ts';
import type { ReportContent, ReportSignature } from './report-content.ts';
import { createReportDal, type ReportRecord } from './report-dal.ts';
import { localMonth, monthOf, previousMonth } from '../../lib/local-time.ts';
import type { ReportRenderer } from './report-renderer.ts';

export const REPORT_NOT_FOUND = 'Rapport introuvable.';
const NOT_FOUND = REPORT_NOT_FOUND;
/** After midnight on the 1st, a quarter of an hour for readings a transmitter queued to arrive. */
const MONTHLY_GRACE_MS = 15 * 60_000;

export type ReportAction = 'created' | 'signed';

/** How long after a monthly report is made its e-mails are queued again at each run, should the first queueing have been lost. */
const TELL_AGAIN_MS = 24 * 3600_000;

export function toReport(record: ReportRecord): Report {
  return {
    id: record.id,
    siteId: record.siteId,
    month: record.month,
    createdAt: record.createdAt.toISOString(),
    sha256: record.sha256,
    automatic: record.automatic,
    createdBy: record.createdBy,
    signedBy: record.signedBy,
    signedByName: record.signedByName,
    signedAt: record.signedAt?.toISOString() ?? null,
    signComment: record.signComment,
    signedSha256: record.signedSha256,
    summary: record.summary,
  };
}

/**
 * HACCP compliance reports (docs/api.md, Rapports): made from the data as it stands, on demand or by the
 * monthly job, stored once with the SHA-256 of their PDF, signed once.
 */
export function createReportService(
  deps: ReportSources & {
    db: Database;
    now: () => Date;
    site: (organizationId: string, siteId: string) => Promise<Site>;
    sites: () => AsyncIterable<Site & { organizationId: string; createdAt: Date }>;
    publish: (organizationId: string, action: ReportAction, report: Report) => void;
    /**
     * Told of a monthly report made by the job, to e-mail it to the site's people. Told again at
     * each run for a day after (under the same idempotency keys, nothing is sent twice): an
     * instance that stopped between making it and queueing the e-mails is made good by the next.
     */
    made?: (site: Site & { organizationId: string }, report: Report) => Promise<void>;
    renderer: ReportRenderer;
    logger: Pick<Logger, 'error'>;
  },
) {
  const dal = createReportDal(deps.db);

  async function contentOf(organizationId: string, site: Site, month: string, by: { id: string; name: string } | null, id: string) {
    const now = deps.now();
    // A month already signed keeps its signed figures; what came later is listed beside them.
    const signed = await dal.firstSigned(site.id, month);
    return signed
      ? await buildAmendedContent(
          deps,
          { reportId: id, organizationId, site, now, createdByName: by?.name ?? null },
          { content: signed.content as ReportContent, record: signed.record },
        )
      : await buildReportContent(deps, { reportId: id, organizationId, site, month, now, createdByName: by?.name ?? null });
  }

  async function make(
    organizationId: string,
    site: Site,
    month: string,
    by: { id: string; name: string } | null,
    automatic: boolean,
    made?: { id: string; content: ReportContent },
  ) {
    const id = made?.id ?? randomUUID();
    const content = made?.content ?? (await contentOf(organizationId, site, month, by, id));
    // Laid out in a worker thread within a time budget: the server keeps answering meanwhile.
    const { pdf, csv } = await deps.renderer.render(content);
    return {
      id,
      organizationId,
      siteId: site.id,
      month,
      createdAt: new Date(content.createdAt),
      createdBy: by?.id ?? null,
      automatic,
      sha256: createHash('sha256').update(pdf).digest('hex'),
      pdf,
      csv,
      content,
      summary: content.summary,
    };
  }

  return {
    async create(organizationId: string, by: { id: string; name: string }, request: CreateReportRequest): Promise<Report> {
      const site = await deps.site(organizationId, request.siteId);
      if (request.month > localMonth(deps.now().getTime(), site.timezone)) {
        throw badRequest('Ce mois n’a pas encore commencé : choisissez le mois en cours ou un mois passé.');
      }
      const report = toReport(await dal.insert(await make(organizationId, site, request.month, by, false)));
      deps.publish(organizationId, 'created', report);
      return report;
    },

    /**
     * The end of the time from `at` on that the site's signed reports cover without a break:
     * each signed month up to its end, or up to when its report was made if it was made before.
     * `at` itself when no signed report covers it.
     */
    async signedUntil(siteId: string, at: Date): Promise<Date> {
      const signed = await dal.signedOf(siteId);
      if (signed.length === 0) return at;
      const timezone = (signed.at(-1) as ReportRecord).summary.timezone;
      const covered = new Map<string, number>();
      for (const report of signed) {
        const period = monthOf(report.month, timezone);
        covered.set(report.month, Math.max(covered.get(report.month) ?? 0, Math.min(period.to, report.createdAt.getTime())));
      }
      let until = at.getTime();
      for (;;) {
        const month = localMonth(until, timezone);
        const end = covered.get(month);
        if (end === undefined || end <= until) break;
        until = end;
      }
      return new Date(until);
    },

    async list(organizationId: string, siteId?: string): Promise<Report[]> {
      return (await dal.list(organizationId, siteId)).map(toReport);
    },

    async get(organizationId: string, id: string): Promise<Report> {
      const record = await dal.find(organizationId, id);
      if (!record) throw notFound(NOT_FOUND);
      return toReport(record);
    },

    async file(organizationId: string, id: string, format: 'pdf' | 'csv' | 'signed.pdf'): Promise<{ report: Report; bytes: Buffer }> {
      const found = await dal.file(organizationId, id, format);
      if (!found) throw notFound(NOT_FOUND);
      if (!found.bytes) throw notFound('Ce rapport n’est pas encore signé : son PDF signé n’existe pas encore.');
      return { report: toReport(found.record), bytes: found.bytes };
    },

    /**
     * Signs the report once: its signed copy (the same content, the « Visa » block filled with who,
     * their role, when and their comment, and what they were told) is laid out and stored with its
     * SHA-256; the original PDF stays as it was.
     */
    async sign(
      organizationId: string,
      id: string,
      by: { id: string; name: string; role: string },
      comment: string | undefined,
    ): Promise<Report> {
      const existing = await dal.find(organizationId, id);
      if (!existing) throw notFound(NOT_FOUND);
      if (existing.signedAt) throw conflict(`Ce rapport est déjà signé par ${existing.signedByName ?? 'un membre'}.`);
      const content = (await dal.content(organizationId, id)) as ReportContent;
      const at = deps.now();
      const notes: string[] = [];
      if (localMonth(at.getTime(), content.timezone) <= existing.month) {
        notes.push('Signé avant la fin du mois\u00a0: le rapport ne couvre que les jours écoulés à sa création.');
      }
      if (existing.summary.openItems > 0) {
        notes.push(
          `${existing.summary.openItems} point${existing.summary.openItems > 1 ? 's' : ''} encore ouvert${existing.summary.openItems > 1 ? 's' : ''} à la création du rapport.`,
        );
      }
      const signature: ReportSignature = { name: by.name, role: by.role, at: at.toISOString(), comment: comment || null, notes };
      const { pdf: signedPdf } = await deps.renderer.render({ ...content, signature });
      const signedSha256 = createHash('sha256').update(signedPdf).digest('hex');
      const signed = await dal.sign(organizationId, id, {
        by: by.id,
        byName: by.name,
        at,
        comment: comment || null,
        signedPdf,
        signedSha256,
      });
      if (!signed) {
        const existing = await dal.find(organizationId, id);
        if (!existing) throw notFound(NOT_FOUND);
        throw conflict(`Ce rapport est déjà signé par ${existing.signedByName ?? 'un membre'}.`);
      }
      const report = toReport(signed);
      deps.publish(organizationId, 'signed', report);
      return report;
    },

    /**
     * The monthly job: the report of the month just ended for every site that has something of it
     * to report, on the site's own clock from 00:15 on the 1st, once per site and month whatever the
     * number of instances (the database keeps one). Returns the reports this instance made.
     */
    async makeMonthly(): Promise<Report[]> {
      const made: Report[] = [];
      const now = deps.now();
      for await (const site of deps.sites()) {
        const current = localMonth(now.getTime(), site.timezone);
        // A quarter of an hour's grace after midnight on the 1st: readings a transmitter queued arrive first.
        if (now.getTime() - monthOf(current, site.timezone).from < MONTHLY_GRACE_MS) continue;
        const month = previousMonth(current);
        try {
          const existing = await dal.automaticOf(site.id, month);
          if (existing) {
            if (now.getTime() - existing.createdAt.getTime() < TELL_AGAIN_MS) await deps.made?.(site, toReport(existing));
            continue;
          }
          // A site created after that month has a report for it only if something of that month is
          // recorded there: the demo shop seeded on the 1st with its week of history, sensors moved in.
          let prepared: { id: string; content: ReportContent } | undefined;
          if (localMonth(site.createdAt.getTime(), site.timezone) > month) {
            const id = randomUUID();
            const content = await contentOf(site.organizationId, site, month, null, id);
            const planned = (content.plan?.tasks.length ?? 0) + (content.plan?.processes.length ?? 0);
            if (!content.units.some((unit) => unit.readingCount > 0) && (content.checks ?? []).length === 0 && planned === 0) continue;
            prepared = { id, content };
          }
          const stored = await dal.insertAutomatic(await make(site.organizationId, site, month, null, true, prepared));
          if (!stored) continue;
          const report = toReport(stored);
          deps.publish(site.organizationId, 'created', report);
          made.push(report);
          await deps.made?.(site, report);
        } catch (error) {
          // One site's failure never holds back the others; the next run tries it again.
          if (isDatabaseUnavailable(error)) throw error;
          deps.logger.error({ err: error, siteId: site.id, month }, 'Rapport mensuel non établi');
        }
      }
      return made;
    },
  };
}

export type ReportService = ReturnType<typeof createReportService>;
