import { Readable } from 'node:stream';
import {
  type DeviceKind,
  type EmitterListResponse,
  type EmitterResponse,
  endpoints,
  type SensorListResponse,
  type SensorResponse,
} from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { badRequest } from '../../errors.ts';
import type { DeviceService, DeviceView } from './device-service.ts';
import type { ProvisioningService } from './provisioning-service.ts';
import type { TelemetryService } from '../telemetry/telemetry-service.ts';
import type { AuditSubject } from '../audit/audit-service.ts';
import { changes } from '../../plugins/audit.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';
import { siteInScope, sitesOf } from '../../plugins/scope.ts';

export interface DeviceRoutesOptions {
  /** URL segment and singular response field: `emitter` or `sensor`. */
  resource: DeviceKind;
  service: DeviceService;
  provisioning: ProvisioningService;
  telemetry: Pick<TelemetryService, 'history' | 'csv'>;
}

/** The list envelope of the contract: `{emitters}` or `{sensors}`. */
function listResponse(resource: DeviceKind, views: DeviceView[]): EmitterListResponse | SensorListResponse {
  return resource === 'sensor'
    ? { sensors: views.flatMap((view) => (view.kind === 'sensor' ? [view.device] : [])) }
    : { emitters: views.map((view) => view.device) };
}

/** The single-device envelope of the contract: `{emitter}` or `{sensor}`. */
function oneResponse(view: DeviceView): EmitterResponse | SensorResponse {
  return view.kind === 'sensor' ? { sensor: view.device } : { emitter: view.device };
}

/** A device as the audit trail names it. */
export function subjectOf(view: DeviceView): AuditSubject {
  return { type: view.kind, id: view.device.id, name: view.device.name };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DEFAULT_PERIOD_MS = 24 * 3600 * 1000;
const DEFAULT_BUCKETS = 240;

function period(query: { from?: string | undefined; to?: string | undefined }) {
  const to = query.to ? new Date(query.to) : new Date();
  const from = query.from ? new Date(query.from) : new Date(to.getTime() - DEFAULT_PERIOD_MS);
  if (from >= to) throw badRequest('Période invalide : le début doit précéder la fin.');
  return { from, to };
}

/** The device routes (docs/api.md, Appareils; device tokens: docs/protocole-appareils.md) for one kind of device, scoped to the caller's organization. */
export const deviceRoutes: FastifyPluginAsyncZod<DeviceRoutesOptions> = async (app, options) => {
  const { resource, service, provisioning, telemetry } = options;
  const endpoint = endpoints[resource];
  const organizationOf = (request: Parameters<typeof currentUser>[0]) => currentUser(request).organization.id;

  // Without parameters, the seed contract's whole list; with any, a page of it (docs/api.md, Appareils: unchanged).
  app.route({
    ...route(endpoint.list),
    // The list is built field by field from the records (`toDeviceView`), so it is written as it
    // is: checking 10 000 devices against the schema on every answer cost more than reading them.
    serializerCompiler: () => (data) => JSON.stringify(data),
    handler: async (request, reply) => {
      const query = request.query;
      const asksForPage = Object.values(query).some((value) => value !== undefined);
      const sites = await sitesOf(request);
      if (sites !== null && !asksForPage) {
        // A member who sees some sites: the list of those sites' devices (not the organization's shared body).
        const views = (await service.list(organizationOf(request))).filter((view) => sites.has(view.device.siteId));
        return reply.type('application/json; charset=utf-8').send(JSON.stringify(listResponse(resource, views)) as never);
      }
      if (!asksForPage) {
        // The envelope of `listResponse`, its devices written once each (see `listBody`). The body
        // is already JSON, which the schema's type cannot say: bytes with a JSON type are sent as they are.
        const { body, etag } = await service.listBody(organizationOf(request));
        return reply
          .type('application/json; charset=utf-8')
          .header('etag', etag)
          .send(body as never);
      }
      if (query.cursor !== undefined && !UUID.test(query.cursor)) throw badRequest('Curseur invalide : reprenez la liste depuis le début.');
      const page = await service.page(organizationOf(request), query, sites ?? undefined);
      return { ...listResponse(resource, page.views), total: page.total, nextCursor: page.nextCursor };
    },
  });

  app.route({
    ...route(endpoint.create),
    handler: async (request, reply) => {
      const device = await service.create(organizationOf(request), { ...request.body, siteId: await siteInScope(request, undefined) });
      await request.audit('device.created', subjectOf(device));
      return reply.code(201).send(oneResponse(device));
    },
  });

  app.route({
    ...route(endpoint.get),
    handler: async (request) => oneResponse(await service.get(organizationOf(request), request.params.id)),
  });

  app.route({
    ...route(endpoint.update),
    handler: async (request) => {
      const before = await service.get(organizationOf(request), request.params.id);
      if (request.body.siteId !== undefined) await siteInScope(request, request.body.siteId);
      const after = await service.update(organizationOf(request), request.params.id, request.body);
      await request.audit('device.updated', subjectOf(after), changes(before.device, after.device, ['name', 'siteId']));
      return oneResponse(after);
    },
  });

  app.route({
    ...route(endpoint.remove),
    handler: async (request, reply) => {
      const device = await service.get(organizationOf(request), request.params.id);
      await service.remove(organizationOf(request), request.params.id);
      await request.audit('device.deleted', subjectOf(device));
      return reply.code(204).send(null);
    },
  });

  /** Back from the trash, with its history and its token. */
  app.route({
    ...route(endpoint.restore),
    handler: async (request) => {
      const device = await service.restore(organizationOf(request), request.params.id);
      await request.audit('device.restored', subjectOf(device));
      return oneResponse(device);
    },
  });

  /** A new device token, shown once; the previous token stops working at once. */
  app.route({
    ...route(endpoint.rotateToken),
    handler: async (request, reply) => {
      const accessToken = await provisioning.rotateDeviceToken(organizationOf(request), service.kind, request.params.id);
      await request.audit('device.token_renewed', subjectOf(await service.get(organizationOf(request), request.params.id)));
      return reply.code(201).header('cache-control', 'no-store').send({ accessToken });
    },
  });

  app.route({
    ...route(endpoint.readings),
    handler: async (request) => {
      const { device } = await service.get(organizationOf(request), request.params.id);
      const { from, to } = period(request.query);
      return telemetry.history(device.id, { key: request.query.key, from, to, buckets: request.query.buckets ?? DEFAULT_BUCKETS });
    },
  });

  /** Every raw reading of a period as CSV for a spreadsheet (French Excel: « ; » and decimal comma). */
  app.route({
    ...route(endpoint.readingsCsv),
    handler: async (request, reply) => {
      const { device } = await service.get(organizationOf(request), request.params.id);
      const { from, to } = period(request.query);
      const timeZone = request.query.tz ?? 'Europe/Paris';
      try {
        new Intl.DateTimeFormat('fr-FR', { timeZone });
      } catch {
        throw badRequest(`Fuseau horaire inconnu « ${timeZone} » : un nom comme « Europe/Paris » est attendu.`);
      }
      const day = (date: Date) => date.toISOString().slice(0, 10);
      const safeName =
        device.name
          .replace(/[^\p{L}\p{N} _-]+/gu, '')
          .trim()
          .replace(/\s+/g, '-') || resource;
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(`${safeName}_${day(from)}_${day(to)}.csv`)}`)
        .header('cache-control', 'no-store')
        .send(Readable.from(await telemetry.csv(device.id, { key: request.query.key, from, to, timeZone })));
    },
  });
};
