import {
  acknowledgeAlertRequestSchema,
  alertActionRequestSchema,
  alertListQuerySchema,
  alertListResponseSchema,
  type Alert,
  alertResponseSchema,
  createRuleRequestSchema,
  errorResponseSchema,
  idParamsSchema,
  resolveAlertRequestSchema,
  type Rule,
  ruleListResponseSchema,
  ruleResponseSchema,
  updateRuleRequestSchema,
} from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AlertRuleService } from '../modules/alerts/alert-rule-service.ts';
import type { AlertService } from '../modules/alerts/alert-service.ts';
import type { AuditSubject } from '../modules/audit/audit-service.ts';
import { changes } from '../plugins/audit.ts';
import { currentUser } from '../plugins/authenticate.ts';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 404: errorResponseSchema, 409: errorResponseSchema };
const ruleFilterSchema = z.strictObject({
  sensorId: z.uuid({ error: 'Identifiant invalide : un UUID est attendu.' }).optional(),
  siteId: z.uuid({ error: 'Identifiant invalide : un UUID est attendu.' }).optional(),
});
/** The text a person wrote on an alert, as the trail keeps it. */
const comment = (text: string | null | undefined) => (text ? { text } : null);

/** Acknowledging or resolving needs no body; an empty one is accepted. */
const optionalBody = <T extends z.ZodType>(schema: T) => schema.nullish();

/** docs/api.md, Alertes: alert rules and the alerts they open, for the caller's organization. */
export const alertRoutes: FastifyPluginAsyncZod<{ rules: AlertRuleService; alerts: AlertService }> = async (app, { rules, alerts }) => {
  const who = (request: Parameters<typeof currentUser>[0]) => currentUser(request);
  const ruleSubject = (rule: Rule): AuditSubject => ({ type: 'rule', id: rule.id, name: rule.name });
  /** An alert is named in the trail by its rule, as it was called then (null once the rule is gone). */
  const alertSubject = async (organizationId: string, alert: Alert): Promise<AuditSubject> => ({
    type: 'alert',
    id: alert.id,
    name: await rules.get(organizationId, alert.ruleId).then(
      (rule) => rule.name,
      () => null,
    ),
  });

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
    async (request, reply) => {
      const rule = await rules.create(who(request).organization.id, request.body);
      await request.audit('rule.created', ruleSubject(rule));
      return reply.code(201).send({ rule });
    },
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
    async (request) => {
      const before = await rules.get(who(request).organization.id, request.params.id);
      const rule = await rules.update(who(request).organization.id, request.params.id, request.body);
      const fields = ['name', 'enabled', 'sensorId', 'siteId', 'condition', 'delaySeconds', 'hysteresis', 'schedule', 'severity'] as const;
      await request.audit('rule.updated', ruleSubject(rule), changes(before, rule, fields));
      return { rule };
    },
  );

  app.delete('/alert-rules/:id', { schema: { params: idParamsSchema, response: { 204: z.null(), ...errors } } }, async (request, reply) => {
    const rule = await rules.get(who(request).organization.id, request.params.id);
    await rules.remove(who(request).organization.id, request.params.id);
    await request.audit('rule.deleted', ruleSubject(rule));
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
      const alert = await alerts.acknowledge(user.organization.id, request.params.id, user.id, request.body?.comment);
      await request.audit('alert.acknowledged', await alertSubject(user.organization.id, alert), comment(request.body?.comment));
      return { alert };
    },
  );

  app.post(
    '/alerts/:id/actions',
    { schema: { params: idParamsSchema, body: alertActionRequestSchema, response: { 201: alertResponseSchema, ...errors } } },
    async (request, reply) => {
      const user = who(request);
      const alert = await alerts.recordAction(user.organization.id, request.params.id, user.id, request.body.text);
      await request.audit('alert.action', await alertSubject(user.organization.id, alert), comment(request.body.text));
      return reply.code(201).send({ alert });
    },
  );

  app.post(
    '/alerts/:id/resolve',
    {
      schema: { params: idParamsSchema, body: optionalBody(resolveAlertRequestSchema), response: { 200: alertResponseSchema, ...errors } },
    },
    async (request) => {
      const user = who(request);
      const alert = await alerts.resolve(user.organization.id, request.params.id, user.id, request.body?.text);
      await request.audit('alert.resolved', await alertSubject(user.organization.id, alert), comment(request.body?.text));
      return { alert };
    },
  );
};
