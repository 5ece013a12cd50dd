import {
  acknowledgeAlertRequestSchema,
  alertActionRequestSchema,
  alertListQuerySchema,
  alertListResponseSchema,
  alertResponseSchema,
  createRuleRequestSchema,
  errorResponseSchema,
  idParamsSchema,
  resolveAlertRequestSchema,
  ruleListResponseSchema,
  ruleResponseSchema,
  updateRuleRequestSchema,
} from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AlertRuleService } from '../modules/alerts/alert-rule-service.ts';
import type { AlertService } from '../modules/alerts/alert-service.ts';
import { currentUser } from '../plugins/authenticate.ts';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 404: errorResponseSchema, 409: errorResponseSchema };
const ruleFilterSchema = z.strictObject({
  sensorId: z.uuid({ error: 'Identifiant invalide : un UUID est attendu.' }).optional(),
  siteId: z.uuid({ error: 'Identifiant invalide : un UUID est attendu.' }).optional(),
});
/** Acknowledging or resolving needs no body; an empty one is accepted. */
const optionalBody = <T extends z.ZodType>(schema: T) => schema.nullish();

/** PRODUCT §8: alert rules and the alerts they open, for the caller's organization. */
export const alertRoutes: FastifyPluginAsyncZod<{ rules: AlertRuleService; alerts: AlertService }> = async (app, { rules, alerts }) => {
  const who = (request: Parameters<typeof currentUser>[0]) => currentUser(request);

  app.get(
    '/alert-rules',
    { schema: { querystring: ruleFilterSchema, response: { 200: ruleListResponseSchema, ...errors } } },
    async (request) => ({
      rules: await rules.list(who(request).organization.id, request.query),
    }),
  );

  app.post(
    '/alert-rules',
    { schema: { body: createRuleRequestSchema, response: { 201: ruleResponseSchema, ...errors } } },
    async (request, reply) => reply.code(201).send({ rule: await rules.create(who(request).organization.id, request.body) }),
  );

  app.get(
    '/alert-rules/:id',
    { schema: { params: idParamsSchema, response: { 200: ruleResponseSchema, ...errors } } },
    async (request) => ({
      rule: await rules.get(who(request).organization.id, request.params.id),
    }),
  );

  app.put(
    '/alert-rules/:id',
    { schema: { params: idParamsSchema, body: updateRuleRequestSchema, response: { 200: ruleResponseSchema, ...errors } } },
    async (request) => ({ rule: await rules.update(who(request).organization.id, request.params.id, request.body) }),
  );

  app.delete('/alert-rules/:id', { schema: { params: idParamsSchema, response: { 204: z.null(), ...errors } } }, async (request, reply) => {
    await rules.remove(who(request).organization.id, request.params.id);
    return reply.code(204).send(null);
  });

  app.get(
    '/alerts',
    { schema: { querystring: alertListQuerySchema, response: { 200: alertListResponseSchema, ...errors } } },
    async (request) => ({
      alerts: await alerts.list(who(request).organization.id, request.query),
    }),
  );

  app.get('/alerts/:id', { schema: { params: idParamsSchema, response: { 200: alertResponseSchema, ...errors } } }, async (request) => ({
    alert: await alerts.get(who(request).organization.id, request.params.id),
  }));

  app.post(
    '/alerts/:id/acknowledge',
    {
      schema: {
        params: idParamsSchema,
        body: optionalBody(acknowledgeAlertRequestSchema),
        response: { 200: alertResponseSchema, ...errors },
      },
    },
    async (request) => {
      const user = who(request);
      return { alert: await alerts.acknowledge(user.organization.id, request.params.id, user.id, request.body?.comment) };
    },
  );

  app.post(
    '/alerts/:id/actions',
    { schema: { params: idParamsSchema, body: alertActionRequestSchema, response: { 201: alertResponseSchema, ...errors } } },
    async (request, reply) => {
      const user = who(request);
      return reply
        .code(201)
        .send({ alert: await alerts.recordAction(user.organization.id, request.params.id, user.id, request.body.text) });
    },
  );

  app.post(
    '/alerts/:id/resolve',
    {
      schema: { params: idParamsSchema, body: optionalBody(resolveAlertRequestSchema), response: { 200: alertResponseSchema, ...errors } },
    },
    async (request) => {
      const user = who(request);
      return { alert: await alerts.resolve(user.organization.id, request.params.id, user.id, request.body?.text) };
    },
  );
};
