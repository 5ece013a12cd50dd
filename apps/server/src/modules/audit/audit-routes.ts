import { Readable } from 'node:stream';
import { endpoints } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuditService } from './audit-service.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';

/** The audit trail, for admins: a page at a time, newest first, or the whole filtered trail as CSV. */
export const auditRoutes: FastifyPluginAsyncZod<{ audit: AuditService }> = async (app, { audit }) => {
  app.route({
    ...route(endpoints.audit.list),
    handler: async (request) => audit.page(currentUser(request).organization.id, request.query),
  });

  app.route({
    ...route(endpoints.audit.exportCsv),
    handler: async (request, reply) => {
      const organizationId = currentUser(request).organization.id;
      const rows = audit.csv(organizationId, request.query);
      // The first chunk (the header) is read before answering, so that a bad filter is still a 400.
      const first = await rows.next();
      async function* rest() {
        if (!first.done) yield first.value;
        yield* rows;
      }
      return reply
        .type('text/csv; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="journal-${new Date().toISOString().slice(0, 10)}.csv"`)
        .send(Readable.from(rest()));
    },
  });
};
