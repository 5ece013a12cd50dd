import { type Alert, endpoints, type Rule } from '@vigie/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AlertRuleService } from './alert-rule-service.ts';
import type { AlertService } from './alert-service.ts';
import { ruleTemplateRoutes } from './rule-template-routes.ts';
import type { RuleTemplateService } from './rule-template-service.ts';
import type { AuditSubject } from '../audit/audit-service.ts';
import { changes } from '../../plugins/audit.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';
import { assertInScope, locatedInScope, siteInScope, sitesOf, withinScope } from '../../plugins/scope.ts';

/** The text a person wrote on an alert, as the trail keeps it. */
const comment = (text: string | null | undefined) => (text ? { text } : null);

/** docs/api.md, Alertes: alert rules and the alerts they open, for the caller's organization. */
/** A rule aimed at a sensor or a site of the member's scope only (else the 404 of another organization's). */
async function targetInScope(request: FastifyRequest, body: { sensorId?: string | null | undefined; siteId?: string | null | undefined }) {
  if (body.sensorId) await assertInScope(request, 'sensor', body.sensorId);
  if (body.siteId) await siteInScope(request, body.siteId);
}

export const alertRoutes: FastifyPluginAsyncZod<{ rules: AlertRuleService; alerts: AlertService; templates: RuleTemplateService }> = async (
  app,
  { rules, alerts, templates },
) => {
  await app.register(ruleTemplateRoutes, { templates });
  const who = (request: Parameters<typeof currentUser>[0]) => currentUser(request);
  const ruleSubject = (rule: Rule): AuditSubject => ({ type: 'rule', id: rule.id, name: rule.name });
  /** An alert is named in the trail by its rule, as it was called then (null once the rule is gone). */
  const alertSubject = async (organizationId: string, alert: Alert): Promise<AuditSubject> => ({
    type: 'alert',
    id: alert.id,
    name: await (alert.ruleId ? rules.get(organizationId, alert.ruleId) : Promise.reject(new Error('no rule'))).then(
      (rule) => rule.name,
      () => null,
    ),
  });

  app.route({
    ...route(endpoints.alertRules.list),
    handler: async (request) => ({
      rules: await locatedInScope(request, await rules.list(who(request).organization.id, request.query), 'alertRule', (rule) => rule.id),
    }),
  });

  app.route({
    ...route(endpoints.alertRules.create),
    handler: async (request, reply) => {
      await targetInScope(request, request.body);
      const rule = await rules.create(who(request).organization.id, request.body);
      await request.audit('rule.created', ruleSubject(rule));
      return reply.code(201).send({ rule });
    },
  });

  app.route({
    ...route(endpoints.alertRules.get),
    handler: async (request) => ({
      rule: await rules.get(who(request).organization.id, request.params.id),
    }),
  });

  app.route({
    ...route(endpoints.alertRules.update),
    handler: async (request) => {
      const before = await rules.get(who(request).organization.id, request.params.id);
      const rule = await rules.update(who(request).organization.id, request.params.id, request.body);
      const fields = ['name', 'enabled', 'sensorId', 'siteId', 'condition', 'delaySeconds', 'hysteresis', 'schedule', 'severity'] as const;
      await request.audit('rule.updated', ruleSubject(rule), changes(before, rule, fields));
      return { rule };
    },
  });

  app.route({
    ...route(endpoints.alertRules.remove),
    handler: async (request, reply) => {
      const rule = await rules.get(who(request).organization.id, request.params.id);
      await rules.remove(who(request).organization.id, request.params.id);
      await request.audit('rule.deleted', ruleSubject(rule));
      return reply.code(204).send(null);
    },
  });

  app.route({
    ...route(endpoints.alerts.list),
    handler: async (request) => ({
      alerts: withinScope(await sitesOf(request), await alerts.list(who(request).organization.id, request.query), (alert) => alert.siteId),
    }),
  });

  app.route({
    ...route(endpoints.alerts.get),
    handler: async (request) => ({
      alert: await alerts.get(who(request).organization.id, request.params.id),
    }),
  });

  app.route({
    ...route(endpoints.alerts.acknowledge),
    handler: async (request) => {
      const user = who(request);
      const alert = await alerts.acknowledge(user.organization.id, request.params.id, user.id, request.body?.comment);
      await request.audit('alert.acknowledged', await alertSubject(user.organization.id, alert), comment(request.body?.comment));
      return { alert };
    },
  });

  app.route({
    ...route(endpoints.alerts.recordAction),
    handler: async (request, reply) => {
      const user = who(request);
      const { text, kind, fate } = request.body;
      const alert = await alerts.recordAction(user.organization.id, request.params.id, user.id, { text, kind, fate });
      await request.audit('alert.action', await alertSubject(user.organization.id, alert), {
        ...comment(text),
        ...(kind ? { kind } : {}),
        ...(fate ? { fate: `${fate.outcome} : ${fate.quantity.value} ${fate.quantity.unit} de ${fate.product}` } : {}),
      });
      return reply.code(201).send({ alert });
    },
  });

  app.route({
    ...route(endpoints.alerts.resolve),
    handler: async (request) => {
      const user = who(request);
      const alert = await alerts.resolve(user.organization.id, request.params.id, user.id, request.body?.text);
      await request.audit('alert.resolved', await alertSubject(user.organization.id, alert), comment(request.body?.text));
      return { alert };
    },
  });
};
