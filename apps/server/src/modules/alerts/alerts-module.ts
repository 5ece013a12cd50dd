import { type Alert, type DeviceKind, LORAWAN_GATEWAY_MODEL, ruleWatches } from '@vigie/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { DeviceService } from '../devices/device-service.ts';
import type { EventHub } from '../events/event-hub.ts';
import type { LiveEvent } from '../events/live-event.ts';
import type { AlertContext } from '../notifications/alert-message.ts';
import type { SiteService } from '../sites/site-service.ts';
import type { TelemetryService } from '../telemetry/telemetry-service.ts';
import { alertRoutes } from './alert-routes.ts';
import { pauseRoutes } from './pause-routes.ts';
import { createPauseService } from './pause-service.ts';
import type { EngineLogger, StoredReading, WatchedSensor } from './alert-engine.ts';
import type { AlertAction, StoredForecast } from './alert-service.ts';
import type { RuleRecord } from './alert-rule-dal.ts';
import type { AlertRecord } from './alert-types.ts';
import { createAlertsCore } from './alerts-core.ts';

/**
 * How a message names the device of an alert: a sensor by its name; a transmitter as such, « Passerelle … »
 * for a LoRaWAN gateway (its name kept whole when it already says so).
 */
function deviceLabel(kind: DeviceKind, device: { name: string; model: string | null }): string {
  if (kind === 'sensor') return device.name;
  const what = device.model === LORAWAN_GATEWAY_MODEL ? 'Passerelle' : 'Émetteur';
  return device.name.toLocaleLowerCase('fr').startsWith(what.toLocaleLowerCase('fr')) ? device.name : `${what} ${device.name}`;
}

/**
 * The alerts module: rules, the alerts' life and the engine that watches readings, forecasts and
 * the clock; it keeps the rules, alerts, their tracks, events and notification schedule.
 * In: the devices (sensors watched by the rules, transmitters by a shop's « hors ligne » rules;
 * named in a message), the sites, the latest readings, the
 * latest stored forecast of a measure (the insights module's) and the event hub — modules created
 * later are passed as functions, called at run time only. Out: its services, `describe` (an alert
 * told in a message), `rulesWatching` (a sensor's rules and its site's), the handlers of the flows
 * that reach it (readings stored, a forecast computed, a site about to go, another instance's
 * news), `onOpened` (who is told of a new alert), the clock's job and the routes.
 */
export function createAlertsModule(options: {
  db: Database;
  now: () => Date;
  logger: EngineLogger;
  devices: () => Record<DeviceKind, Pick<DeviceService, 'watched' | 'get' | 'known'>>;
  sites: () => Pick<SiteService, 'byId' | 'get' | 'list'>;
  regions: () => { list(organizationId: string): Promise<{ id: string }[]> };
  telemetry: () => Pick<TelemetryService, 'latestOf'>;
  /** The sensor's latest stored forecast of a measure, for the time a « dépassement prévu » is due. */
  forecastOf: (organizationId: string, sensorId: string, key: string) => Promise<StoredForecast | undefined>;
  events: Pick<EventHub, 'publish'>;
  /** What a task's or a process's alert is about (the tasks module's): its name and what went wrong. */
  planSubject?: () => (alert: AlertRecord) => Promise<{ name: string; what: string } | undefined>;
}) {
  const { events, sites } = options;
  const sensors = () => options.devices().sensor;
  const opened: (() => unknown)[] = [];

  /**
   * The units a rule watches: its sensor; or its site's sensors whose name it aims at, and — for a
   * « hors ligne » rule that aims at no names — the site's transmitters (a LoRaWAN gateway among them).
   */
  async function unitsOf(rule: RuleRecord): Promise<WatchedSensor[]> {
    if (rule.sensorId) return sensors().watched({ ids: [rule.sensorId] });
    if (!rule.siteId) return [];
    const site = { organizationId: rule.organizationId, siteId: rule.siteId };
    const watched: WatchedSensor[] = (await sensors().watched(site)).filter((sensor) => ruleWatches(rule, sensor));
    if (rule.condition.type !== 'offline' || (rule.sensorNameContains ?? []).length > 0) return watched;
    const emitters = await options.devices().emitter.watched(site);
    return [...watched, ...emitters.map((emitter) => ({ ...emitter, kind: 'emitter' as const }))];
  }

  const { alerts, rules, templates, engine } = createAlertsCore({
    db: options.db,
    now: options.now,
    sensor: async (sensorId) => (await sensors().watched({ ids: [sensorId] }))[0],
    sensorsOf: unitsOf,
    site: (siteId) => sites().byId(siteId),
    sitesOf: (organizationId) => sites().list(organizationId),
    regionsOf: (organizationId) => options.regions().list(organizationId),
    assertSensor: async (organizationId, sensorId) => void (await sensors().get(organizationId, sensorId)),
    assertSite: async (organizationId, siteId) => void (await sites().get(organizationId, siteId)),
    publish: (organizationId: string, action: AlertAction, alert: Alert) => {
      events.publish([{ organizationId, type: 'alert', data: { action, alert } }]);
      if (action === 'opened') for (const tell of opened) void tell();
    },
    onRulesChanged: (organizationId) => events.publish([{ organizationId, type: 'alert-rules', data: {} }]),
    // A « dépassement prévu » alert tells when its limit is due from the latest stored analysis, never computing one.
    forecastOf: options.forecastOf,
    emitterIds: (ids) => options.devices().emitter.known(ids),
    logger: options.logger,
  });

  const pauses = createPauseService({
    db: options.db,
    now: options.now,
    sensorSite: async (organizationId, sensorId) => {
      const { device } = await sensors().get(organizationId, sensorId);
      const site = await sites().get(organizationId, device.siteId);
      return { siteId: device.siteId, timeZone: site.timezone, name: device.name ?? device.serial };
    },
    siteZone: async (organizationId, siteId) => {
      const site = await sites().get(organizationId, siteId);
      return { timeZone: site.timezone, name: site.name };
    },
    appendEvent: (alertId, event, key) => alerts.appendEvent(alertId, event, key),
  });

  const notFoundAsUndefined = (error: unknown): undefined => {
    if (error instanceof AppError && error.statusCode === 404) return undefined;
    throw error;
  };

  /** The device (a sensor, or a transmitter), site and rule of an alert, for the message that tells it. */
  async function describe(alert: AlertRecord): Promise<AlertContext> {
    if (alert.ruleId === null || alert.sensorId === null) return describePlan(alert);
    const kind = await alerts.deviceKindOf(alert);
    const devices = options.devices()[kind];
    const [sensor] = await devices.watched({ ids: [alert.sensorId] });
    // A device trashed since the list was read is told as deleted, not as a failure to plan.
    const view = sensor ? await devices.get(alert.organizationId, alert.sensorId).catch(notFoundAsUndefined) : undefined;
    const name = view ? deviceLabel(kind, view.device) : kind === 'emitter' ? 'Émetteur supprimé' : 'Capteur supprimé';
    const site = alert.siteId ? await sites().byId(alert.siteId) : sensor ? await sites().byId(sensor.siteId) : undefined;
    const rule = await rules.get(alert.organizationId, alert.ruleId).catch(() => null);
    // A « dépassement prévu » is told with the reading beside the forecast, never in its place.
    const forecast = await alerts.forecast(alert);
    const latest =
      forecast && alert.key ? (await options.telemetry().latestOf([alert.sensorId])).get(alert.sensorId)?.[alert.key] : undefined;
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

  /** A task of the food-safety plan missed or out of its limits, or a failed process: its name, its site and what went wrong. */
  async function describePlan(alert: AlertRecord): Promise<AlertContext> {
    const site = alert.siteId ? await sites().byId(alert.siteId) : undefined;
    const subject = await options.planSubject?.()(alert);
    return {
      sensorName: subject?.name ?? 'Plan de maîtrise sanitaire',
      siteName: site?.name ?? null,
      timezone: site?.timezone ?? 'Europe/Paris',
      ruleName: null,
      condition: null,
      plan: { what: subject?.what ?? 'Tâche en défaut', detail: alert.events.find((event) => event.type === 'opened')?.text ?? '' },
    };
  }

  /** The rules that watch a sensor: its own, and its site's that aim at units of its name. */
  const rulesWatching = async (organizationId: string, sensorId: string, siteId: string) => {
    const siteRules = await rules.list(organizationId, { siteId });
    const aiming = siteRules.some((rule) => (rule.sensorNameContains ?? []).length > 0);
    const [sensor] = aiming ? await sensors().watched({ ids: [sensorId] }) : [];
    return [
      ...(await rules.list(organizationId, { sensorId })),
      ...siteRules.filter((rule) => !aiming || ruleWatches(rule, { id: sensorId, siteId, name: sensor?.name ?? null })),
    ];
  };

  const handlers = {
    /** Readings committed: the engine looks at them off the acknowledgement's path. */
    readingsStored(readings: StoredReading[]): void {
      void engine.onReadings(readings);
    },
    /** A sensor's forecast computed: a « dépassement prévu » may open or close. */
    forecastComputed(
      sensor: { id: string },
      computed: { key: string; forecast: readonly { ts: string; value: number }[]; computedAt: string },
    ): Promise<void> {
      return engine.onForecast(sensor.id, computed.key, computed.forecast, new Date(computed.computedAt));
    },
    /** Before a site goes: its rules go first (a template's too), which closes their alerts. */
    async siteRemoving(organizationId: string, siteId: string): Promise<void> {
      for (const rule of await rules.list(organizationId, { siteId })) await rules.remove(organizationId, rule.id, { laid: true });
    },
    /** A site came, went or changed region: each rule template lays its rule in the sites it now aims at, and leaves the others. */
    sitesChanged: (organizationId: string): Promise<void> => templates.sync(organizationId),
    /** Another instance changed an alert or the rules, or a sensor: this one drops what it remembered of them. */
    liveEvent(event: LiveEvent): void {
      if (event.type === 'alert' && event.data.alert.ruleId && event.data.alert.sensorId)
        engine.forget(event.data.alert.ruleId, event.data.alert.sensorId);
      if (event.type === 'alert-rules') void engine.rulesChanged(event.organizationId);
      if (event.type === 'device' && event.data.kind === 'sensor') {
        engine.forgetSensor(event.data.action === 'deleted' ? event.data.deviceId : event.data.device.id);
      }
      // A transmitter in the trash is heard no more: its alerts close (on each instance told; once in the database).
      if (event.type === 'device' && event.data.kind === 'emitter' && event.data.action === 'deleted') {
        void engine.emitterRemoved(event.data.deviceId);
      }
    },
  };

  const routes: FastifyPluginAsync = async (app) => {
    await app.register(alertRoutes, { rules, alerts, templates });
    await app.register(pauseRoutes, { pauses });
  };
  return {
    alerts,
    /** What the monthly report reads of a sensor's period: its alerts, and the pauses of its notifications. */
    record: {
      ofSensorDuring: (organizationId: string, sensorId: string, from: Date, to: Date) =>
        alerts.ofSensorDuring(organizationId, sensorId, from, to),
      pausesDuring: (organizationId: string, sensorId: string, siteId: string, from: Date, to: Date) =>
        pauses.during(organizationId, sensorId, siteId, from, to),
    },
    rules,
    engine,
    describe,
    rulesWatching,
    /** When the pause holding back an alert's notifications ends (null: none); the notifier waits for it. */
    pausedUntil: pauses.pausedUntil,
    handlers,
    /** Who is told as soon as an alert opens (the notifications look at what is due). */
    onOpened: (tell: () => unknown) => void opened.push(tell),
    jobs: { clock: () => engine.tick() },
    routes,
    services: { alerts: { alerts, rules, templates, engine, pauses } },
    close: () => engine.idle(),
  };
}

export type AlertsModule = ReturnType<typeof createAlertsModule>;
