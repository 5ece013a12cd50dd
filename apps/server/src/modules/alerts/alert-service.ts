import type { Alert, AlertListQuery } from '@vigie/contract';
import { conflict, notFound } from '../../errors.ts';
import type { AlertDal } from './alert-dal.ts';
import type { AlertChange, AlertEventRecord, AlertRecord } from './alert-types.ts';

const NOT_FOUND = 'Alerte introuvable.';

export function toAlert(record: AlertRecord): Alert {
  return {
    id: record.id,
    ruleId: record.ruleId,
    sensorId: record.sensorId,
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
    events: record.events.map((event) => ({ type: event.type, at: event.at.toISOString(), userId: event.userId, text: event.text })),
  };
}

export type AlertAction = 'opened' | 'acknowledged' | 'action' | 'resolved';

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
}) {
  const { dal, now } = deps;

  async function act(organizationId: string, id: string, change: Parameters<AlertDal['act']>[2], action: AlertAction): Promise<Alert> {
    const result = await dal.act(organizationId, id, change);
    if (result === undefined) throw notFound(NOT_FOUND);
    if (typeof result === 'string') throw conflict(result);
    const alert = toAlert(result);
    deps.publish(organizationId, action, alert);
    return alert;
  }

  return {
    async list(organizationId: string, query: AlertListQuery): Promise<Alert[]> {
      return (await dal.list(organizationId, query)).map(toAlert);
    },

    /** A sensor's alerts active at some point of a period, oldest first: all of them, for its report. */
    async ofSensorDuring(organizationId: string, sensorId: string, from: Date, to: Date): Promise<Alert[]> {
      return (await dal.ofSensorDuring(organizationId, sensorId, from, to)).map(toAlert);
    },

    async get(organizationId: string, id: string): Promise<Alert> {
      const record = await dal.find(organizationId, id);
      if (!record) throw notFound(NOT_FOUND);
      return toAlert(record);
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

    recordAction(organizationId: string, id: string, userId: string, text: string): Promise<Alert> {
      // An action may follow a resolution too: what was done with the stock belongs in the record.
      return act(organizationId, id, () => ({ set: {}, event: { type: 'action', at: now(), userId, text } }), 'action');
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

    /** For the notifier: the alerts it has to plan now (never planned, changed, or due). */
    dueForNotification: (at: Date, resolvedSince: Date, limit: number) => dal.dueForNotification(at, resolvedSince, limit),

    /** For the notifier: the revision of an alert it planned, and when it next falls due. */
    planned: (alertId: string, organizationId: string, revision: number, dueAt: Date | null) =>
      dal.planned(alertId, organizationId, revision, dueAt),

    /** For the notifier: the organization's policy changed, every alert of it is planned again. */
    replanOrganization: (organizationId: string) => dal.replanOrganization(organizationId),

    /** A line of background work (who was notified); the same key is written once. */
    appendEvent: (alertId: string, event: AlertEventRecord, key: string) => dal.appendEvent(alertId, event, key),

    /** Publishes what the engine changed (opened, reopened, resolved; peak updates are not announced). */
    announce(changes: AlertChange[]): void {
      for (const change of changes) {
        if (change.action === 'updated') continue;
        deps.publish(change.alert.organizationId, change.action, toAlert(change.alert));
      }
    },
  };
}

export type AlertService = ReturnType<typeof createAlertService>;
