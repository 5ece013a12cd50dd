import { Readable } from 'node:stream';
import { endpoints, READINGS_EXPORT_MAX_DAYS, type Site } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { badRequest, notFound } from '../../errors.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';
import { sitesOf, withinScope } from '../../plugins/scope.ts';
import { type ExportedSensor, type ReadingsPage, readingsCsv } from './readings-export.ts';

const DAY_MS = 86_400_000;

export interface ReadingsExportOptions {
  sites: { list(organizationId: string): Promise<Site[]> };
  /** The organization's sensors (out of the trash). */
  sensors: { list(organizationId: string): Promise<{ device: { id: string; name: string; siteId: string } }[]> };
  /** One page of a sensor's readings of the period (and measure). */
  page: (
    sensorId: string,
    options: { key?: string | undefined; from: Date; to: Date; after?: Parameters<ReadingsPage>[1]; limit: number },
  ) => ReturnType<ReadingsPage>;
}

/** docs/api.md, Export des lectures: every reading of the shops one sees, over a period, streamed as CSV. */
export const readingsExportRoutes: FastifyPluginAsyncZod<ReadingsExportOptions> = async (app, options) => {
  app.route({
    ...route(endpoints.readingsExport.csv),
    handler: async (request, reply) => {
      const organizationId = currentUser(request).organization.id;
      const { query } = request;
      const from = new Date(query.from);
      const to = new Date(query.to);
      if (from.getTime() > to.getTime()) throw badRequest('Période invalide : le début (from) doit précéder la fin (to).');
      if (to.getTime() - from.getTime() > READINGS_EXPORT_MAX_DAYS * DAY_MS) {
        throw badRequest(`Période trop longue : ${READINGS_EXPORT_MAX_DAYS} jours au plus par export ; découpez-la.`);
      }
      // The shops of the person's (or key's) scope, or the one named, held to it like another organization's.
      let sites = withinScope(await sitesOf(request), await options.sites.list(organizationId), (site) => site.id);
      if (query.siteId !== undefined) {
        sites = sites.filter((site) => site.id === query.siteId);
        if (sites.length === 0) throw notFound(request.server.scopeDeps.notFound.site);
      }
      const byId = new Map(sites.map((site) => [site.id, site]));
      const collator = new Intl.Collator('fr');
      const sensors: ExportedSensor[] = (await options.sensors.list(organizationId))
        .flatMap(({ device: sensor }) => {
          const site = byId.get(sensor.siteId);
          return site ? [{ id: sensor.id, name: sensor.name, siteName: site.name, timeZone: site.timezone }] : [];
        })
        .sort((a, b) => collator.compare(a.siteName, b.siteName) || collator.compare(a.name, b.name) || a.id.localeCompare(b.id));
      const page: ReadingsPage = (sensorId, after, limit) => options.page(sensorId, { key: query.key, from, to, after, limit });
      const day = (date: Date) => date.toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="lectures_${day(from)}_${day(to)}.csv"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(readingsCsv(sensors, page)));
    },
  });
};
