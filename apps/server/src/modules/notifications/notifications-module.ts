import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { AlertRecord } from '../alerts/alert-types.ts';
import type { AlertContext } from './alert-message.ts';
import { createMailer } from './mailer.ts';
import { notificationPolicyRoutes } from './notification-policy-routes.ts';
import { createNotificationService, type NotifierLogger, type OneEmail } from './notification-service.ts';
import { pushPublicRoutes, pushRoutes } from './push-routes.ts';
import { createPushService } from './push-service.ts';
import { vapidKeys } from './vapid.ts';

type NotificationDeps = Parameters<typeof createNotificationService>[0];

/**
 * The notifications module: each organization's notification policy, and the outbox that sends
 * e-mails, webhooks and Web Push messages once, even with several instances; it keeps the
 * policies, the outbox and the browsers' push subscriptions.
 * In: the alerts due for a message (the alerts module's), how an alert is told (`describe`), the
 * team's addresses and who they are (the auth module's), the signing secret (the push key is
 * derived from it). Out: the service, `sendEmail` for the modules that e-mail a link, the handler
 * told when an alert opens, the sending job, the policy's and the subscriptions' routes.
 */
export function createNotificationsModule(options: {
  db: Database;
  now: () => Date;
  logger: NotifierLogger;
  config: Pick<Config, 'mail' | 'webhookAllowPrivate' | 'publicUrl' | 'vapid' | 'vapidSubject'>;
  /** The signing secret, from which the Web Push key pair is derived when none is configured. */
  jwtSecret: string;
  alerts: NotificationDeps['alerts'];
  describe: (alert: AlertRecord) => Promise<AlertContext>;
  pausedUntil: NotificationDeps['pausedUntil'];
  teamEmails: NotificationDeps['teamEmails'];
  recipientIds: NotificationDeps['recipientIds'];
}) {
  const { config } = options;
  const vapid = vapidKeys({
    configured: config.vapid,
    jwtSecret: options.jwtSecret,
    subject: config.vapidSubject,
    publicUrl: config.publicUrl,
    mailFrom: config.mail?.from,
  });
  const push = createPushService({ db: options.db, vapid, allowPrivate: config.webhookAllowPrivate, now: options.now });
  const notifications = createNotificationService({
    db: options.db,
    alerts: options.alerts,
    describe: options.describe,
    pausedUntil: options.pausedUntil,
    teamEmails: options.teamEmails,
    recipientIds: options.recipientIds,
    vapid,
    mailer: config.mail ? createMailer(config.mail) : null,
    allowPrivateWebhooks: config.webhookAllowPrivate,
    publicUrl: config.publicUrl,
    now: options.now,
    logger: options.logger,
  });
  const publicRoutes: FastifyPluginAsync = async (app) => {
    await app.register(pushPublicRoutes, { push });
  };
  const routes: FastifyPluginAsync = async (app) => {
    await app.register(notificationPolicyRoutes, { notifications });
    await app.register(pushRoutes, { push });
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
    publicRoutes,
    routes,
    services: { notifications, push },
    close: () => notifications.close(),
  };
}

export type NotificationsModule = ReturnType<typeof createNotificationsModule>;
