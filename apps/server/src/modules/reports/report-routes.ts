import { endpoints, ROLE_LABELS, type Report } from '@vigie/contract';
import type { AuditSubject } from '../audit/audit-service.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ReportService } from './report-service.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';
import { siteInScope, sitesOf, withinScope } from '../../plugins/scope.ts';

/** The file name a report downloads as: `rapport-haccp_<site>_<month>.<ext>`, safe on every system. */
function fileName(siteName: string, month: string, extension: 'pdf' | 'csv'): string {
  const safe = siteName
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
  return `rapport-haccp_${safe || 'site'}_${month}.${extension}`;
}

/** docs/api.md, Rapports: HACCP compliance reports of the caller's organization. */
/** A report as the audit trail names it: its site and month. */
const reportSubject = (report: Report): AuditSubject => ({
  type: 'report',
  id: report.id,
  name: `${report.summary.siteName} — ${report.month}`,
});

export const reportRoutes: FastifyPluginAsyncZod<{
  reports: ReportService;
  consolidated: (
    organizationId: string,
    siteIds: ReadonlySet<string> | null,
    query: { month: string; regionId?: string | undefined },
  ) => Promise<{ pdf: Buffer; fileName: string }>;
}> = async (app, { reports, consolidated }) => {
  const organizationOf = (request: Parameters<typeof currentUser>[0]) => currentUser(request).organization.id;

  app.route({
    ...route(endpoints.reports.consolidated),
    handler: async (request, reply) => {
      const { pdf, fileName } = await consolidated(organizationOf(request), await sitesOf(request), request.query);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  });

  app.route({
    ...route(endpoints.reports.list),
    handler: async (request) => ({
      reports: withinScope(
        await sitesOf(request),
        await reports.list(organizationOf(request), request.query.siteId),
        (report) => report.siteId,
      ),
    }),
  });

  app.route({
    ...route(endpoints.reports.create),
    handler: async (request, reply) => {
      const user = currentUser(request);
      await siteInScope(request, request.body.siteId);
      const report = await reports.create(user.organization.id, { id: user.id, name: user.name ?? user.email }, request.body);
      await request.audit('report.created', reportSubject(report), { month: report.month });
      return reply.code(201).send({ report });
    },
  });

  app.route({
    ...route(endpoints.reports.get),
    handler: async (request) => ({ report: await reports.get(organizationOf(request), request.params.id) }),
  });

  for (const format of ['pdf', 'csv', 'signed.pdf'] as const) {
    app.route({
      ...route(endpoints.reports[format === 'signed.pdf' ? 'signedPdf' : format]),
      handler: async (request, reply) => {
        const { report, bytes } = await reports.file(organizationOf(request), request.params.id, format);
        if (format === 'pdf') reply.header('x-content-sha256', report.sha256);
        if (format === 'signed.pdf' && report.signedSha256) reply.header('x-content-sha256', report.signedSha256);
        const name = fileName(report.summary.siteName, report.month, format === 'csv' ? 'csv' : 'pdf');
        return reply
          .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/pdf')
          .header(
            'content-disposition',
            `attachment; filename*=UTF-8''${encodeURIComponent(format === 'signed.pdf' ? name.replace(/\.pdf$/, '_signe.pdf') : name)}`,
          )
          .header('cache-control', 'private, no-store')
          .send(bytes);
      },
    });
  }

  app.route({
    ...route(endpoints.reports.sign),
    handler: async (request) => {
      const user = currentUser(request);
      const report = await reports.sign(
        user.organization.id,
        request.params.id,
        { id: user.id, name: user.name ?? user.email, role: ROLE_LABELS[user.role] },
        request.body?.comment,
      );
      await request.audit('report.signed', reportSubject(report), { month: report.month, sha256: report.sha256 });
      return { report };
    },
  });
};
