import { type DeviceKind, ruleWatches, type Site } from '@vigie/contract';
import { isDatabaseUnavailable } from '../../db/connection-errors.ts';
import { createAlertEngineCache } from './alert-engine-cache.ts';
import type { AlertDal } from './alert-dal.ts';
import type { AlertChange } from './alert-types.ts';
import type { AlertRuleDal, RuleRecord } from './alert-rule-dal.ts';
import { DEFAULT_FLAP_WINDOW_SECONDS, evaluate, type Observation, type TrackState } from './rule-evaluator.ts';

/** What the engine needs to know of a sensor, or of a transmitter a shop's « hors ligne » rule watches; asked of the devices module. */
export interface WatchedSensor {
  id: string;
  /** A transmitter (`emitter`) sends no readings of its own: the clock alone hears it again. Absent: a sensor. */
  kind?: DeviceKind | undefined;
  organizationId: string;
  siteId: string | null;
  /** Its name: a template's rule may watch only the units whose name holds some words. */
  name?: string | null;
  lastSeenAt: Date | null;
  inactivityTimeoutSeconds: number;
}

/** Readings as the telemetry module stored them (one entry per sensor and timestamp). */
export interface StoredReading {
  organizationId: string;
  sensorId: string;
  ts: Date;
  values: Record<string, number>;
}

export interface EngineLogger {
  error(obj: object, msg?: string): void;
}

/**
 * Watches every stored reading and the clock. Each rule's state for each sensor lives in the
 * database; the in-memory copy only spares a transaction when nothing changes (the common case: a
 * sensor within limits). Any step that changes something is evaluated again inside a transaction
 * from the persisted state, so several instances agree and an alert opens once.
 */
export function createAlertEngine(deps: {
  rules: AlertRuleDal;
  alerts: AlertDal;
  sensor: (sensorId: string) => Promise<WatchedSensor | undefined>;
  sensorsOf: (rule: RuleRecord) => Promise<WatchedSensor[]>;
  site: (siteId: string) => Promise<Site | undefined>;
  announce: (changes: AlertChange[]) => void;
  now: () => Date;
  logger: EngineLogger;
  flapWindowSeconds?: number;
}) {
  const options = { flapWindowSeconds: deps.flapWindowSeconds ?? DEFAULT_FLAP_WINDOW_SECONDS };
  const cache = createAlertEngineCache({
    rules: (organizationId) => deps.rules.list(organizationId),
    site: (siteId) => deps.site(siteId),
    track: (ruleId, sensorId) => deps.alerts.track(ruleId, sensorId),
    sensor: (sensorId) => deps.sensor(sensorId),
  });
  const { rulesOf, sensorOf } = cache;
  let queue: Promise<void> = Promise.resolve();

  const same = (a: TrackState, b: TrackState) => JSON.stringify(a) === JSON.stringify(b);

  /**
   * One observation for one rule and sensor. A failure of one step (a rule deleted meanwhile) is
   * logged and the others go on; a database outage stops the batch, since every step would fail.
   */
  async function step(rule: RuleRecord, sensor: WatchedSensor, observation: Observation): Promise<void> {
    try {
      await evaluateStep(rule, sensor, observation);
    } catch (error) {
      if (isDatabaseUnavailable(error)) throw error;
      deps.logger.error({ err: error, ruleId: rule.id, sensorId: sensor.id }, 'Évaluation d’une règle d’alerte en échec');
    }
  }

  async function evaluateStep(rule: RuleRecord, sensor: WatchedSensor, observation: Observation): Promise<void> {
    const watched = { condition: rule.condition, delaySeconds: rule.delaySeconds, hysteresis: rule.hysteresis, schedule: rule.schedule };
    const hours = await cache.hoursOf(rule, sensor);
    const cached = await cache.trackOf(rule.id, sensor.id);
    const local = evaluate(watched, hours, cached, observation, options);
    if (local.transitions.length === 0 && (same(local.state, cached) || (cached.phase === 'idle' && local.state.phase === 'idle'))) {
      cache.keepTrack(rule.id, sensor.id, local.state);
      return;
    }
    const result = await deps.alerts.transition(
      {
        organizationId: sensor.organizationId,
        ruleId: rule.id,
        sensorId: sensor.id,
        siteId: sensor.siteId,
        severity: rule.severity,
        key: rule.condition.type === 'offline' ? null : rule.condition.type === 'battery_below' ? 'battery' : rule.condition.key,
      },
      (persisted) => evaluate(watched, hours, persisted, observation, options),
    );
    cache.storeTrack(rule.id, sensor.id, result.state);
    const deviceKind = sensor.kind ?? 'sensor';
    deps.announce(result.changes.map((change) => ({ ...change, alert: { ...change.alert, deviceKind } })));
  }

  /**
   * What the clock tells an `offline` rule of a unit. A transmitter heard again within its timeout
   * ends its silence as a reading would, at its last contact: it sends none of its own.
   */
  function clockObservation(sensor: WatchedSensor, at: Date): Observation {
    const { lastSeenAt, inactivityTimeoutSeconds } = sensor;
    if (sensor.kind === 'emitter' && lastSeenAt && at.getTime() <= lastSeenAt.getTime() + inactivityTimeoutSeconds * 1000) {
      return { type: 'reading', at: lastSeenAt, value: 0 };
    }
    return { type: 'tick', at, lastSeenAt, inactivityTimeoutSeconds };
  }

  function observationFor(rule: RuleRecord, reading: StoredReading): Observation | undefined {
    const { condition } = rule;
    if (condition.type === 'offline') return { type: 'reading', at: reading.ts, value: 0 };
    // A predicted breach is judged on the forecast (onForecast), never on the reading itself.
    if (condition.type === 'predicted_above' || condition.type === 'predicted_below') return undefined;
    const key = condition.type === 'battery_below' ? 'battery' : condition.key;
    const value = reading.values[key];
    return value === undefined ? undefined : { type: 'reading', at: reading.ts, value };
  }

  async function process(readings: StoredReading[]): Promise<void> {
    const ordered = [...readings].sort((a, b) => a.ts.getTime() - b.ts.getTime());
    for (const reading of ordered) {
      const rules = await rulesOf(reading.organizationId);
      if (rules.length === 0) continue;
      const sensor = await sensorOf(reading.sensorId);
      if (!sensor) continue;
      for (const rule of rules) {
        if (!ruleWatches(rule, sensor)) continue;
        const observation = observationFor(rule, reading);
        if (observation) await step(rule, sensor, observation);
      }
    }
  }

  function enqueue(work: () => Promise<void>): Promise<void> {
    const run = queue.then(work).catch((error: unknown) => deps.logger.error({ err: error }, 'Évaluation des règles d’alerte en échec'));
    queue = run;
    return run;
  }

  return {
    /** Evaluates stored readings, in order, off the ingestion path; the promise is for tests and shutdown. */
    onReadings(readings: StoredReading[]): Promise<void> {
      return enqueue(() => process(readings));
    },

    /**
     * Fresh forecast of a sensor's measure: each « dépassement prévu » rule watching it sees the
     * forecast's worst value within its horizon, as of when the forecast was made.
     */
    onForecast(sensorId: string, key: string, forecast: readonly { ts: string; value: number }[], at: Date): Promise<void> {
      return enqueue(async () => {
        if (forecast.length === 0) return;
        const sensor = await sensorOf(sensorId);
        if (!sensor) return;
        for (const rule of await rulesOf(sensor.organizationId)) {
          const { condition } = rule;
          if (condition.type !== 'predicted_above' && condition.type !== 'predicted_below') continue;
          if (condition.key !== key || !ruleWatches(rule, sensor)) continue;
          const end = at.getTime() + condition.withinMinutes * 60_000;
          const values = forecast.filter((point) => Date.parse(point.ts) <= end).map((point) => point.value);
          if (values.length === 0) continue;
          const value = condition.type === 'predicted_above' ? Math.max(...values) : Math.min(...values);
          await step(rule, sensor, { type: 'reading', at, value });
        }
      });
    },

    /** The clock: delays that elapse during silence, sensors and transmitters that fell silent, transmitters heard again. */
    tick(): Promise<void> {
      return enqueue(async () => {
        const at = deps.now();
        for (const { ruleId, sensorId } of await deps.alerts.pendingTracks()) {
          const rule = await deps.rules.findById(ruleId);
          if (!rule?.enabled || rule.condition.type === 'offline') continue;
          const sensor = await deps.sensor(sensorId);
          if (!sensor) continue;
          await step(rule, sensor, {
            type: 'tick',
            at,
            lastSeenAt: sensor.lastSeenAt,
            inactivityTimeoutSeconds: sensor.inactivityTimeoutSeconds,
          });
        }
        for (const rule of await deps.rules.enabledOfType('offline')) {
          for (const sensor of await deps.sensorsOf(rule)) await step(rule, sensor, clockObservation(sensor, at));
        }
      });
    },

    /** A rule changed: this instance reads the organization's rules again, and forgets states of a stopped rule. */
    async rulesChanged(organizationId: string, stopped?: RuleRecord): Promise<AlertChange[]> {
      cache.forgetRules(organizationId);
      if (!stopped) return [];
      cache.forgetTracks((ruleId) => ruleId === stopped.id);
      const closed = await deps.alerts.closeActiveForRule(stopped.id, deps.now(), 'Règle désactivée ou supprimée : l’alerte est close.');
      const changes = closed.map((alert) => ({ action: 'resolved' as const, alert }));
      deps.announce(changes);
      return changes;
    },

    /** A site's rule that now watches fewer of its sensors (a template aimed anew): the alerts of those it left close. */
    async narrowed(rule: RuleRecord): Promise<AlertChange[]> {
      cache.forgetRules(rule.organizationId);
      const watching = (await deps.sensorsOf(rule)).map((sensor) => sensor.id);
      cache.forgetTracks((ruleId, sensorId) => ruleId === rule.id && !watching.includes(sensorId));
      const closed = await deps.alerts.closeActiveForRule(
        rule.id,
        deps.now(),
        'Le capteur n’est plus visé par le modèle de la règle : l’alerte est close.',
        {
          except: watching,
        },
      );
      const changes = closed.map((alert) => ({ action: 'resolved' as const, alert }));
      deps.announce(changes);
      return changes;
    },

    /**
     * A transmitter went to the trash: nothing more will be heard of it, so its alerts close (a
     * restored one that is still silent opens a new one) and its tracks go. Any instance may run it.
     */
    emitterRemoved(emitterId: string): Promise<void> {
      return enqueue(async () => {
        cache.forgetTracks((_ruleId, sensorId) => sensorId === emitterId);
        const closed = await deps.alerts.closeActiveForSensor(
          emitterId,
          deps.now(),
          'L’émetteur a été mis à la corbeille\u00a0: l’alerte est close.',
        );
        deps.announce(closed.map((alert) => ({ action: 'resolved' as const, alert: { ...alert, deviceKind: 'emitter' as const } })));
      });
    },

    /** Another instance changed a track: drop the copy so the next step reads it from the database. */
    forget(ruleId: string, sensorId: string): void {
      cache.forgetTrack(ruleId, sensorId);
    },

    /** A sensor moved to another site, or to the trash: read it again. */
    forgetSensor(sensorId: string): void {
      cache.forgetSensor(sensorId);
    },

    /** Resolves once every queued evaluation has run. */
    idle(): Promise<void> {
      return queue;
    },
  };
}

export type AlertEngine = ReturnType<typeof createAlertEngine>;
