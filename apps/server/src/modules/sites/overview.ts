import { LOW_BATTERY_PERCENT, type OverviewSite, type Site } from '@vigie/contract';

export interface OverviewSensor {
  siteId: string;
  status: 'online' | 'offline' | 'unknown' | string;
  battery: number | null;
}

/** An alert as the overview counts it: active now, or resolved this month. */
export interface OverviewAlert {
  siteId: string | null;
  status: 'open' | 'acknowledged' | 'resolved';
  /** The measure watched; `battery`, or null for an offline alert. */
  key: string | null;
  openedAt: Date;
  resolvedAt: Date | null;
  /** Of a « dépassement prévu » rule: a forecast, not an excursion. */
  predicted: boolean;
}

// One collator for every comparison: `localeCompare(…, 'fr')` builds one per call, 10 ms for a
// chain's 500 shops.
const byName = new Intl.Collator('fr').compare;

/** The start of the current month in UTC (the month's compliance runs from it). */
export function monthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/**
 * The chain at a glance (docs/api.md, Vue du réseau): for each site its sensors, those offline or
 * with a low battery, its active alerts, and its compliance this month so far — the share of
 * sensor-time not under an excursion alert (a measure past its limit, a forecast aside), or null
 * when the site has no sensor. The worst first: most active alerts, then lowest compliance.
 */
export function overviewOf(
  sites: readonly Site[],
  sensors: readonly OverviewSensor[],
  alerts: readonly OverviewAlert[],
  now: Date,
  tasks: ReadonlyMap<string, NonNullable<OverviewSite['tasks']>> = new Map(),
): OverviewSite[] {
  const from = monthStart(now).getTime();
  const to = now.getTime();
  const rows = new Map<string, OverviewSite & { excursionMs: number }>(
    sites.map((site) => [
      site.id,
      {
        siteId: site.id,
        name: site.name,
        regionId: site.regionId,
        sensors: 0,
        offline: 0,
        activeAlerts: 0,
        lowBattery: 0,
        compliance: null,
        tasks: tasks.get(site.id) ?? { due: 0, done: 0, late: 0, missed: 0, nonconforming: 0 },
        excursionMs: 0,
      },
    ]),
  );
  for (const sensor of sensors) {
    const row = rows.get(sensor.siteId);
    if (!row) continue;
    row.sensors += 1;
    if (sensor.status === 'offline') row.offline += 1;
    if (sensor.battery !== null && sensor.battery <= LOW_BATTERY_PERCENT) row.lowBattery += 1;
  }
  for (const alert of alerts) {
    const row = alert.siteId ? rows.get(alert.siteId) : undefined;
    if (!row) continue;
    if (alert.status !== 'resolved') row.activeAlerts += 1;
    // An excursion: a measure past its limit (not an offline, battery or forecast alert).
    if (alert.key === null || alert.key === 'battery' || alert.predicted) continue;
    const start = Math.max(from, alert.openedAt.getTime());
    const end = Math.min(to, alert.resolvedAt ? alert.resolvedAt.getTime() : to);
    if (end > start) row.excursionMs += end - start;
  }
  const span = Math.max(1, to - from);
  return [...rows.values()]
    .map(({ excursionMs, ...row }) => ({
      ...row,
      compliance: row.sensors === 0 ? null : Math.max(0, Math.min(1, 1 - excursionMs / (row.sensors * span))),
    }))
    .sort(
      (a, b) =>
        b.activeAlerts - a.activeAlerts || (a.compliance ?? 1) - (b.compliance ?? 1) || b.offline - a.offline || byName(a.name, b.name),
    );
}
