import {
  ACTION_KIND_LABELS,
  type ActionKind,
  type Alert,
  type AlertListQuery,
  type DeviceKind,
  type PredictedAlert,
  type ProductFate,
} from '@vigie/contract';
import { conflict, notFound } from '../../errors.ts';
import type { AlertDal } from './alert-dal.ts';
import type { AlertChange, AlertEventRecord, AlertRecord, PredictedLimit } from './alert-types.ts';

export const ALERT_NOT_FOUND = 'Alerte introuvable.';
const NOT_FOUND = ALERT_NOT_FOUND;
/** A forecast older than this says nothing of when the limit is crossed (the sensor fell silent, or the analysis stopped). */
const STALE_FORECAST_MS = 30 * 60_000;

/** A sensor's latest stored forecast of a measure, as the predictive analysis keeps it. */
export interface StoredForecast {
  computedAt: Date;
  forecast: readonly { ts: string; value: number }[];
}

/** When a forecast first passes a « dépassement prévu » rule's limit, if it does. */
export function crossingOf(limit: PredictedLimit, stored: StoredForecast | undefined, now: Date): Date | null {
  if (!stored || now.getTime() - stored.computedAt.getTime() > STALE_FORECAST_MS) return null;
  const point = stored.forecast.find((candidate) =>
    limit.direction === 'above' ? candidate.value > limit.threshold : candidate.value < limit.threshold,
  );
  return point ? new Date(point.ts) : null;
}

/**
 * The alert as the API gives it; `eta` is when the forecast crosses the limit of a « dépassement prévu » alert.
 * `deviceKind` is told for a transmitter only: an alert that says nothing is about a sensor.
 */
export function toAlert(record: AlertRecord, eta: Date | null = null): Alert {
  const forecast: PredictedAlert | undefined = record.predicted
    ? { direction: record.predicted.direction, threshold: record.predicted.threshold, eta: eta?.toISOString() ?? null }
    : undefined;
  return {
    id: record.id,
    ruleId: record.ruleId,
    sensorId: record.sensorId,
    ...(record.taskId ? { taskId: record.taskId } : {}),
    ...(record.processId ? { processId: record.processId } : {}),
    ...(record.deviceKind === 'emitter' ? { deviceKind: 'emitter' as const } : {}),
    siteId: record.siteId,
    status: record.status,
    severity: record.severity,
    key: record.key,
    openedAt: record.openedAt.toISOString(),
    acknowledgedAt: record.acknowledgedAt?.toISOString() ?? null,
    acknowledgedBy: record.acknowledgedBy,
    resolvedAt: record.resolvedAt?.toISOString() ?? null,
    resolution: record.resolution,
    peak: record.peak,
    last: record.last,
    ...(forecast ? { forecast } : {}),
    events: record.events.map((event) => ({
      type: event.type,
      at: event.at.toISOString(),
      userId: event.userId,
      text: event.text,
      ...(event.details ? { action: event.details } : {}),
    })),
  };
}

/** What happened to an alert, as the live stream tells it; `updated`: its peak or latest value changed. */
export type AlertAction = 'opened' | 'updated' | 'acknowledged' | 'action' | 'resolved';

/**
 * The life of an alert: open → acknowledged (who, when, comment) → corrective actions → resolved.
 * The timeline is append-only. A person may resolve an alert only once a corrective action is
 * recorded; the engine resolves it by itself when the condition clears.
 */
export function createAlertService(deps: {
  dal: AlertDal;
  now: () => Date;
  /** Every change goes out on the live stream of the alert's organization. */
  publish: (organizationId: string, action: AlertAction, alert: Alert) => void;
  /** The sensor's latest stored forecast of a measure, for the time a « dépassement prévu » is due. */
  forecastOf?: (organizationId: string, sensorId: string, key: string) => Promise<StoredForecast | undefined>;
  /** Which of these ids are transmitters (the trash included); without it, every alert is about a sensor. */
  emitterIds?: (ids: readonly string[]) => Promise<readonly string[]>;
  logger?: { error(obj: object, msg?: string): void };
}) {
  const { dal, now } = deps;
  /** What each alert is about, by its device's id: a device never changes kind, so it is asked once. */
  const kinds = new Map<string, DeviceKind>();

  /** Learns the kind of the devices of these alerts that are not known yet, in one question. */
  async function learnKinds(records: readonly Pick<AlertRecord, 'sensorId' | 'deviceKind'>[]): Promise<void> {
    for (const record of records) if (record.deviceKind && record.sensorId) kinds.set(record.sensorId, record.deviceKind);
    const unknown = [...new Set(records.flatMap((record) => (record.sensorId && !kinds.has(record.sensorId) ? [record.sensorId] : [])))];
    if (unknown.length === 0) return;
    if (kinds.size + unknown.length > 50_000) kinds.clear();
    const emitters = new Set(deps.emitterIds ? await deps.emitterIds(unknown) : []);
    for (const id of unknown) kinds.set(id, emitters.has(id) ? 'emitter' : 'sensor');
  }

  /** The kind of the device an alert is about (a sensor unless it is a transmitter's). */
  async function kindOf(record: Pick<AlertRecord, 'sensorId' | 'deviceKind'>): Promise<DeviceKind> {
    await learnKinds([record]);
    return record.deviceKind ?? (record.sensorId ? kinds.get(record.sensorId) : undefined) ?? 'sensor';
  }

  /** When the forecast crosses the limit of an active « dépassement prévu » alert; null for any other. */
  async function etaOf(record: AlertRecord): Promise<Date | null> {
    if (!record.predicted || record.status === 'resolved' || !record.key || !record.sensorId || !deps.forecastOf) return null;
    try {
      return crossingOf(record.predicted, await deps.forecastOf(record.organizationId, record.sensorId, record.key), now());
    } catch {
      // The time is a help to the reader: without it the alert still says what is forecast.
      return null;
    }
  }

  async function present(record: AlertRecord): Promise<Alert> {
    return toAlert({ ...record, deviceKind: await kindOf(record) }, await etaOf(record));
  }

  async function act(organizationId: string, id: string, change: Parameters<AlertDal['act']>[2], action: AlertAction): Promise<Alert> {
    const result = await dal.act(organizationId, id, change);
    if (result === undefined) throw notFound(NOT_FOUND);
    if (typeof result === 'string') throw conflict(result);
    const alert = await present(result);
    deps.publish(organizationId, action, alert);
    return alert;
  }

  // Announcements of « dépassement prévu » alerts wait for their forecast's time; the others go out
  // at once, unless one is still waiting: the stream keeps the order of the changes.
  let announcing: Promise<void> = Promise.resolve();
  let waiting = 0;

  return {
    async list(organizationId: string, query: AlertListQuery): Promise<Alert[]> {
      const records = await dal.list(organizationId, query);
      await learnKinds(records);
      return Promise.all(records.map(present));
    },

    /** A sensor's alerts active at some point of a period, oldest first: all of them, for its report. */
    async ofSensorDuring(organizationId: string, sensorId: string, from: Date, to: Date): Promise<Alert[]> {
      return (await dal.ofSensorDuring(organizationId, sensorId, from, to)).map((record) => toAlert(record));
    },

    /** The alerts active now or since `from`, as the overview of the sites counts them. */
    /** The organization's alerts active at some point of [from, to), as stored, oldest first (500 at most). */
    during(organizationId: string, from: Date, to: Date): Promise<AlertRecord[]> {
      return dal.ofOrganizationDuring(organizationId, from, to, 500);
    },

    touching(organizationId: string, from: Date) {
      return dal.touching(organizationId, from);
    },

    async get(organizationId: string, id: string): Promise<Alert> {
      const record = await dal.find(organizationId, id);
      if (!record) throw notFound(NOT_FOUND);
      return present(record);
    },

    /** The kind of the device an alert is about: a sensor, or a transmitter. */
    deviceKindOf: kindOf,

    /** What a « dépassement prévu » alert announces, its time included; undefined for any other alert. */
    async forecast(record: AlertRecord): Promise<PredictedAlert | undefined> {
      return (await present(record)).forecast;
    },

    acknowledge(organizationId: string, id: string, userId: string, comment?: string): Promise<Alert> {
      return act(
        organizationId,
        id,
        (alert) => {
          if (alert.status === 'resolved') return 'Cette alerte est déjà résolue.';
          if (alert.status === 'acknowledged') return 'Cette alerte est déjà acquittée.';
          const at = now();
          return {
            set: { status: 'acknowledged', acknowledgedAt: at, acknowledgedBy: userId },
            event: { type: 'acknowledged', at, userId, text: comment ?? null },
          };
        },
        'acknowledged',
      );
    },

    /** A corrective action: its text, or its guided kind (and the products' fate), or both. */
    recordAction(
      organizationId: string,
      id: string,
      userId: string,
      action: { text?: string | undefined; kind?: ActionKind | undefined; fate?: ProductFate | undefined },
    ): Promise<Alert> {
      const details = action.kind
        ? { kind: action.kind, fate: action.fate ?? null }
        : action.fate
          ? { kind: 'other' as const, fate: action.fate }
          : null;
      // The line reads on its own: the guided kind's label when no text was written.
      const text = action.text ?? (action.kind ? ACTION_KIND_LABELS[action.kind] : '');
      // An action may follow a resolution too: what was done with the stock belongs in the record.
      return act(organizationId, id, () => ({ set: {}, event: { type: 'action', at: now(), userId, text, details } }), 'action');
    },

    resolve(organizationId: string, id: string, userId: string, text?: string): Promise<Alert> {
      return act(
        organizationId,
        id,
        (alert) => {
          if (alert.status === 'resolved') return 'Cette alerte est déjà résolue.';
          if (!alert.events.some((event) => event.type === 'action')) {
            return 'Enregistrez d’abord une action corrective : une alerte ne se clôt à la main qu’avec ce qui a été fait.';
          }
          const at = now();
          return {
            set: { status: 'resolved', resolvedAt: at, resolution: 'manual' },
            event: { type: 'resolved', at, userId, text: text ?? null },
            resetTrack: true,
          };
        },
        'resolved',
      );
    },

    /**
     * Opens the alert of a task missed or answered out of its limits, or of a failed process, once
     * (docs/api.md, Plan de maîtrise sanitaire); told like any alert. Its id, whoever opened it.
     */
    async openFor(target: Parameters<AlertDal['openFor']>[0]): Promise<string | undefined> {
      const result = await dal.openFor(target);
      if (!result) return undefined;
      if (result.opened) deps.publish(target.organizationId, 'opened', await present(result.alert));
      return result.alert.id;
    },

    /** For the notifier: the alerts it has to plan now (never planned, changed, or due). */
    dueForNotification: (at: Date, resolvedSince: Date, limit: number) => dal.dueForNotification(at, resolvedSince, limit),

    /** For the notifier: the revision of an alert it planned, and when it next falls due. */
    planned: (alertId: string, organizationId: string, revision: number, dueAt: Date | null) =>
      dal.planned(alertId, organizationId, revision, dueAt),

    /** For the notifier: the organization's policy changed, every alert of it is planned again. */
    replanOrganization: (organizationId: string) => dal.replanOrganization(organizationId),

    /**
     * A line of background work (who was notified, an escalation, a call); the same key is written
     * once. A new line goes out on the live stream: the alert's open page shows it at once.
     */
    async appendEvent(alertId: string, event: AlertEventRecord, key: string): Promise<boolean> {
      const record = await dal.appendEvent(alertId, event, key);
      if (!record) return false;
      deps.publish(record.organizationId, 'updated', await present(record));
      return true;
    },

    /** Publishes what the engine changed: opened, reopened, a new peak or latest value (`updated`), resolved. */
    announce(changes: AlertChange[]): void {
      for (const change of changes) {
        const { alert: record, action } = change;
        if (record.deviceKind && record.sensorId) kinds.set(record.sensorId, record.deviceKind);
        // Told at once when its device's kind is known; else in turn, once asked.
        const deviceKind =
          record.deviceKind ?? (record.sensorId ? kinds.get(record.sensorId) : 'sensor') ?? (deps.emitterIds ? undefined : 'sensor');
        if (!record.predicted && waiting === 0 && deviceKind) {
          deps.publish(record.organizationId, action, toAlert({ ...record, deviceKind }));
          continue;
        }
        waiting += 1;
        announcing = announcing
          .then(async () => deps.publish(record.organizationId, action, await present(record)))
          .catch((error: unknown) => deps.logger?.error({ err: error, alertId: record.id }, 'Alerte non annoncée'))
          .finally(() => {
            waiting -= 1;
          });
      }
    },
  };
}

export type AlertService = ReturnType<typeof createAlertService>;
