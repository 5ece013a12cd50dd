import { endpoints } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';
import { locatedInScope, sitesOf } from '../../plugins/scope.ts';
import { MESSAGES } from '../../errors.ts';
import { forbiddenText } from '../../text-guard.ts';
import type { LorawanService } from './lorawan-service.ts';
import { MalformedBody, XmlBody } from './network-messages.ts';

/** docs/api.md, LoRaWAN: what the network server calls, authenticated by the integration's secret. */
export const lorawanPublicRoutes: FastifyPluginAsyncZod<{ lorawan: LorawanService }> = async (app, { lorawan }) => {
  // ThingPark may be set to send XML: read as nothing, then refused with its reason once the secret is checked.
  app.addContentTypeParser(['text/xml', 'application/xml'], { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, _body, done) =>
    done(null, new XmlBody()),
  );
  // A body that is not JSON is read as its reason, then refused with it (202) once the secret is checked:
  // a network server that meets 4xx answers stops sending, the valid messages with the bad.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 64 * 1024 }, (request, body, done) => {
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase();
    if (charset && charset !== 'utf-8' && charset !== 'utf8') {
      return done(null, new MalformedBody('Jeu de caractères non pris en charge : envoyez du JSON en UTF-8 (charset=utf-8).'));
    }
    if (body === '') return done(null, new MalformedBody(MESSAGES.emptyJson));
    parseJson(request, body as string, (error, value) => {
      if (error) return done(null, new MalformedBody(MESSAGES.invalidJson));
      const forbidden = forbiddenText(value);
      return done(null, forbidden ? new MalformedBody(forbidden) : value);
    });
  });
  app.route({
    ...route(endpoints.integrations.events),
    bodyLimit: 64 * 1024,
    handler: async (request, reply) => {
      const answer = await lorawan.receive(request.params.id, request.headers.authorization, request.query.event, request.body);
      // Refused for its content: 202, the reason in the body (docs/api.md, LoRaWAN).
      return answer.reason ? reply.code(202).send(answer) : answer;
    },
  });
};

/** docs/api.md, LoRaWAN: integrations, codecs, devices by DevEUI and the devices detected. */
export const lorawanRoutes: FastifyPluginAsyncZod<{ lorawan: LorawanService }> = async (app, { lorawan }) => {
  const organizationOf = (request: Parameters<typeof currentUser>[0]) => currentUser(request).organization.id;

  app.route({
    ...route(endpoints.integrations.list),
    handler: async (request) => ({ integrations: await lorawan.listIntegrations(organizationOf(request)) }),
  });
  app.route({
    ...route(endpoints.integrations.health),
    handler: async (request) => ({ health: await lorawan.integrationHealth(organizationOf(request), request.params.id) }),
  });
  app.route({
    ...route(endpoints.integrations.create),
    handler: async (request, reply) => {
      const integration = await lorawan.createIntegration(organizationOf(request), request.body);
      await request.audit(
        'integration.created',
        { type: 'integration', id: integration.id, name: integration.name },
        { type: integration.type },
      );
      return reply.code(201).send({ integration });
    },
  });
  app.route({
    ...route(endpoints.integrations.remove),
    handler: async (request, reply) => {
      const integration = await lorawan.getIntegration(organizationOf(request), request.params.id);
      await lorawan.removeIntegration(organizationOf(request), request.params.id);
      await request.audit('integration.deleted', { type: 'integration', id: integration.id, name: integration.name });
      return reply.code(204).send(null);
    },
  });
  app.route({
    ...route(endpoints.lorawan.codecs),
    handler: async (request) => ({ codecs: await lorawan.codecs(organizationOf(request)) }),
  });
  app.route({
    ...route(endpoints.lorawan.testCodec),
    bodyLimit: 96 * 1024,
    handler: async (request) => ({ result: await lorawan.testCodec(organizationOf(request), request.body) }),
  });
  app.route({
    ...route(endpoints.lorawan.saveCodec),
    bodyLimit: 96 * 1024,
    handler: async (request, reply) => {
      const codec = await lorawan.saveCodec(organizationOf(request), request.body);
      await request.audit('codec.created', { type: 'integration', id: codec.id, name: codec.model });
      return reply.code(201).send({ codec });
    },
  });
  app.route({
    ...route(endpoints.lorawan.removeCodec),
    handler: async (request, reply) => {
      const codec = await lorawan.removeCodec(organizationOf(request), request.params.id);
      await request.audit('codec.deleted', { type: 'integration', id: codec.id, name: codec.name });
      return reply.code(204).send(null);
    },
  });
  app.route({
    ...route(endpoints.lorawan.devices),
    // A scoped member sees the devices of their sites' sensors only (docs/api.md, Régions et portées).
    handler: async (request) => ({
      devices: await locatedInScope(request, await lorawan.devices(organizationOf(request)), 'sensor', (device) => device.sensorId),
    }),
  });
  app.route({
    ...route(endpoints.lorawan.register),
    bodyLimit: 16 * 1024,
    handler: async (request, reply) => {
      const view = await lorawan.register(organizationOf(request), request.body);
      await request.audit(
        'device.registered',
        { type: 'sensor', id: view.device.id, name: view.device.name },
        { devEui: view.device.serial },
      );
      return reply.code(201).send({ sensor: view.device });
    },
  });
  app.route({
    ...route(endpoints.lorawan.pending),
    // A detected device belongs to no site yet: it is listed to those who see the whole organization only.
    handler: async (request) => ({ devices: (await sitesOf(request)) === null ? await lorawan.pending(organizationOf(request)) : [] }),
  });
  app.route({
    ...route(endpoints.lorawan.dismiss),
    handler: async (request, reply) => {
      await lorawan.dismiss(organizationOf(request), request.params.devEui);
      return reply.code(204).send(null);
    },
  });
};
