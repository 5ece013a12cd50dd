import { AppError } from './errors.ts';
import { ALERT_NOT_FOUND } from './modules/alerts/alert-service.ts';
import { RULE_NOT_FOUND } from './modules/alerts/alert-rule-service.ts';
import { DEVICE_NOT_FOUND } from './modules/devices/device-service.ts';
import { REPORT_NOT_FOUND } from './modules/reports/report-service.ts';
import { SITE_NOT_FOUND } from './modules/sites/site-service.ts';
import { PROCESS_NOT_FOUND } from './modules/tasks/process-service.ts';
import { TASK_NOT_FOUND } from './modules/tasks/task-service.ts';
import type { ScopeDeps } from './plugins/scope.ts';
import type { Services } from './services.ts';

/** Undefined instead of a 404: the thing is not the organization's. */
async function found<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 404) return undefined;
    throw error;
  }
}

/**
 * What the scope check asks the modules (docs/api.md, Régions et portées): the sites of a scope,
 * and the site of each kind of thing a path names by `:id`.
 */
export function scopeDepsOf(services: Services): ScopeDeps {
  const { devices, sites, regions, alerts, reports, users, tasks, apiKeys } = services;
  const sensorSite = (organizationId: string, id: string) => devices.sensor.siteOf(organizationId, id);
  return {
    async sitesInScope(organizationId, scope) {
      return (await regions.sitesInScope(organizationId, scope)) ?? new Set<string>();
    },
    async memberSites(organizationId, userId, apiKeyId) {
      if (apiKeyId) {
        const scope = await apiKeys.scopeOf(organizationId, apiKeyId);
        return scope === undefined ? undefined : regions.sitesInScope(organizationId, scope);
      }
      const user = await users.getById(userId);
      if (user?.organization.id !== organizationId) return undefined;
      return regions.sitesInScope(organizationId, user.scope);
    },
    locate: {
      sensor: sensorSite,
      emitter: (organizationId, id) => devices.emitter.siteOf(organizationId, id),
      site: async (organizationId, id) => (await found(() => sites.get(organizationId, id)))?.id,
      async alert(organizationId, id) {
        const alert = await found(() => alerts.alerts.get(organizationId, id));
        if (!alert) return undefined;
        return alert.siteId ?? (alert.sensorId ? await sensorSite(organizationId, alert.sensorId) : undefined) ?? null;
      },
      async alertRule(organizationId, id) {
        const rule = await found(() => alerts.rules.get(organizationId, id));
        if (!rule) return undefined;
        return rule.siteId ?? (rule.sensorId ? ((await sensorSite(organizationId, rule.sensorId)) ?? null) : null);
      },
      report: async (organizationId, id) => (await found(() => reports.get(organizationId, id)))?.siteId,
      task: (organizationId, id) => tasks.tasks.siteOf(organizationId, id),
      process: (organizationId, id) => tasks.processes.siteOf(organizationId, id),
    },
    async devicesIn(organizationId, inSites) {
      const lists = await Promise.all([devices.sensor.list(organizationId), devices.emitter.list(organizationId)]);
      return lists.flat().flatMap(({ device }) => (inSites.has(device.siteId) ? [device.id] : []));
    },
    notFound: {
      sensor: DEVICE_NOT_FOUND.sensor,
      emitter: DEVICE_NOT_FOUND.emitter,
      site: SITE_NOT_FOUND,
      alert: ALERT_NOT_FOUND,
      alertRule: RULE_NOT_FOUND,
      report: REPORT_NOT_FOUND,
      task: TASK_NOT_FOUND,
      process: PROCESS_NOT_FOUND,
    },
  };
}
