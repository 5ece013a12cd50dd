import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { AlertRecord } from '../alerts/alert-types.ts';
import type { AlertContext } from './alert-message.ts';
import { createMailer } from './mailer.ts';
import { notificationPolicyRoutes } from './notification-policy-routes.ts';
import { createNotificationService, type NotifierLogger, type OneEmail } from './notification-service.ts';

type NotificationDeps = Parameters<typeof createNotificationService>[0];

/**
 * The notifications module: each organization's notification policy, and the outbox that sends
 * e-mails and webhooks once, even with several instances; it keeps the policies and the outbox.
 * In: the alerts due for a message (the alerts module's), how an alert is told (`describe`), the
 * team's addresses (the auth module's). Out: the service, `sendEmail` for the modules that e-mail
 * a link, the handler told when an alert opens, the sending job and the policy's routes.
 */
export function createNotificationsModule(options: {
  db: Database;
  now: () => Date;
  logger: NotifierLogger;
  config: Pick<Config, 'mail' | 'webhookAllowPrivate' | 'publicUrl'>;
  alerts: NotificationDeps['alerts'];
  describe: (alert: AlertRecord) => Promise<AlertContext>;
  teamEmails: (organizationId: string) => Promise<string[]>;
}) {
  const { config } = options;
  const notifications = createNotificationService({
    db: options.db,
    alerts: options.alerts,
    describe: options.describe,
    teamEmails: options.teamEmails,
    mailer: config.mail ? createMailer(config.mail) : null,
    allowPrivateWebhooks: config.webhookAllowPrivate,
    publicUrl: config.publicUrl,
    now: options.now,
    logger: options.logger,
  });
  const routes: FastifyPluginAsync = async (app) => {
    await app.register(notificationPolicyRoutes, { notifications });
  };
  return {
    notifications,
    /** Queues one e-mail in the outbox and starts its delivery; false when e-mail is off. */
    sendEmail: (message: OneEmail) => notifications.sendEmail(message),
    handlers: {
      /** An alert opened: what is due is sent now rather than at the next turn of the clock. */
      alertOpened: () => notifications.tick(),
    },
    jobs: { notify: () => notifications.tick() },
    routes,
    services: { notifications },
    close: () => notifications.close(),
  };
}

export type NotificationsModule = ReturnType<typeof createNotificationsModule>;
