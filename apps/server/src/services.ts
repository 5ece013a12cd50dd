import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import { createAlertsModule } from './modules/alerts/alerts-module.ts';
import { createAuditModule } from './modules/audit/audit-module.ts';
import { createAuthModule } from './modules/auth/auth-module.ts';
import type { TokenService } from './modules/auth/token-service.ts';
import { createDevicesModule } from './modules/devices/devices-module.ts';
import { createEventsModule } from './modules/events/events-module.ts';
import { createInsightsModule } from './modules/insights/insights-module.ts';
import { createLorawanModule } from './modules/lorawan/lorawan-module.ts';
import { createMembersModule } from './modules/members/members-module.ts';
import { createNotificationsModule } from './modules/notifications/notifications-module.ts';
import { createOrganizationsModule } from './modules/organizations/organizations-module.ts';
import { createRateLimitsModule } from './modules/rate-limits/rate-limits-module.ts';
import { createReadingsExportModule } from './modules/readings-export/readings-export-module.ts';
import { createReportsModule } from './modules/reports/reports-module.ts';
import { createSitesModule } from './modules/sites/sites-module.ts';
import { createSsoModule } from './modules/sso/sso-module.ts';
import { createTasksModule } from './modules/tasks/tasks-module.ts';
import { createTelemetryModule } from './modules/telemetry/telemetry-module.ts';

export interface ServicesOptions {
  config: Config;
  database: DatabaseHandle;
  jwtSecret: string;
  logger: Logger;
  tokens?: TokenService;
  now?: () => Date;
  /** The clock of sessions and tokens (tests of idle and absolute lifetimes); the system clock by default. */
  sessionClock?: () => Date;
  /** The clock of the live stream's replay window, in milliseconds (tests hold it); the system's by default. */
  replayClock?: () => number;
  rateLimitScope?: string;
}

/**
 * The server's modules, wired once (docs/architecture.md). Each states what it needs and offers (`modules/<x>/<x>-module.ts`)
 * and builds its own DAL: no one else holds the database. A port to a module created further down is an arrow, called at
 * run time only. Each module's options: what it is given, then the modules it asks.
 */
export function createServices(options: ServicesOptions) {
  const now = options.now ?? (() => new Date());
  const modules = createModules(options, now);
  connectFlows(modules, options.database.pubsub);
  return exposeServices(modules, now);
}

/** Each module created once, given its ports: what the options give, then the modules it asks. */
function createModules(options: ServicesOptions, now: () => Date) {
  const { config, database, logger } = options;
  const { db, pubsub, sharedByInstances } = database;

  const events = createEventsModule({ pubsub, sharedByInstances, logger, replayClock: options.replayClock });
  // The first admin of a new client organization is invited as any member is.
  const invite = () => members.invitations.create.bind(members.invitations);
  const organizations = createOrganizationsModule({ db, now, invite, hasAccount: () => auth.users.hasAccount });
  const rateLimits = createRateLimitsModule({ db, sharedByInstances, scope: options.rateLimitScope ?? '' });
  const audit = createAuditModule({ db, now, accounts: () => ({ byId: auth.users.account, byEmail: auth.users.accountByEmail }) });
  const auth = createAuthModule({
    config,
    database,
    logger,
    now,
    jwtSecret: options.jwtSecret,
    tokens: options.tokens,
    sessionClock: options.sessionClock,
    organizations: organizations.organizations,
    rateLimits: rateLimits.rateLimits,
    audit: audit.audit,
    tell: events.tell,
    sendEmail: (message) => notifications.sendEmail(message),
    passwordRefused: (email) => sso.sso.passwordRefused(email),
  });
  const sso = createSsoModule({
    db,
    now,
    logger,
    config,
    jwtSecret: options.jwtSecret,
    accounts: {
      byEmail: auth.users.accountByEmail,
      create: (account) => auth.users.createSsoAccount(account),
      signIn: auth.signInViaSso,
      endPasswordSessions: (o, domains, except) => auth.sessions.endPasswordSessions(o, domains, except),
    },
    signedIn: (userId, ip) => audit.audit.loginSucceeded(userId, ip, { method: 'sso' }),
  });
  const sites = createSitesModule({
    db,
    now,
    countDevices: (o, s) => devices.countInSite(o, s),
    rules: () => alerts.handlers,
    tell: events.tell,
    sensorsOf: (o) => devices.overviewSensors(o),
    alertsOf: (o, from) => alerts.alerts.touching(o, from),
    tasksOf: (o, from, to) => tasks.tasks.countsBySite(o, from, to),
  });
  const members = createMembersModule({
    db,
    now,
    config,
    users: auth.users,
    auth: auth.auth,
    signIn: auth.signIn,
    validateScope: sites.regions.validate,
    describeScope: sites.describeScope,
    busLive: () => pubsub.live(),
    // A person SCIM brings in gets the role single sign-on would give them.
    defaultRole: async (organizationId) => (await sso.sso.get(organizationId))?.defaultRole ?? 'viewer',
    sessionEnded: auth.sessionEnded,
    accountChanged: auth.accountChanged,
    organizations: organizations.organizations,
    rateLimits: rateLimits.rateLimits,
    audit: audit.audit,
    sendEmail: (message) => notifications.sendEmail(message),
  });
  const devices = createDevicesModule({
    db,
    events: events.events,
    logger,
    now,
    trashClock: options.now,
    sharedByInstances,
    busLive: () => pubsub.live(),
    mqttPort: config.mqttBroker?.publicPort ?? null,
    organizations: organizations.organizations,
    rateLimits: rateLimits.rateLimits,
    telemetry: () => telemetry.telemetry,
    sites: () => sites.sites,
    rules: () => alerts.rules,
  });
  const telemetry = createTelemetryModule({
    db,
    writeConcurrency: database.writeConcurrency,
    partitionedReadings: database.readingsPartitioned,
    retentionDays: config.retentionDays,
    devices,
    events: events.events,
    now,
    // A verification never corrects a period a signed report covers (called once both modules exist).
    signedUntil: (o, sensorId, at) => reports.signedUntil(o, sensorId, at),
  });
  const alerts = createAlertsModule({
    db,
    now,
    logger,
    events: events.events,
    devices: () => devices.devices,
    sites: () => sites.sites,
    regions: () => sites.regions,
    telemetry: () => telemetry.telemetry,
    forecastOf: (o, s, key) => insights.storedForecast(o, s, key),
    planSubject: () => tasks.subjectOf,
  });
  const tasks = createTasksModule({
    db,
    now,
    events: events.events,
    sites: sites.sites,
    regionIds: async (organizationId) => (await sites.regions.list(organizationId)).map((region) => region.id),
    sensorSite: (organizationId, sensorId) => devices.devices.sensor.siteOf(organizationId, sensorId),
    openTaskAlert: (target) => alerts.alerts.openFor(target),
    openProcessAlert: (target) => alerts.alerts.openFor(target),
    signed: async (siteId, at) => (await reports.reports.signedUntil(siteId, at)) > at,
  });
  const teamEmails = async (o: string, s: string | null) =>
    (await sites.regions.covering(o, s, await auth.users.team(o))).map((u) => u.email);
  const notifications = createNotificationsModule({
    db,
    now,
    logger,
    config,
    alerts: alerts.alerts,
    describe: alerts.describe,
    sites: sites.sites,
    audit: audit.audit,
    jwtSecret: options.jwtSecret,
    teamEmails,
    pausedUntil: alerts.pausedUntil,
    users: auth.users,
    regions: sites.regions,
    recipientIds: async (o, emails, s) => (await sites.regions.covering(o, s, await auth.users.recipients(o, emails))).map((p) => p.id),
  });
  const insights = createInsightsModule({
    db,
    now,
    logger,
    config,
    sensors: devices.sensors,
    sites: sites.sites,
    telemetry: telemetry.telemetry,
    rulesWatching: alerts.rulesWatching,
  });
  const lorawan = createLorawanModule({
    db,
    now,
    publicUrl: config.publicUrl,
    telemetry: () => telemetry.telemetry,
    sensors: () => devices.sensors,
    gateways: () => devices.devices.emitter,
    config,
    jwtSecret: options.jwtSecret,
    logger,
    leases: insights.leases,
    assertSite: async (o, s) => void (await sites.sites.get(o, s)),
    createRule: (o, rule) => alerts.rules.create(o, rule),
  });
  const reports = createReportsModule({
    db,
    now,
    logger,
    sites: sites.sites,
    organizations: organizations.organizations,
    sensors: devices.sensors,
    teamEmails,
    rulesWatching: alerts.rulesWatching,
    alerts: alerts.record,
    telemetry: telemetry.telemetry,
    users: auth.users,
    events: events.events,
    sendEmail: notifications.sendEmail,
    publicUrl: config.publicUrl,
    regions: sites.regions,
    calibrations: telemetry.calibrations,
    planOf: (organizationId, siteId, from, to) => planOf(tasks, alerts, organizationId, siteId, from, to),
  });

  const readingsExport = createReadingsExportModule({
    sites: sites.sites,
    sensors: devices.sensors,
    page: (sensorId, o) => telemetry.telemetry.page(sensorId, o),
  });

  return {
    events,
    organizations,
    rateLimits,
    audit,
    auth,
    sso,
    members,
    devices,
    telemetry,
    sites,
    alerts,
    notifications,
    insights,
    reports,
    lorawan,
    tasks,
    readingsExport,
  };
}

type Modules = ReturnType<typeof createModules>;

/**
 * The flows between modules: stored readings → alerts, insights and tasks; fresh forecasts →
 * alerts; an opened alert → notifications (its message told by `alerts.describe`).
 */
function connectFlows(modules: Modules, pubsub: DatabaseHandle['pubsub']): void {
  const { events, auth, members, devices, telemetry, alerts, notifications, insights, tasks } = modules;
  telemetry.onStored(alerts.handlers.readingsStored);
  telemetry.onStored(insights.handlers.readingsStored);
  telemetry.onStored(tasks.handlers.readingsStored);
  insights.onComputed(alerts.handlers.forecastComputed);
  alerts.onOpened(notifications.handlers.alertOpened);
  // What other instances announce, and what to forget when the bus was deaf for a while.
  for (const module of [auth, members, devices, alerts]) events.events.subscribeAll(module.handlers.liveEvent);
  for (const module of [auth, members, devices]) pubsub.onResumed(module.handlers.busResumed);
}

/** The services the routes and jobs use, every module's together, and the order in which they close. */
function exposeServices(modules: Modules, now: () => Date) {
  const {
    events,
    organizations,
    rateLimits,
    audit,
    auth,
    sso,
    members,
    devices,
    telemetry,
    sites,
    alerts,
    notifications,
    insights,
    reports,
    lorawan,
    tasks,
  } = modules;
  let closing: Promise<void> | undefined;
  return {
    ...events.services,
    ...organizations.services,
    ...rateLimits.services,
    ...audit.services,
    ...auth.services,
    ...sso.services,
    ...members.services,
    ...devices.services,
    ...telemetry.services,
    ...sites.services,
    ...alerts.services,
    ...notifications.services,
    ...insights.services,
    ...reports.services,
    ...lorawan.services,
    ...tasks.services,
    modules,
    now,
    /** Once, whoever asks first (the app's onClose hook, or its owner before closing the database). */
    close() {
      // Readings queued are committed, then what they set off finishes, before the database closes.
      closing ??= (async () => {
        for (const module of [insights, reports, tasks, telemetry, alerts, auth, notifications, lorawan, events]) await module.close();
      })();
      return closing;
    },
  };
}

/** A site's plan over a report's period: the tasks due, the processes started, and the alerts they opened. */
async function planOf(
  tasks: ReturnType<typeof createTasksModule>,
  alerts: ReturnType<typeof createAlertsModule>,
  organizationId: string,
  siteId: string,
  from: Date,
  to: Date,
) {
  const [due, started] = await Promise.all([
    tasks.tasks.dueDuring(organizationId, siteId, from, to),
    tasks.processes.startedDuring(organizationId, siteId, from, to),
  ]);
  const alertIds = [...due, ...started].flatMap((item) => (item.alertId ? [item.alertId] : []));
  const opened = await Promise.all(alertIds.map((id) => alerts.alerts.get(organizationId, id).catch(() => null)));
  return { tasks: due, processes: started, alerts: opened.flatMap((alert) => (alert ? [alert] : [])) };
}

export type Services = ReturnType<typeof createServices>;
