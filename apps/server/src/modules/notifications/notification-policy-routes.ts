import { can, endpoints, type NotificationPolicy, type Role } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { NotificationService } from './notification-service.ts';
import { changes } from '../../plugins/audit.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';

/** The fields a line of the audit trail may show; the signing secret is never one of them. */
const AUDITED = ['steps', 'repeatMinutes', 'reacknowledgeMinutes', 'webhookUrl'] as const satisfies readonly (keyof NotificationPolicy)[];

/** A password written into the webhook's address (`https://user:password@…`) is a secret too. */
function withoutPassword(url: string | null): string | null {
  if (url === null) return null;
  const parsed = new URL(url);
  if (!parsed.password) return url;
  parsed.password = '***';
  return parsed.href;
}

/**
 * The policy as `role` may read it: whoever holds the signing secret can forge notifications
 * the receiver trusts, so only those who may change the policy see it.
 */
function policyFor(role: Role, policy: NotificationPolicy): NotificationPolicy {
  if (can(role, endpoints.notificationPolicy.update)) return policy;
  return { ...policy, webhookUrl: withoutPassword(policy.webhookUrl), webhookSecret: null };
}

/** Who is told of the organization's alerts, and how Vigie insists (docs/api.md, Alertes). */
export const notificationPolicyRoutes: FastifyPluginAsyncZod<{ notifications: NotificationService }> = async (app, { notifications }) => {
  app.route({
    ...route(endpoints.notificationPolicy.get),
    handler: async (request) => {
      const user = currentUser(request);
      return { policy: policyFor(user.role, await notifications.getPolicy(user.organization.id)) };
    },
  });

  app.route({
    ...route(endpoints.notificationPolicy.update),
    handler: async (request) => {
      const organizationId = currentUser(request).organization.id;
      const before = await notifications.getPolicy(organizationId);
      const policy = await notifications.updatePolicy(organizationId, request.body);
      // The trail can never be erased: it says that the secret changed, never what it is.
      const audited = (value: NotificationPolicy) => ({ ...value, webhookUrl: withoutPassword(value.webhookUrl) });
      const details = changes(audited(before), audited(policy), AUDITED);
      if (policy.webhookSecret !== before.webhookSecret) details['webhookSecret'] = policy.webhookSecret ? 'renouvelé' : 'retiré';
      await request.audit('notification_policy.updated', null, details);
      return { policy };
    },
  });
};
