import { endpoints, type NotificationPolicy, type Role } from '@vigie/contract';
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
 * The policy as this member may read it: whoever holds the signing secret (or the password written
 * into the webhook's address) can forge notifications the receiver trusts, so only an admin who
 * sees the whole organization reads them; everyone else, a manager who may change the policy
 * included, gets the address without its password and no secret.
 */
function policyFor(user: { role: Role; scope?: unknown }, policy: NotificationPolicy): NotificationPolicy {
  if (user.role === 'admin' && !user.scope) return policy;
  return { ...policy, webhookUrl: withoutPassword(policy.webhookUrl), webhookSecret: null };
}

/** Who is told of the organization's alerts, and how Vigie insists (docs/api.md, Alertes). */
export const notificationPolicyRoutes: FastifyPluginAsyncZod<{ notifications: NotificationService }> = async (app, { notifications }) => {
  app.route({
    ...route(endpoints.notificationPolicy.get),
    handler: async (request) => {
      const user = currentUser(request);
      return { policy: policyFor(user, await notifications.getPolicy(user.organization.id)) };
    },
  });

  app.route({
    ...route(endpoints.notificationPolicy.update),
    handler: async (request) => {
      const user = currentUser(request);
      const organizationId = user.organization.id;
      const before = await notifications.getPolicy(organizationId);
      // The address as this member read it (its password hidden) sent back unchanged is the same address.
      const unchanged = request.body.webhookUrl !== undefined && request.body.webhookUrl === withoutPassword(before.webhookUrl);
      const policy = await notifications.updatePolicy(
        organizationId,
        unchanged ? { ...request.body, webhookUrl: before.webhookUrl } : request.body,
      );
      // The trail can never be erased: it says that the secret changed, never what it is.
      const audited = (value: NotificationPolicy) => ({ ...value, webhookUrl: withoutPassword(value.webhookUrl) });
      const details = changes(audited(before), audited(policy), AUDITED);
      if (policy.webhookSecret !== before.webhookSecret) details['webhookSecret'] = policy.webhookSecret ? 'renouvelé' : 'retiré';
      await request.audit('notification_policy.updated', null, details);
      return { policy: policyFor(user, policy) };
    },
  });
};
