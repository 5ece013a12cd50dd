import { errorResponseSchema, notificationPolicyResponseSchema, updateNotificationPolicyRequestSchema } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { NotificationService } from '../modules/notifications/notification-service.ts';
import { changes } from '../plugins/audit.ts';
import { currentUser } from '../plugins/authenticate.ts';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema };

/** Who is told of the organization's alerts, and how Vigie insists (PRODUCT §8). */
export const notificationPolicyRoutes: FastifyPluginAsyncZod<{ notifications: NotificationService }> = async (app, { notifications }) => {
  app.get('/notification-policy', { schema: { response: { 200: notificationPolicyResponseSchema, ...errors } } }, async (request) => ({
    policy: await notifications.getPolicy(currentUser(request).organization.id),
  }));

  app.put(
    '/notification-policy',
    { schema: { body: updateNotificationPolicyRequestSchema, response: { 200: notificationPolicyResponseSchema, ...errors } } },
    async (request) => {
      const organizationId = currentUser(request).organization.id;
      const before = await notifications.getPolicy(organizationId);
      const policy = await notifications.updatePolicy(organizationId, request.body);
      await request.audit('notification_policy.updated', null, changes(before, policy, Object.keys(policy) as (keyof typeof policy)[]));
      return { policy };
    },
  );
};
