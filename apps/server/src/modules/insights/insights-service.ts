import { randomUUID } from 'node:crypto';
import type { Insights, Rule, WatchItem } from '@vigie/contract';
import type { Database } from '../../db/database.ts';
import { BATTERY_HISTORY_MS, currentAnomalies, HISTORY_MS, toColumns } from './insights-compute.ts';
import { withMovedFrom } from './breach-moves.ts';
import { createInsightsDal, missesBackfill } from './insights-dal.ts';
import type { InsightsLane, InsightsRunner } from './insights-runner.ts';
import { type Bucket, createRecentMeans } from './recent-means.ts';

const MINUTE = 60_000;
/**
 * Readings dated this far back when they are stored came late (a device's buffer, an import):
 * figures computed since their date are computed again. Fresher ones change at most the last
 * minutes, which the next computation reads anyway.
 */
const LATE_MS = 5 * MINUTE;
/** A request answers from figures at most this old; older ones are computed again. */
const CACHE_MS = 60_000;
/** Sensors heard from within this time are analysed by the background pass. */
const ACTIVE_MS = 60 * 60_000;
/** One pass stops after this long (and after `passLimit` sensors). */
const PASS_BUDGET_MS = 45_000;
const LEASE_MS = 60_000;
const WATCH_LIMIT = 200;
/** The measures analysed in the background: a temperature, a door. */
const BACKGROUND_KEYS = ['temperature', 'open'];

interface SensorRef {
  id: string;
  organizationId: string;
  siteId: string;
  name: string;
}

/** A sensor whose figures are due, and why. */
interface Due {
  sensor: SensorRef;
  /** Older readings arrived after its figures were computed. */
  backfilled: boolean;
  /** When its figures were computed; 0 when never. */
  at: number;
  backfilledAt: Date | null;
}

/** What the insights read of other modules, through their services. */
export interface InsightsSources {
  db: Database;
  runner: InsightsRunner;
  /** Throws the 404 of the devices module when the sensor is not this organization's. */
  sensor: (organizationId: string, sensorId: string) => Promise<{ id: string; siteId: string }>;
  /** Active sensors heard from since then, every organization, by id after `after` (keyset pages). */
  sensorsSeenSince: (since: Date, limit: number, after?: string) => Promise<SensorRef[]>;
  /** Active sensors by id, every organization. */
  sensorsNamed: (ids: string[]) => Promise<SensorRef[]>;
  siteNames: (organizationId: string) => Promise<Map<string, string>>;
  keysOf: (sensorIds: string[]) => Promise<Map<string, string[]>>;
  rulesOf: (organizationId: string, sensorId: string, siteId: string) => Promise<Rule[]>;
  /** Means per bucket of `stepMs`, dated by the bucket's start, with their number of readings. */
  means: (sensorId: string, key: string, from: Date, to: Date, stepMs: number) => Promise<Bucket[]>;
  /** Fresh figures, for the « dépassement prévu » rules. */
  onComputed: (sensor: { id: string; organizationId: string; siteId: string }, insights: Insights) => Promise<void>;
  now: () => Date;
  /** The background pass looks again at a sensor still reporting after this long. */
  refreshMs: number;
  /** One background pass analyses at most this many sensors. */
  passLimit: number;
}

/**
 * Predictive analysis (docs/api.md, Analyse prédictive). Insights are computed off the request and ingestion paths: a background pass
 * analyses every sensor that reports (once across instances, in a worker thread) and stores the
 * figures, which requests and the « À surveiller » list read. A request for figures older than a
 * minute computes them again.
 */
export function createInsightsService(deps: InsightsSources) {
  const dal = createInsightsDal(deps.db);
  const instance = randomUUID();
  const recent = createRecentMeans();
  /** A pass still running on this instance when the next is due is not doubled. */
  let passing = false;

  async function compute(
    sensor: { id: string; organizationId: string; siteId: string },
    key: string,
    now: number,
    lane: InsightsLane,
    backfilledAt?: Date | null,
  ) {
    // A minute's mean is the finest grain the analysis uses; whole minutes, the one in progress included.
    const end = Math.floor(now / MINUTE) * MINUTE + MINUTE;
    const [readings, battery, rules, previous] = await Promise.all([
      recent.means(
        `${sensor.id}:${key}`,
        end - HISTORY_MS,
        end,
        now,
        (from, to) => deps.means(sensor.id, key, new Date(from), new Date(to), MINUTE),
        backfilledAt?.getTime(),
      ),
      deps.means(sensor.id, 'battery', new Date(end - BATTERY_HISTORY_MS), new Date(end), 3600_000),
      deps.rulesOf(sensor.organizationId, sensor.id, sensor.siteId),
      dal.find(sensor.organizationId, sensor.id, key),
    ]);
    const result = await deps.runner.compute({ key, now, readings, battery: toColumns(battery), rules }, lane);
    // A predicted hour that moved says from which (the screens explain it rather than change it silently).
    const insights = withMovedFrom(result.insights, previous?.insights);
    await dal.save({
      sensorId: sensor.id,
      key,
      organizationId: sensor.organizationId,
      computedAt: new Date(now),
      urgency: result.urgency,
      insights,
    });
    await deps.onComputed(sensor, insights);
    return insights;
  }

  /**
   * The sensors due, most overdue first: older readings arrived since their figures (those are
   * wrong), then never analysed, then analysed longest ago. Every sensor heard from within the
   * hour is considered, page by page, so a large fleet starves none of them.
   */
  async function dueSensors(started: number): Promise<Due[]> {
    const since = new Date(started - ACTIVE_MS);
    const page = deps.passLimit * 4;
    const order = (a: Due, b: Due) => Number(b.backfilled) - Number(a.backfilled) || a.at - b.at;
    let due: Due[] = [];
    let after: string | undefined;
    for (;;) {
      const sensors = await deps.sensorsSeenSince(since, page, after);
      const computed = await dal.computedAt(sensors.map((sensor) => sensor.id));
      for (const sensor of sensors) {
        const row = computed.get(sensor.id);
        const backfilled = row !== undefined && missesBackfill(row);
        const at = row?.computedAt.getTime() ?? 0;
        if (backfilled || started - at >= deps.refreshMs) due.push({ sensor, backfilled, at, backfilledAt: row?.backfilledAt ?? null });
      }
      // Only the most overdue are kept between pages.
      if (due.length > deps.passLimit * 2) due = due.sort(order).slice(0, deps.passLimit);
      const last = sensors.at(-1);
      if (sensors.length < page || last === undefined) break;
      after = last.id;
    }
    return due.sort(order).slice(0, deps.passLimit);
  }

  /** Analyses, when this instance holds the turn, the sensors due; how many it analysed. */
  async function pass(): Promise<number> {
    const started = deps.now().getTime();
    if (!(await dal.lease('insights', instance, new Date(started), LEASE_MS))) return 0;
    let done = 0;
    try {
      const due = await dueSensors(started);
      const keys = await deps.keysOf(due.map(({ sensor }) => sensor.id));
      for (const { sensor, backfilledAt } of due) {
        if (deps.now().getTime() - started > PASS_BUDGET_MS) break;
        for (const key of keys.get(sensor.id) ?? []) {
          if (!BACKGROUND_KEYS.includes(key)) continue;
          await compute(sensor, key, deps.now().getTime(), 'background', backfilledAt);
        }
        done += 1;
      }
    } finally {
      await dal.release('insights', instance);
    }
    return done;
  }

  return {
    async get(organizationId: string, sensorId: string, key: string): Promise<Insights> {
      const sensor = await deps.sensor(organizationId, sensorId);
      const now = deps.now().getTime();
      const stored = await dal.find(organizationId, sensor.id, key);
      const age = stored ? now - stored.computedAt.getTime() : Infinity;
      if (stored && age >= 0 && age < CACHE_MS && !missesBackfill(stored)) return stored.insights;
      return compute({ id: sensor.id, organizationId, siteId: sensor.siteId }, key, now, 'interactive', stored?.backfilledAt);
    },

    /** The latest stored forecast of a sensor's measure, never computing one (a « dépassement prévu » alert's due time). */
    async storedForecast(organizationId: string, sensorId: string, key: string) {
      const stored = await dal.find(organizationId, sensorId, key);
      return stored && { computedAt: stored.computedAt, forecast: stored.insights.forecast };
    },

    /**
     * Readings just stored: when some are dated well before now, the figures of their sensor
     * computed since that date miss them, and are computed again at the next request or pass.
     */
    async noteStored(readings: { sensorId: string; ts: Date }[]): Promise<void> {
      const now = deps.now();
      const late = new Set<string>();
      for (const { sensorId, ts } of readings) if (now.getTime() - ts.getTime() >= LATE_MS) late.add(sensorId);
      await dal.markBackfilled([...late], now);
    },

    /**
     * One background pass: when this instance holds the turn, analyses the sensors that reported
     * within the hour and were not analysed for five minutes. Returns how many it analysed.
     */
    async refresh(): Promise<number> {
      if (passing) return 0;
      passing = true;
      try {
        return await pass();
      } finally {
        passing = false;
      }
    },

    /** « À surveiller »: the organization's sensors with a predicted breach or a current anomaly, most urgent first. */
    async watch(organizationId: string, siteId?: string): Promise<WatchItem[]> {
      const now = deps.now().getTime();
      const rows = await dal.watch(organizationId, WATCH_LIMIT);
      const sensors = new Map((await deps.sensorsNamed(rows.map((row) => row.sensorId))).map((sensor) => [sensor.id, sensor]));
      const sites = await deps.siteNames(organizationId);
      const items: WatchItem[] = [];
      for (const row of rows) {
        const sensor = sensors.get(row.sensorId);
        // A sensor in the trash, moved away or silent for long is no longer watched from old figures.
        if (!sensor || sensor.organizationId !== organizationId || (siteId && sensor.siteId !== siteId)) continue;
        if (now - row.computedAt.getTime() > ACTIVE_MS) continue;
        const breach = row.insights.breach;
        const anomaly = currentAnomalies(row.insights.anomalies, now)[0] ?? null;
        if (!breach && !anomaly) continue;
        items.push({
          sensorId: sensor.id,
          sensorName: sensor.name,
          siteId: sensor.siteId,
          siteName: sites.get(sensor.siteId) ?? '',
          key: row.key,
          urgency: Math.round(row.urgency * 100) / 100,
          breach,
          anomaly,
          computedAt: row.computedAt.toISOString(),
        });
      }
      return items;
    },
  };
}

export type InsightsService = ReturnType<typeof createInsightsService>;
