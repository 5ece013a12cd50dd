import { endpoints, type RuleTemplate } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuditSubject } from '../audit/audit-service.ts';
import { changes } from '../../plugins/audit.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';
import type { RuleTemplateService } from './rule-template-service.ts';

/** docs/api.md, Modèles de règles: the organization's rule templates (an admin who sees the whole organization changes them). */
export const ruleTemplateRoutes: FastifyPluginAsyncZod<{ templates: RuleTemplateService }> = async (app, { templates }) => {
  const organizationOf = (request: Parameters<typeof currentUser>[0]) => currentUser(request).organization.id;
  const subject = (template: RuleTemplate): AuditSubject => ({ type: 'rule', id: template.id, name: template.name });
  const fields = ['name', 'condition', 'delaySeconds', 'hysteresis', 'schedule', 'severity', 'locked', 'siteIds', 'regionIds'] as const;

  app.route({
    ...route(endpoints.ruleTemplates.list),
    handler: async (request) => ({ templates: await templates.list(organizationOf(request)) }),
  });

  app.route({
    ...route(endpoints.ruleTemplates.create),
    handler: async (request, reply) => {
      const template = await templates.create(organizationOf(request), request.body);
      await request.audit('rule_template.created', subject(template), {
        locked: template.locked,
        sites: template.appliedSiteIds.length,
      });
      return reply.code(201).send({ template });
    },
  });

  app.route({
    ...route(endpoints.ruleTemplates.update),
    handler: async (request) => {
      const { before, after } = await templates.update(organizationOf(request), request.params.id, request.body);
      await request.audit('rule_template.updated', subject(after), changes(before, after, fields));
      return { template: after };
    },
  });

  app.route({
    ...route(endpoints.ruleTemplates.remove),
    handler: async (request, reply) => {
      const removed = await templates.remove(organizationOf(request), request.params.id);
      await request.audit('rule_template.deleted', subject(removed), { sites: removed.appliedSiteIds.length });
      return reply.code(204).send(null);
    },
  });
};
