import type { Insights, Rule } from '@vigie/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { DeviceService } from '../devices/device-service.ts';
import type { SiteService } from '../sites/site-service.ts';
import type { StoredSensorReading, TelemetryService } from '../telemetry/telemetry-service.ts';
import { insightsRoutes } from './insights-routes.ts';
import { createInsightsRunner } from './insights-runner.ts';
import { createInsightsDal } from './insights-dal.ts';
import { createInsightsService } from './insights-service.ts';

/** Told of fresh figures of a sensor's measure. */
export type InsightsComputed = (sensor: { id: string; organizationId: string; siteId: string }, insights: Insights) => Promise<void>;

/**
 * The insights module: predictive analysis of each sensor (in a worker thread), stored and
 * refreshed by a background pass once across instances; it keeps the sensors' insights, the
 * backfill marks and the job leases (offered to other modules as `leases`).
 * In: the sensors, the sites' names, the telemetry (measures heard, means) and the rules watching a
 * sensor (the alerts module's). Out: the service, `storedForecast` for the alerts, `onComputed`
 * (who hears of fresh figures), the handler of stored readings, the background job and the routes.
 */
export function createInsightsModule(options: {
  db: Database;
  now: () => Date;
  logger: Logger;
  config: Pick<Config, 'insightsRefreshSeconds' | 'insightsPassLimit'>;
  sensors: Pick<DeviceService, 'get' | 'seenSince' | 'named'>;
  sites: Pick<SiteService, 'list'>;
  telemetry: Pick<TelemetryService, 'latestOf' | 'means'>;
  rulesWatching: (organizationId: string, sensorId: string, siteId: string) => Promise<Rule[]>;
}) {
  const { sensors, sites, telemetry, logger } = options;
  const computed: InsightsComputed[] = [];
  const runner = createInsightsRunner({ logger });
  const insights = createInsightsService({
    db: options.db,
    runner,
    sensor: async (organizationId, sensorId) => (await sensors.get(organizationId, sensorId)).device,
    sensorsSeenSince: (since, limit, after) => sensors.seenSince(since, limit, after),
    sensorsNamed: (ids) => sensors.named(ids),
    siteNames: async (organizationId) => new Map((await sites.list(organizationId)).map((site) => [site.id, site.name])),
    keysOf: async (ids) => new Map([...(await telemetry.latestOf(ids))].map(([id, values]) => [id, Object.keys(values)])),
    rulesOf: options.rulesWatching,
    means: (sensorId, key, from, to, stepMs) => telemetry.means(sensorId, key, from, to, stepMs),
    refreshMs: options.config.insightsRefreshSeconds * 1000,
    passLimit: options.config.insightsPassLimit,
    onComputed: async (sensor, figures) => {
      for (const handler of computed) await handler(sensor, figures);
    },
    now: options.now,
  });
  const routes: FastifyPluginAsync = async (app) => {
    await app.register(insightsRoutes, { insights });
  };
  const leases = createInsightsDal(options.db);
  return {
    insights,
    /** Turns across instances (`job_leases`) for lasting tasks of other modules: a connection held by one instance. */
    leases: {
      hold: (name: string, holder: string, ms: number) => leases.hold(name, holder, options.now(), ms),
      release: (name: string, holder: string) => leases.release(name, holder),
    },
    storedForecast: (organizationId: string, sensorId: string, key: string) => insights.storedForecast(organizationId, sensorId, key),
    onComputed: (handler: InsightsComputed) => void computed.push(handler),
    handlers: {
      // Readings that came late make the figures computed since their date wrong: marked before
      // the acknowledgement, so that a request after it computes them again.
      readingsStored: (readings: StoredSensorReading[]) =>
        insights
          .noteStored(readings)
          .catch((error: unknown) => logger.error({ err: error }, 'Lectures tardives non signalées à l’analyse')),
    },
    jobs: { refresh: () => insights.refresh() },
    routes,
    services: { insights },
    close: () => runner.close(),
  };
}

export type InsightsModule = ReturnType<typeof createInsightsModule>;
