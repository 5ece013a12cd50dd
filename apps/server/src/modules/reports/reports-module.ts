import type { Pause, Report, Rule } from '@vigie/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { Logger } from 'pino';
import type { Database } from '../../db/database.ts';
import type { AlertService } from '../alerts/alert-service.ts';
import type { UserService } from '../auth/user-service.ts';
import type { DeviceService } from '../devices/device-service.ts';
import type { EventHub } from '../events/event-hub.ts';
import type { OrganizationService } from '../organizations/organization-service.ts';
import type { SiteService } from '../sites/site-service.ts';
import type { TelemetryService } from '../telemetry/telemetry-service.ts';
import { notFound } from '../../errors.ts';
import type { CalibrationService } from '../telemetry/calibration-service.ts';
import { remindCalibrations } from './calibration-reminders.ts';
import { checkRoutes } from './check-routes.ts';
import { renderConsolidatedPdf } from './consolidated-report.ts';
import { createCheckService } from './check-service.ts';
import type { ReportSources } from './report-builder.ts';
import { createReportRenderer } from './report-renderer.ts';
import { reportRoutes } from './report-routes.ts';
import { createReportService } from './report-service.ts';
import type { OneEmail } from '../notifications/notification-service.ts';

/** « novembre 2026 » for « 2026-11 ». */
function monthName(month: string): string {
  const [year, number] = month.split('-').map(Number);
  return new Intl.DateTimeFormat('fr-FR', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    Date.UTC(year ?? 1970, (number ?? 1) - 1, 1),
  );
}

/** The e-mail that tells a site's people its monthly report is ready: where to read and sign it, and the PDF's fingerprint. */
export function reportEmail(site: { id: string; name: string }, report: Report, publicUrl: string): { subject: string; text: string } {
  const month = monthName(report.month);
  return {
    subject: `Rapport HACCP de ${month} — ${site.name}`,
    text: [
      'Bonjour,',
      '',
      `Le rapport HACCP de ${month} du magasin «\u202f${site.name}\u202f» est prêt\u202f: relevés de température, dépassements et actions correctives du mois.`,
      '',
      `Consultez-le et signez-le dans Vigie\u202f: ${publicUrl.replace(/\/$/, '')}/dashboard/rapports?site=${site.id}`,
      '',
      `Empreinte SHA-256 du PDF\u202f: ${report.sha256}`,
      '',
      '— Vigie',
    ].join('\n'),
  };
}

/**
 * The reports module: the monthly HACCP reports of a site, laid out in a worker thread, written
 * once and signed once; it keeps the reports.
 * In: the sites, the organizations' names, the sensors, the rules watching a sensor and the
 * alerts (the alerts module's), the readings' series, the users' names, the event hub, and the
 * site's people and `sendEmail` (a monthly report is e-mailed to them once, through the outbox).
 * Out: the service, the monthly job and the routes.
 */
export function createReportsModule(options: {
  db: Database;
  now: () => Date;
  logger: Logger;
  sites: Pick<SiteService, 'get' | 'all' | 'list'>;
  /** The organization's regions, for the consolidated report (the sites module's). */
  regions: { list(organizationId: string): Promise<{ id: string; name: string }[]> };
  organizations: Pick<OrganizationService, 'findById'>;
  sensors: Pick<DeviceService, 'list'>;
  rulesWatching: (organizationId: string, sensorId: string, siteId: string) => Promise<Rule[]>;
  alerts: Pick<AlertService, 'ofSensorDuring'> & {
    /** A sensor's pauses (its own and its site's) that overlap [from, to). */
    pausesDuring(organizationId: string, sensorId: string, siteId: string, from: Date, to: Date): Promise<Pause[]>;
  };
  telemetry: Pick<TelemetryService, 'series'>;
  users: Pick<UserService, 'namesOf'>;
  events: Pick<EventHub, 'publish'>;
  /** The site's people (their scope covers it) who receive its alerts: they receive its monthly report too. */
  teamEmails: (organizationId: string, siteId: string) => Promise<string[]>;
  sendEmail: (message: OneEmail) => Promise<boolean>;
  publicUrl: string;
  /** The sensors' verification register (the telemetry module's): listed in the report, reminded when due. */
  calibrations: Pick<CalibrationService, 'lastOf' | 'dueForReminder' | 'markReminded' | 'recordedAfter'>;
  /** The site's food-safety plan of a period and the alerts it opened (the tasks module's, with the alerts'). */
  planOf?: ReportSources['planOf'];
}) {
  const { sites, sensors, alerts, telemetry, events } = options;
  const renderer = createReportRenderer({ logger: options.logger });
  const sensorViews = async (organizationId: string) => (await sensors.list(organizationId)).map((view) => view.device);
  const checks = createCheckService({
    db: options.db,
    now: options.now,
    assertSite: async (organizationId, siteId) => void (await sites.get(organizationId, siteId)),
    sensorSite: async (organizationId, sensorId) => (await sensorViews(organizationId)).find((sensor) => sensor.id === sensorId)?.siteId,
  });
  const reports = createReportService({
    db: options.db,
    now: options.now,
    renderer,
    site: (organizationId, siteId) => sites.get(organizationId, siteId),
    sites: () => sites.all(),
    organizationName: async (organizationId) => (await options.organizations.findById(organizationId))?.name ?? '',
    sensorsOf: async (organizationId, siteId) =>
      (await sensors.list(organizationId))
        .map((view) => view.device)
        .filter((sensor) => sensor.siteId === siteId)
        .map((sensor) => ({
          id: sensor.id,
          name: sensor.name,
          serial: sensor.serial,
          model: sensor.model,
          inactivityTimeoutSeconds: sensor.inactivityTimeoutSeconds,
        })),
    rulesOf: options.rulesWatching,
    alertsOf: (organizationId, sensorId, from, to) => alerts.ofSensorDuring(organizationId, sensorId, from, to),
    pausesOf: (organizationId, sensorId, siteId, from, to) => alerts.pausesDuring(organizationId, sensorId, siteId, from, to),
    series: (sensorId, key, from, to) => telemetry.series(sensorId, key, from, to),
    namesOf: (ids) => options.users.namesOf(ids),
    checksOf: (organizationId, siteId, from, to) => checks.ofSite(organizationId, siteId, from, to),
    verificationsOf: (sensorIds, before) => options.calibrations.lastOf(sensorIds, before),
    recordedAfter: (sensorIds, after, before) => options.calibrations.recordedAfter(sensorIds, after, before),
    ...(options.planOf ? { planOf: options.planOf } : {}),
    publish: (organizationId, action, report) => events.publish([{ organizationId, type: 'report', data: { action, report } }]),
    made: async (site, report) => {
      for (const to of await options.teamEmails(site.organizationId, site.id))
        await options.sendEmail({
          organizationId: site.organizationId,
          to,
          idempotencyKey: `report:${report.id}:${to}`,
          ...reportEmail(site, report, options.publicUrl),
        });
    },
    logger: options.logger,
  });
  /** The consolidated report of a month: the shops seen (`siteIds`, null for all), or one region's; each from its own report. */
  async function consolidated(
    organizationId: string,
    siteIds: ReadonlySet<string> | null,
    query: { month: string; regionId?: string | undefined },
  ): Promise<{ pdf: Buffer; fileName: string }> {
    const regions = await options.regions.list(organizationId);
    const region = query.regionId ? regions.find((each) => each.id === query.regionId) : undefined;
    if (query.regionId && !region) throw notFound('Région introuvable.');
    const shops = (await sites.list(organizationId)).filter(
      (site) => (siteIds === null || siteIds.has(site.id)) && (!region || site.regionId === region.id),
    );
    const ofMonth = (await reports.list(organizationId)).filter((report) => report.month === query.month);
    const now = options.now();
    const pdf = await renderConsolidatedPdf({
      organizationName: (await options.organizations.findById(organizationId))?.name ?? '',
      scopeLabel: region ? `Région ${region.name}` : siteIds === null ? 'Toute la chaîne' : 'Mes magasins',
      month: query.month,
      createdAt: now.toISOString(),
      timezone: shops[0]?.timezone ?? 'Europe/Paris',
      shops: shops.map((site) => ({
        siteId: site.id,
        name: site.name,
        regionName: regions.find((each) => each.id === site.regionId)?.name ?? null,
        // The newest report of the month (the list comes newest first).
        report: ofMonth.find((report) => report.siteId === site.id) ?? null,
      })),
    });
    const label = (region?.name ?? 'chaine')
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .toLowerCase();
    return { pdf, fileName: `rapport-consolide_${label || 'region'}_${query.month}.pdf` };
  }

  const routes: FastifyPluginAsync = async (app) => {
    await app.register(reportRoutes, { reports, consolidated });
    await app.register(checkRoutes, { checks });
  };
  return {
    reports,
    /** Up to when signed reports of the sensor's shop cover the time from `at` on (`at` when none does). */
    signedUntil: async (organizationId: string, sensorId: string, at: Date): Promise<Date> => {
      const siteId = (await sensorViews(organizationId)).find((sensor) => sensor.id === sensorId)?.siteId;
      return siteId ? reports.signedUntil(siteId, at) : at;
    },
    jobs: {
      makeMonthly: () => reports.makeMonthly(),
      remindCalibrations: () => remindCalibrations({ ...options, sensors: sensorViews, sites }),
    },
    routes,
    services: { reports, checks },
    close: () => renderer.close(),
  };
}

export type ReportsModule = ReturnType<typeof createReportsModule>;
