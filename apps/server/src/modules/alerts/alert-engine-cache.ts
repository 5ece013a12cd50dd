import { DEFAULT_OPENING_HOURS, DEFAULT_TIMEZONE, type Site } from '@vigie/contract';
import type { RuleRecord } from './alert-rule-dal.ts';
import type { WatchedSensor } from './alert-engine.ts';
import type { SiteHours, TrackState } from './rule-evaluator.ts';

const RULES_TTL_MS = 30_000;
const TRACK_TTL_MS = 60_000;
const SITE_TTL_MS = 60_000;
const SENSOR_TTL_MS = 30_000;
const DEFAULT_HOURS: SiteHours = { timezone: DEFAULT_TIMEZONE, openingHours: DEFAULT_OPENING_HOURS };

/**
 * What the alert engine remembers between readings, each for a short while: an organization's
 * enabled rules, a site's hours, a sensor, and the last known state of each rule for each sensor.
 * The database stays the truth: a copy only spares a read, and is dropped when told it changed.
 */
export function createAlertEngineCache(deps: {
  rules: (organizationId: string) => Promise<RuleRecord[]>;
  site: (siteId: string) => Promise<Site | undefined>;
  track: (ruleId: string, sensorId: string) => Promise<TrackState>;
  sensor: (sensorId: string) => Promise<WatchedSensor | undefined>;
}) {
  const rulesByOrganization = new Map<string, { at: number; rules: RuleRecord[] }>();
  const tracks = new Map<string, { at: number; state: TrackState; ruleId: string; sensorId: string }>();
  const sites = new Map<string, { at: number; hours: SiteHours }>();
  const sensors = new Map<string, { at: number; sensor: WatchedSensor | undefined }>();

  const clock = () => Date.now();

  return {
    /** The organization's enabled rules. */
    async rulesOf(organizationId: string): Promise<RuleRecord[]> {
      const cached = rulesByOrganization.get(organizationId);
      if (cached && clock() - cached.at < RULES_TTL_MS) return cached.rules;
      const rules = (await deps.rules(organizationId)).filter((rule) => rule.enabled);
      rulesByOrganization.set(organizationId, { at: clock(), rules });
      return rules;
    },

    forgetRules(organizationId: string): void {
      rulesByOrganization.delete(organizationId);
    },

    /** The hours of the rule's site, or else of the sensor's; the default ones without a site. */
    async hoursOf(rule: RuleRecord, sensor: WatchedSensor): Promise<SiteHours> {
      const siteId = rule.siteId ?? sensor.siteId;
      if (!siteId) return DEFAULT_HOURS;
      const cached = sites.get(siteId);
      if (cached && clock() - cached.at < SITE_TTL_MS) return cached.hours;
      const site = await deps.site(siteId);
      const hours = site ? { timezone: site.timezone, openingHours: site.openingHours } : DEFAULT_HOURS;
      sites.set(siteId, { at: clock(), hours });
      return hours;
    },

    async trackOf(ruleId: string, sensorId: string): Promise<TrackState> {
      const key = `${ruleId}:${sensorId}`;
      const cached = tracks.get(key);
      if (cached && clock() - cached.at < TRACK_TTL_MS) return cached.state;
      const state = await deps.track(ruleId, sensorId);
      tracks.set(key, { at: clock(), state, ruleId, sensorId });
      return state;
    },

    /**
     * Remembers a state computed here without a transaction: it is not fresher than the copy it
     * came from, so the copy keeps its age and is read again from the database just as soon.
     */
    keepTrack(ruleId: string, sensorId: string, state: TrackState): void {
      const key = `${ruleId}:${sensorId}`;
      tracks.set(key, { at: tracks.get(key)?.at ?? clock(), state, ruleId, sensorId });
    },

    /** Remembers a state just stored in the database. */
    storeTrack(ruleId: string, sensorId: string, state: TrackState): void {
      tracks.set(`${ruleId}:${sensorId}`, { at: clock(), state, ruleId, sensorId });
    },

    forgetTrack(ruleId: string, sensorId: string): void {
      tracks.delete(`${ruleId}:${sensorId}`);
    },

    /** Drops the states of the (rule, sensor) pairs that `match` selects. */
    forgetTracks(match: (ruleId: string, sensorId: string) => boolean): void {
      for (const [key, entry] of tracks) if (match(entry.ruleId, entry.sensorId)) tracks.delete(key);
    },

    /** The sensor as readings need it (its site); the clock reads it fresh, for its last-seen time. */
    async sensorOf(sensorId: string): Promise<WatchedSensor | undefined> {
      const cached = sensors.get(sensorId);
      if (cached && clock() - cached.at < SENSOR_TTL_MS) return cached.sensor;
      const sensor = await deps.sensor(sensorId);
      if (sensors.size > 50_000) sensors.clear();
      sensors.set(sensorId, { at: clock(), sensor });
      return sensor;
    },

    forgetSensor(sensorId: string): void {
      sensors.delete(sensorId);
    },
  };
}
