import type { Alert, Site } from '@vigie/contract';
import type { Database } from '../../db/database.ts';
import { createAlertDal } from './alert-dal.ts';
import { createAlertEngine, type EngineLogger, type WatchedSensor } from './alert-engine.ts';
import { createAlertRuleDal, type RuleRecord } from './alert-rule-dal.ts';
import { createAlertRuleService } from './alert-rule-service.ts';
import { type AlertAction, createAlertService, type StoredForecast } from './alert-service.ts';
import { createRuleTemplateDal } from './rule-template-dal.ts';
import { createRuleTemplateService } from './rule-template-service.ts';

/**
 * The alerts module's core, wired: rules, the alerts' life, and the engine that watches readings and the
 * clock. What it needs of other modules (sensors, sites) and what it tells them (live events) is
 * passed in; its tables are reached only through its own DALs.
 */
export function createAlertsCore(deps: {
  db: Database;
  now: () => Date;
  sensor: (sensorId: string) => Promise<WatchedSensor | undefined>;
  /** The units a rule watches: its sensor, or its site's sensors (and transmitters, for a « hors ligne » rule). */
  sensorsOf: (rule: RuleRecord) => Promise<WatchedSensor[]>;
  site: (siteId: string) => Promise<Site | undefined>;
  /** The organization's sites (with their regions) and regions, for the templates. */
  sitesOf?: (organizationId: string) => Promise<{ id: string; regionId: string | null }[]>;
  regionsOf?: (organizationId: string) => Promise<{ id: string }[]>;
  assertSensor: (organizationId: string, sensorId: string) => Promise<void>;
  assertSite: (organizationId: string, siteId: string) => Promise<void>;
  publish: (organizationId: string, action: AlertAction, alert: Alert) => void;
  logger: EngineLogger;
  /** Told after this instance changed a rule, so that other instances read the rules again. */
  onRulesChanged?: (organizationId: string) => void;
  flapWindowSeconds?: number;
  /** The sensor's latest stored forecast of a measure, for the time a « dépassement prévu » is due. */
  forecastOf?: (organizationId: string, sensorId: string, key: string) => Promise<StoredForecast | undefined>;
  /** Which of these ids are transmitters (the trash included): what an alert is about. */
  emitterIds?: (ids: readonly string[]) => Promise<readonly string[]>;
}) {
  const alertDal = createAlertDal(deps.db);
  const ruleDal = createAlertRuleDal(deps.db);
  const alerts = createAlertService({
    dal: alertDal,
    now: deps.now,
    publish: deps.publish,
    logger: deps.logger,
    forecastOf: deps.forecastOf,
    emitterIds: deps.emitterIds,
  });
  const engine = createAlertEngine({
    rules: ruleDal,
    alerts: alertDal,
    sensor: deps.sensor,
    sensorsOf: deps.sensorsOf,
    site: deps.site,
    announce: (changes) => alerts.announce(changes),
    now: deps.now,
    logger: deps.logger,
    ...(deps.flapWindowSeconds !== undefined ? { flapWindowSeconds: deps.flapWindowSeconds } : {}),
  });
  const templateDal = createRuleTemplateDal(deps.db);
  const rules = createAlertRuleService({
    dal: ruleDal,
    templates: templateDal,
    assertSensor: deps.assertSensor,
    assertSite: deps.assertSite,
    onChanged: async (organizationId, change) => {
      await engine.rulesChanged(organizationId, change.stopped);
      deps.onRulesChanged?.(organizationId);
    },
  });
  const templates = createRuleTemplateService({
    dal: templateDal,
    rules: ruleDal,
    sites: deps.sitesOf ?? (async () => []),
    regions: deps.regionsOf ?? (async () => []),
    now: deps.now,
    onChanged: async (organizationId, stopped) => {
      await engine.rulesChanged(organizationId);
      for (const rule of stopped) await engine.rulesChanged(organizationId, rule);
      deps.onRulesChanged?.(organizationId);
    },
    onNarrowed: (rule) => engine.narrowed(rule),
  });
  return { alerts, rules, templates, engine };
}

export type AlertsCore = ReturnType<typeof createAlertsCore>;
