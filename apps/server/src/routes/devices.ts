import { Readable } from 'node:stream';
import {
  createDeviceRequestSchema,
  deviceTokenResponseSchema,
  emitterSchema,
  errorResponseSchema,
  idParamsSchema,
  readingsExportQuerySchema,
  readingsQuerySchema,
  readingsResponseSchema,
  sensorSchema,
  updateDeviceRequestSchema,
} from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest } from '../errors.ts';
import type { DeviceService } from '../modules/devices/device-service.ts';
import type { ProvisioningService } from '../modules/telemetry/provisioning-service.ts';
import type { ReadingDal } from '../modules/telemetry/reading-dal.ts';
import { currentUser } from '../plugins/authenticate.ts';
import { csvRows } from './readings-csv.ts';

export interface DeviceRoutesOptions {
  /** URL segment and singular response field: `emitter` or `sensor`. */
  resource: 'emitter' | 'sensor';
  /** Plural response field of the list: `emitters` or `sensors`. */
  collection: 'emitters' | 'sensors';
  service: DeviceService;
  provisioning: ProvisioningService;
  readings: ReadingDal;
}

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 404: errorResponseSchema };
const DEFAULT_PERIOD_MS = 24 * 3600 * 1000;
const DEFAULT_BUCKETS = 240;

function period(query: { from?: string | undefined; to?: string | undefined }) {
  const to = query.to ? new Date(query.to) : new Date();
  const from = query.from ? new Date(query.from) : new Date(to.getTime() - DEFAULT_PERIOD_MS);
  if (from >= to) throw badRequest('Période invalide : le début doit précéder la fin.');
  return { from, to };
}

/** The routes of PRODUCT.md §3 and §6 for one kind of device, scoped to the caller's organization. */
export const deviceRoutes: FastifyPluginAsyncZod<DeviceRoutesOptions> = async (app, options) => {
  const { resource, collection, service, provisioning, readings } = options;
  const deviceSchema = resource === 'sensor' ? sensorSchema : emitterSchema;
  const list = z.object({ [collection]: z.array(deviceSchema) });
  const one = z.object({ [resource]: deviceSchema });
  const base = `/${resource}`;
  const byId = `/${resource}/:id`;
  const organizationOf = (request: Parameters<typeof currentUser>[0]) => currentUser(request).organization.id;

  app.get(base, { schema: { response: { 200: list, ...errors } } }, async (request) => ({
    [collection]: await service.list(organizationOf(request)),
  }));

  app.post(base, { schema: { body: createDeviceRequestSchema, response: { 201: one, ...errors } } }, async (request, reply) => {
    const device = await service.create(organizationOf(request), request.body);
    return reply.code(201).send({ [resource]: device });
  });

  app.get(byId, { schema: { params: idParamsSchema, response: { 200: one, ...errors } } }, async (request) => ({
    [resource]: await service.get(organizationOf(request), request.params.id),
  }));

  app.put(
    byId,
    { schema: { params: idParamsSchema, body: updateDeviceRequestSchema, response: { 200: one, ...errors } } },
    async (request) => ({
      [resource]: await service.update(organizationOf(request), request.params.id, request.body),
    }),
  );

  app.delete(byId, { schema: { params: idParamsSchema, response: { 204: z.null(), ...errors } } }, async (request, reply) => {
    await service.remove(organizationOf(request), request.params.id);
    return reply.code(204).send(null);
  });

  /** Back from the trash, with its history and its token. */
  app.post(`${byId}/restore`, { schema: { params: idParamsSchema, response: { 200: one, ...errors } } }, async (request) => ({
    [resource]: await service.restore(organizationOf(request), request.params.id),
  }));

  /** A new device token, shown once; the previous token stops working at once. */
  app.post(
    `${byId}/token`,
    { schema: { params: idParamsSchema, response: { 201: deviceTokenResponseSchema, ...errors } } },
    async (request, reply) => {
      const accessToken = await provisioning.rotateDeviceToken(organizationOf(request), service.kind, request.params.id);
      return reply.code(201).header('cache-control', 'no-store').send({ accessToken });
    },
  );

  app.get(
    `${byId}/readings`,
    { schema: { params: idParamsSchema, querystring: readingsQuerySchema, response: { 200: readingsResponseSchema, ...errors } } },
    async (request) => {
      const device = await service.get(organizationOf(request), request.params.id);
      const { from, to } = period(request.query);
      const keys = await readings.keys(device.id);
      const key = request.query.key ?? (keys.includes('temperature') ? 'temperature' : (keys[0] ?? null));
      const buckets = key ? await readings.buckets(device.id, key, from, to, request.query.buckets ?? DEFAULT_BUCKETS) : [];
      return {
        key,
        keys,
        from: from.toISOString(),
        to: to.toISOString(),
        readings: buckets.map((bucket) => ({ ...bucket, ts: bucket.ts.toISOString() })),
      };
    },
  );

  /** Every raw reading of a period as CSV for a spreadsheet (French Excel: « ; » and decimal comma). */
  app.get(
    `${byId}/readings.csv`,
    { schema: { params: idParamsSchema, querystring: readingsExportQuerySchema.extend({ tz: z.string().max(64).optional() }) } },
    async (request, reply) => {
      const device = await service.get(organizationOf(request), request.params.id);
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
        .send(Readable.from(csvRows(readings, device.id, { key: request.query.key, from, to, timeZone })));
    },
  );
};
