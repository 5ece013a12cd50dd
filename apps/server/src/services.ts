import type { DeviceKind } from '@vigie/contract';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import { createAuthService } from './modules/auth/auth-service.ts';
import { createLoginLimiter } from './modules/auth/login-limiter.ts';
import { createRateLimits } from './modules/rate-limits/rate-limits.ts';
import { createAccountCache } from './modules/auth/account-cache.ts';
import { createSessionService, type SessionEnded } from './modules/auth/session-service.ts';
import { createTokenService, type TokenService } from './modules/auth/token-service.ts';
import { createClaimingService } from './modules/devices/claiming-service.ts';
import { createCredentialService } from './modules/devices/credential-service.ts';
import { createDeviceService, type DeviceService } from './modules/devices/device-service.ts';
import { createTrashService } from './modules/devices/trash-service.ts';
import { createLiveEventHub } from './modules/events/event-hub.ts';
import { createOrganizationService } from './modules/organizations/organization-service.ts';
import { createProvisioningService } from './modules/devices/provisioning-service.ts';
import { createTelemetryService } from './modules/telemetry/telemetry-service.ts';
import { createUserService } from './modules/auth/user-service.ts';
import { createAlertsModule } from './modules/alerts/alerts-module.ts';
import type { AlertRecord } from './modules/alerts/alert-types.ts';
import { createMailer } from './modules/notifications/mailer.ts';
import { createNotificationService } from './modules/notifications/notification-service.ts';
import type { AlertContext } from './modules/notifications/alert-message.ts';
import { createInsightsRunner } from './modules/insights/insights-runner.ts';
import { createInsightsDal } from './modules/insights/insights-dal.ts';
import { createInsightsService } from './modules/insights/insights-service.ts';
import { createReportRenderer } from './modules/reports/report-renderer.ts';
import { createReportService } from './modules/reports/report-service.ts';
import { createSiteService } from './modules/sites/site-service.ts';
import { createMembersService } from './modules/members/members-service.ts';
import { createAuditService } from './modules/audit/audit-service.ts';
import { createSecretBox } from './modules/auth/secret-box.ts';
import { createTotpService } from './modules/auth/totp-service.ts';
import { createInvitationService } from './modules/members/invitation-service.ts';
import { createPasswordResetService, PASSWORD_RESET_MAX_PER_EMAIL } from './modules/auth/password-reset-service.ts';

/**
 * How long a user or an open session is trusted from memory before its row is read again: the
 * longest a change can go unseen by an instance that missed the bus's message about it.
 */
const ACCOUNT_CACHE_TTL_MS = 5_000;

/**
 * Every service of the server, wired once; routes, adapters and jobs receive what they use.
 * Each module builds its own DAL from the database handle: no one else holds it.
 */
export function createServices(options: {
  config: Config;
  database: DatabaseHandle;
  jwtSecret: string;
  logger: Logger;
  tokens?: TokenService;
  now?: () => Date;
  /** The clock of sessions and tokens (tests of idle and absolute lifetimes); the system clock by default. */
  sessionClock?: () => Date;
  rateLimitScope?: string;
}) {
  const { config, database, logger } = options;
  const db = database.db;
  const now = options.now ?? (() => new Date());
  const events = createLiveEventHub(database.pubsub, logger);
  const organizations = createOrganizationService({ db });
  const users = createUserService({ db, organizations });
  // Sessions and their tokens share a clock, which is not the rules' clock that tests move.
  const sessionClock = options.sessionClock ?? (() => new Date());
  const tokens = options.tokens ?? createTokenService(options.jwtSecret, () => sessionClock().getTime());
  // Accounts and sessions in memory (see `createAccountCache`): a change is forgotten as it is made,
  // so a logout or a new role applies from the very next request. Instances sharing PostgreSQL
  // announce their changes on the bus, which each instance hears within milliseconds; while its bus
  // is down an instance reads every request from the database, and it starts afresh once it hears.
  const busLive = () => database.pubsub.live();
  const accountCache = createAccountCache({
    now: () => sessionClock().getTime(),
    ttlMs: ACCOUNT_CACHE_TTL_MS,
    maxEntries: 10_000,
    trusted: busLive,
  });
  // Instances sharing PostgreSQL: the change completes once the bus has carried it to all of them.
  const tell = async (announced: Parameters<typeof events.publish>[0]) => {
    if (database.sharedByInstances) await events.publishHeard(announced);
    else events.publish(announced);
  };
  const sessionEnded: SessionEnded = async ({ organizationId, userId, sessionId }) => {
    accountCache.forgetSession(sessionId);
    await tell([{ organizationId, type: 'session-ended', data: { userId, sessionId } }]);
  };
  /** One user, or without one every user of the organization. */
  const forgetAccount = (organizationId: string, userId: string | null) => {
    if (userId) accountCache.forgetUser(userId);
    else accountCache.forgetOrganization(organizationId);
  };
  const accountChanged = async (organizationId: string, userId?: string) => {
    forgetAccount(organizationId, userId ?? null);
    await tell([{ organizationId, type: 'account-changed', data: { userId: userId ?? null } }]);
  };
  events.subscribeAll((event) => {
    if (event.type === 'session-ended') accountCache.forgetSession(event.data.sessionId);
    if (event.type === 'account-changed') forgetAccount(event.organizationId, event.data.userId);
  });
  database.pubsub.onResumed(() => accountCache.clear());
  /** The signed-in user of a request (see `accountCache`). */
  const accounts = {
    getById: (id: string) => accountCache.user(id, () => users.getById(id)),
  };
  const sessions = createSessionService({
    db,
    now: sessionClock,
    lifetimes: config.sessions,
    onEnded: sessionEnded,
    cache: accountCache,
  });
  // Shared by the instances on PostgreSQL: an attempt counts wherever the load balancer sent it.
  const rateLimits = createRateLimits({ db, sharedByInstances: database.sharedByInstances, scope: options.rateLimitScope ?? '' });
  const audit = createAuditService({ db, now });
  // Codes of the authenticator app follow the clock of sessions (moved by the tests of codes).
  // Their secrets are sealed with TOTP_KEY, or a key derived from the signing secret: both live outside the database.
  const box = createSecretBox(config.totpKey ?? options.jwtSecret, 'totp-secrets', config.totpPreviousKeys);
  const totp = createTotpService({ db, now: sessionClock, box, logger, onAccountChanged: accountChanged });
  // The owner's usual addresses are those of the sign-ins in the audit trail, on the trail's clock.
  const limiter = createLoginLimiter(config.loginLimits, rateLimits, audit, now);
  const auth = createAuthService({ users, tokens, limiter, sessions, audit, totp });

  // Devices and telemetry need each other (latest values shown with a device; a transmitter's
  // readings for its sensors): each receives the other's methods, called only at run time.
  const devices: Record<DeviceKind, DeviceService> = {
    emitter: deviceService('emitter'),
    sensor: deviceService('sensor'),
  };
  // What other instances changed or heard (their own news too, which changes nothing).
  events.subscribeAll((event) => {
    if (event.type === 'devices-changed') devices[event.data.kind].changedElsewhere(event.organizationId);
    if (event.type === 'reading') devices[event.data.kind].heardElsewhere(event.data);
  });
  database.pubsub.onResumed(() => {
    for (const service of Object.values(devices)) service.forgetAll();
  });
  const sites = createSiteService({
    db,
    countDevices: async (organizationId, siteId) =>
      (await devices.emitter.countInSite(organizationId, siteId)) + (await devices.sensor.countInSite(organizationId, siteId)),
    beforeRemove: async (organizationId, siteId) => {
      for (const rule of await alerts.rules.list(organizationId, { siteId })) await alerts.rules.remove(organizationId, rule.id);
    },
  });
  const telemetry = createTelemetryService({
    db,
    writeConcurrency: database.writeConcurrency,
    devices: {
      findSensorByReference: (organizationId, reference) => devices.sensor.findByReference(organizationId, reference),
      touch: (kind, touches, latest) => devices[kind].touch(touches, latest),
    },
    events,
    retentionDays: config.retentionDays,
    partitionedReadings: database.readingsPartitioned,
    onStored: async (readings) => {
      void alerts.engine.onReadings(readings);
      // Readings that came late make the figures computed since their date wrong: marked before
      // the acknowledgement, so that a request after it computes them again.
      await insights
        .noteStored(readings)
        .catch((error: unknown) => logger.error({ err: error }, 'Lectures tardives non signalées à l’analyse'));
    },
  });
  const credentials = createCredentialService({
    db,
    isActive: (identity) => devices[identity.kind].isActive(identity.organizationId, identity.deviceId),
  });
  // A token ended on this instance: every instance forgets it and closes the device's MQTT sessions.
  credentials.onRevoked((deviceId, organizationId) => events.publish([{ organizationId, type: 'revoked', data: { deviceId } }]));
  events.subscribeAll((event) => {
    if (event.type === 'revoked') credentials.forget(event.data.deviceId);
    if (event.type === 'restored') credentials.forgetRefusals();
  });
  const provisioning = createProvisioningService({
    rateLimits,
    organizations,
    credentials,
    devices,
    siteNamed: (organizationId, reference) => sites.siteNamed(organizationId, reference),
  });

  const claiming = createClaimingService({
    db,
    rateLimits,
    devices,
    credentials,
    assertSite: async (organizationId, siteId) => void (await sites.get(organizationId, siteId)),
    createRule: (organizationId, rule) => alerts.rules.create(organizationId, rule),
    ruleCount: async (organizationId, sensorId) => (await alerts.rules.list(organizationId, { sensorId })).length,
    now,
  });

  const storedInsights = createInsightsDal(db);
  const alerts = createAlertsModule({
    db,
    now,
    sensor: async (sensorId) => (await devices.sensor.watched({ ids: [sensorId] }))[0],
    sensorsOf: async (rule) =>
      rule.sensorId
        ? devices.sensor.watched({ ids: [rule.sensorId] })
        : rule.siteId
          ? devices.sensor.watched({ organizationId: rule.organizationId, siteId: rule.siteId })
          : [],
    site: (siteId) => sites.byId(siteId),
    assertSensor: async (organizationId, sensorId) => void (await devices.sensor.get(organizationId, sensorId)),
    assertSite: async (organizationId, siteId) => void (await sites.get(organizationId, siteId)),
    publish: (organizationId, action, alert) => {
      events.publish([{ organizationId, type: 'alert', data: { action, alert } }]);
      if (action === 'opened') void notifications.tick();
    },
    onRulesChanged: (organizationId) => events.publish([{ organizationId, type: 'alert-rules', data: {} }]),
    // A « dépassement prévu » alert tells when its limit is due from the latest stored analysis, never computing one.
    forecastOf: async (organizationId, sensorId, key) => {
      const stored = await storedInsights.find(organizationId, sensorId, key);
      return stored && { computedAt: stored.computedAt, forecast: stored.insights.forecast };
    },
    logger,
  });
  // Another instance changed an alert or the rules: this one drops what it remembered of them.
  events.subscribeAll((event) => {
    if (event.type === 'alert') alerts.engine.forget(event.data.alert.ruleId, event.data.alert.sensorId);
    if (event.type === 'alert-rules') void alerts.engine.rulesChanged(event.organizationId);
    if (event.type === 'device' && event.data.kind === 'sensor') {
      alerts.engine.forgetSensor(event.data.action === 'deleted' ? event.data.deviceId : event.data.device.id);
    }
  });

  async function describeAlert(alert: AlertRecord): Promise<AlertContext> {
    const [sensor] = await devices.sensor.watched({ ids: [alert.sensorId] });
    const name = sensor ? (await devices.sensor.get(alert.organizationId, alert.sensorId)).device.name : 'Capteur supprimé';
    const site = alert.siteId ? await sites.byId(alert.siteId) : sensor ? await sites.byId(sensor.siteId) : undefined;
    const rule = await alerts.rules.get(alert.organizationId, alert.ruleId).catch(() => null);
    // A « dépassement prévu » is told with the reading beside the forecast, never in its place.
    const forecast = await alerts.alerts.forecast(alert);
    const latest = forecast && alert.key ? (await telemetry.latestOf([alert.sensorId])).get(alert.sensorId)?.[alert.key] : undefined;
    return {
      sensorName: name,
      siteName: site?.name ?? null,
      timezone: site?.timezone ?? 'Europe/Paris',
      ruleName: rule?.name ?? null,
      condition: rule?.condition ?? null,
      ...(forecast
        ? {
            forecast: { threshold: forecast.threshold, eta: forecast.eta ? new Date(forecast.eta) : null },
            reading: latest ? { value: latest.value, at: new Date(latest.ts) } : null,
          }
        : {}),
    };
  }

  const notifications = createNotificationService({
    db,
    alerts: alerts.alerts,
    describe: describeAlert,
    teamEmails: (organizationId) => users.teamEmails(organizationId),
    mailer: config.mail ? createMailer(config.mail) : null,
    allowPrivateWebhooks: config.webhookAllowPrivate,
    publicUrl: config.publicUrl,
    now,
    logger,
  });
  const trash = createTrashService(devices);

  const members = createMembersService({
    db,
    now: () => new Date(),
    onSessionEnded: sessionEnded,
    onAccountChanged: accountChanged,
    sendEmail: (message) => notifications.sendEmail(message),
    publicUrl: config.publicUrl,
  });
  const invitations = createInvitationService({
    db,
    rateLimits,
    now,
    publicUrl: config.publicUrl,
    ttlHours: config.invitationTtlHours,
    limits: { maxPerIp: config.loginLimits.maxFailuresPerIp, windowSeconds: config.loginLimits.windowSeconds },
    hasAccount: (email) => users.hasAccount(email),
    sendEmail: (message) => notifications.sendEmail(message),
    signIn: async (userId, ip) => {
      const token = await tokens.issue(userId, (await sessions.open(userId)).id);
      await audit.byAccount(userId, ip, 'member.joined');
      return token;
    },
  });

  const passwordResets = createPasswordResetService({
    db,
    rateLimits,
    now,
    publicUrl: config.publicUrl,
    ttlMinutes: config.passwordResetTtlMinutes,
    limits: {
      maxPerIp: config.loginLimits.maxFailuresPerIp,
      maxPerEmail: PASSWORD_RESET_MAX_PER_EMAIL,
      windowSeconds: config.loginLimits.windowSeconds,
    },
    sendEmail: (message) => notifications.sendEmail(message),
    endSessions: async (user) => {
      const ended = await sessions.endAll(user);
      await audit.byAccount(user.userId, null, 'auth.password_reset');
      return ended;
    },
    logger,
  });

  /** The rules that watch a sensor: its own and its site's. */
  const rulesWatching = async (organizationId: string, sensorId: string, siteId: string) => [
    ...(await alerts.rules.list(organizationId, { sensorId })),
    ...(await alerts.rules.list(organizationId, { siteId })),
  ];

  const insightsRunner = createInsightsRunner({ logger });
  const insights = createInsightsService({
    db,
    runner: insightsRunner,
    sensor: async (organizationId, sensorId) => (await devices.sensor.get(organizationId, sensorId)).device,
    sensorsSeenSince: (since, limit, after) => devices.sensor.seenSince(since, limit, after),
    sensorsNamed: (ids) => devices.sensor.named(ids),
    siteNames: async (organizationId) => new Map((await sites.list(organizationId)).map((site) => [site.id, site.name])),
    keysOf: async (ids) => new Map([...(await telemetry.latestOf(ids))].map(([id, values]) => [id, Object.keys(values)])),
    rulesOf: rulesWatching,
    means: (sensorId, key, from, to, stepMs) => telemetry.means(sensorId, key, from, to, stepMs),
    refreshMs: config.insightsRefreshSeconds * 1000,
    passLimit: config.insightsPassLimit,
    onComputed: (sensor, computed) => alerts.engine.onForecast(sensor.id, computed.key, computed.forecast, new Date(computed.computedAt)),
    now,
  });

  const reportRenderer = createReportRenderer({ logger });
  const reports = createReportService({
    db,
    now,
    renderer: reportRenderer,
    site: (organizationId, siteId) => sites.get(organizationId, siteId),
    sites: () => sites.all(),
    organizationName: async (organizationId) => (await organizations.findById(organizationId))?.name ?? '',
    sensorsOf: async (organizationId, siteId) =>
      (await devices.sensor.list(organizationId))
        .map((view) => view.device)
        .filter((sensor) => sensor.siteId === siteId)
        .map((sensor) => ({
          id: sensor.id,
          name: sensor.name,
          serial: sensor.serial,
          model: sensor.model,
          inactivityTimeoutSeconds: sensor.inactivityTimeoutSeconds,
        })),
    rulesOf: rulesWatching,
    alertsOf: (organizationId, sensorId, from, to) => alerts.alerts.ofSensorDuring(organizationId, sensorId, from, to),
    series: (sensorId, key, from, to) => telemetry.series(sensorId, key, from, to),
    namesOf: (ids) => users.namesOf(ids),
    publish: (organizationId, action, report) => events.publish([{ organizationId, type: 'report', data: { action, report } }]),
    logger,
  });

  function deviceService(kind: DeviceKind) {
    return createDeviceService({
      db,
      kind,
      events,
      latestOf: (ids) => telemetry.latestOf(ids),
      // Lists in memory; shared by instances, kept current by what the others say on the bus.
      cacheLists: database.sharedByInstances ? { trusted: busLive } : 'alone',
      // In the trash, its token is refused at once (its sessions closed) but kept for a restore.
      // An external broker that cannot be reached leaves the device connected there, but what it
      // publishes is dropped: a device in the trash is refused by the consumer as well.
      onDeleted: async (deviceId, organizationId) => {
        telemetry.forgetDevice(deviceId);
        await credentials
          .suspend(deviceId, organizationId)
          .catch((error: unknown) => logger.warn({ err: error, deviceId }, 'Compte MQTT de l’appareil non suspendu dans le broker'));
      },
      // Back from the trash: every instance forgets that its kept token was refused.
      siteFor: (organizationId, siteId) => sites.siteFor(organizationId, siteId),
      onRestored: async (deviceId, organizationId) => {
        telemetry.forgetDevice(deviceId);
        events.publish([{ organizationId, type: 'restored', data: { deviceId } }]);
        await credentials
          .resume(deviceId)
          .catch((error: unknown) => logger.warn({ err: error, deviceId }, 'Compte MQTT de l’appareil non rétabli dans le broker'));
      },
      ...(options.now ? { now: options.now } : {}),
    });
  }

  /** What devices need to know to connect; the MQTT port is known once the broker listens. */
  const protocol: { mqttPort: number | null } = { mqttPort: config.mqttBroker?.publicPort ?? null };

  return {
    protocol,
    organizations,
    users,
    accounts,
    tokens,
    auth,
    sessions,
    events,
    credentials,
    devices,
    telemetry,
    provisioning,
    claiming,
    trash,
    sites,
    alerts,
    notifications,
    members,
    invitations,
    passwordResets,
    reports,
    insights,
    rateLimits,
    audit,
    totp,
    now,
    async close() {
      await insightsRunner.close();
      await reportRenderer.close();
      await telemetry.close();
      await alerts.engine.idle();
      await passwordResets.idle();
      await notifications.close();
      events.close();
    },
  };
}

export type Services = ReturnType<typeof createServices>;
