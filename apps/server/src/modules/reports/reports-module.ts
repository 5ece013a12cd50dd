import type { Rule } from '@vigie/contract';
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
import { createReportRenderer } from './report-renderer.ts';
import { reportRoutes } from './report-routes.ts';
import { createReportService } from './report-service.ts';

/**
 * The reports module: the monthly HACCP reports of a site, laid out in a worker thread, written
 * once and signed once; it keeps the reports.
 * In: the sites, the organizations' names, the sensors, the rules watching a sensor and the
 * alerts (the alerts module's), the readings' series, the users' names and the event hub.
 * Out: the service, the monthly job and the routes.
 */
export function createReportsModule(options: {
  db: Database;
  now: () => Date;
  logger: Logger;
  sites: Pick<SiteService, 'get' | 'all'>;
  organizations: Pick<OrganizationService, 'findById'>;
  sensors: Pick<DeviceService, 'list'>;
  rulesWatching: (organizationId: string, sensorId: string, siteId: string) => Promise<Rule[]>;
  alerts: Pick<AlertService, 'ofSensorDuring'>;
  telemetry: Pick<TelemetryService, 'series'>;
  users: Pick<UserService, 'namesOf'>;
  events: Pick<EventHub, 'publish'>;
}) {
  const { sites, sensors, alerts, telemetry, events } = options;
  const renderer = createReportRenderer({ logger: options.logger });
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
    series: (sensorId, key, from, to) => telemetry.series(sensorId, key, from, to),
    namesOf: (ids) => options.users.namesOf(ids),
    publish: (organizationId, action, report) => events.publish([{ organizationId, type: 'report', data: { action, report } }]),
    logger: options.logger,
  });
  const routes: FastifyPluginAsync = async (app) => {
    await app.register(reportRoutes, { reports });
  };
  return {
    reports,
    jobs: { makeMonthly: () => reports.makeMonthly() },
    routes,
    services: { reports },
    close: () => renderer.close(),
  };
}

export type ReportsModule = ReturnType<typeof createReportsModule>;
