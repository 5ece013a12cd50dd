import type { MemberScope } from '@vigie/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { AlertRecord } from '../alerts/alert-types.ts';
import type { AuditDetails, AuditSubject } from '../audit/audit-service.ts';
import type { AlertContext } from './alert-message.ts';
import { createDigestService } from './digest-service.ts';
import { digestRoutes } from './digest-routes.ts';
import { createMailer } from './mailer.ts';
import { notificationPolicyRoutes } from './notification-policy-routes.ts';
import { createNotificationService, type NotifierLogger, type OneEmail } from './notification-service.ts';
import { onCallRoutes, voiceRoutes } from './on-call-routes.ts';
import { createOnCallService, type OnCallService } from './on-call-service.ts';
import { createPhoneProvider } from './phone-providers.ts';
import { pushPublicRoutes, pushRoutes } from './push-routes.ts';
import { createPushService } from './push-service.ts';
import { vapidKeys } from './vapid.ts';

type NotificationDeps = Parameters<typeof createNotificationService>[0];
type OnCallDeps = Parameters<typeof createOnCallService>[0];

/**
 * The notifications module: each organization's notification policy, and the outbox that sends
 * e-mails, webhooks, Web Push messages, SMS and calls once, even with several instances; it keeps the
 * policies, the outbox, the browsers' push subscriptions, people's phones and sites' on-call rotas.
 * In: the alerts due for a message (the alerts module's), how an alert is told (`describe`), the
 * team's addresses and who they are (the auth module's), who sees a site (the sites module's),
 * the signing secret (the push key is derived from it). Out: the service, `sendEmail` for the
 * modules that e-mail a link, the handler told when an alert opens, the sending job, the routes of
 * the policy, the subscriptions, the phones, the rotas, the voice calls' answers and the daily digest
 * (its job, its routes).
 */
export function createNotificationsModule(options: {
  db: Database;
  now: () => Date;
  logger: NotifierLogger;
  config: Pick<Config, 'mail' | 'webhookAllowPrivate' | 'publicUrl' | 'vapid' | 'vapidSubject' | 'phone'>;
  /** The signing secret, from which the Web Push key pair is derived when none is configured. */
  jwtSecret: string;
  /** … and, for a voice call's « 1 », the alert taken into account in the called person's name. */
  alerts: NotificationDeps['alerts'] & {
    acknowledge(organizationId: string, alertId: string, userId: string, comment: string): Promise<{ id: string }>;
    /** The daily digest: an organization's alerts active during a day. */
    during(organizationId: string, from: Date, to: Date): Promise<AlertRecord[]>;
  };
  describe: (alert: AlertRecord) => Promise<AlertContext>;
  pausedUntil: NotificationDeps['pausedUntil'];
  teamEmails: NotificationDeps['teamEmails'];
  recipientIds: NotificationDeps['recipientIds'];
  /** For rotas: members by id (the auth module's), who sees a site (the sites module's), a site's time zone. */
  users: OnCallDeps['users'] & { everyone(organizationId: string): Promise<{ id: string; email: string; scope: MemberScope | null }[]> };
  regions: OnCallDeps['regions'] & {
    covering<T extends { scope: MemberScope | null }>(organizationId: string, siteId: string | null, people: readonly T[]): Promise<T[]>;
  };
  sites: OnCallDeps['sites'] & { list(organizationId: string): Promise<{ id: string; name: string; timezone: string }[]> };
  /** A voice call's « 1 » is filed in the audit trail as the called person's. */
  audit: {
    byAccount(userId: string, ip: string, action: 'alert.acknowledged', subject: AuditSubject, details: AuditDetails): Promise<void>;
  };
}) {
  const { config } = options;
  const vapid = vapidKeys({
    configured: config.vapid,
    jwtSecret: options.jwtSecret,
    subject: config.vapidSubject,
    publicUrl: config.publicUrl,
    mailFrom: config.mail?.from,
  });
  const phone = createPhoneProvider(config.phone);
  const onCall: OnCallService = createOnCallService({
    db: options.db,
    now: options.now,
    phone,
    secret: `${options.jwtSecret}:voice-answer`,
    users: options.users,
    regions: options.regions,
    sites: options.sites,
  });
  /** Addresses of members of the organization whose scope does not hold the site (an outsider's are none of them). */
  const outOfScope = async (organizationId: string, emails: readonly string[], siteId: string | null) => {
    const named = new Set(emails.map((email) => email.toLowerCase()));
    if (named.size === 0) return new Set<string>();
    const members = (await options.users.everyone(organizationId)).filter((person) => named.has(person.email.toLowerCase()));
    const seeing = new Set(await options.regions.covering(organizationId, siteId, members));
    return new Set(members.filter((person) => !seeing.has(person)).map((person) => person.email.toLowerCase()));
  };
  const push = createPushService({ db: options.db, vapid, allowPrivate: config.webhookAllowPrivate, now: options.now });
  const notifications = createNotificationService({
    db: options.db,
    alerts: options.alerts,
    describe: options.describe,
    pausedUntil: options.pausedUntil,
    teamEmails: options.teamEmails,
    recipientIds: options.recipientIds,
    outOfScope,
    onCall,
    phone,
    vapid,
    mailer: config.mail ? createMailer(config.mail) : null,
    allowPrivateWebhooks: config.webhookAllowPrivate,
    publicUrl: config.publicUrl,
    now: options.now,
    logger: options.logger,
  });
  const digests = createDigestService({
    db: options.db,
    now: options.now,
    publicUrl: config.publicUrl,
    alertsDuring: (organizationId, from, to) => options.alerts.during(organizationId, from, to),
    describe: options.describe,
    members: (organizationId) => options.users.everyone(organizationId),
    covering: (organizationId, siteId, people) => options.regions.covering(organizationId, siteId, people),
    sites: (organizationId) => options.sites.list(organizationId),
    sendEmail: (message) => notifications.sendEmail(message),
  });
  const publicRoutes: FastifyPluginAsync = async (app) => {
    await app.register(pushPublicRoutes, { push });
    await app.register(voiceRoutes, {
      onCall,
      acknowledge: (organizationId, alertId, userId, comment) => options.alerts.acknowledge(organizationId, alertId, userId, comment),
      audited: (userId, ip, alertId) =>
        options.audit.byAccount(userId, ip, 'alert.acknowledged', { type: 'alert', id: alertId, name: null }, { via: 'appel' }),
    });
  };
  const routes: FastifyPluginAsync = async (app) => {
    await app.register(notificationPolicyRoutes, { notifications });
    await app.register(pushRoutes, { push });
    await app.register(onCallRoutes, { onCall });
    await app.register(digestRoutes, { digests });
  };
  return {
    notifications,
    /** Queues one e-mail in the outbox and starts its delivery; false when e-mail is off. */
    sendEmail: (message: OneEmail) => notifications.sendEmail(message),
    handlers: {
      /** An alert opened: what is due is sent now rather than at the next turn of the clock. */
      alertOpened: () => notifications.tick(),
    },
    jobs: { notify: () => notifications.tick(), digests: () => digests.run() },
    publicRoutes,
    routes,
    services: { notifications, push, onCall, digests },
    close: () => notifications.close(),
  };
}

export type NotificationsModule = ReturnType<typeof createNotificationsModule>;
