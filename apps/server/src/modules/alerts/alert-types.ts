import type { ActionDetails, AlertEventType, AlertStatus, DeviceKind, Severity } from '@vigie/contract';

export interface AlertEventRecord {
  type: AlertEventType;
  at: Date;
  userId: string | null;
  text: string | null;
  /** A guided corrective action's kind and the products' fate. */
  details?: ActionDetails | null;
}

export interface AlertRecord {
  id: string;
  organizationId: string;
  /** The rule that opened it; null for a task's or a process's alert. */
  ruleId: string | null;
  /** The device the alert is about: a sensor, or a transmitter (`deviceKind`); null for a task's or a process's. */
  sensorId: string | null;
  /** The task missed or answered out of its limits, or the process that failed (docs/api.md, Plan de maîtrise sanitaire). */
  taskId?: string | null;
  processId?: string | null;
  /** The kind of that device when known (the engine knows it; a stored alert does not keep it): absent, a sensor. */
  deviceKind?: DeviceKind | undefined;
  siteId: string | null;
  status: AlertStatus;
  severity: Severity;
  key: string | null;
  openedAt: Date;
  acknowledgedAt: Date | null;
  acknowledgedBy: string | null;
  resolvedAt: Date | null;
  resolution: 'auto' | 'manual' | null;
  peak: number | null;
  last: number | null;
  /**
   * The limit of the alert's rule when it is a « dépassement prévu » (`peak` and `last` are then
   * forecast values); null or absent for any other rule, or a rule since deleted.
   */
  predicted?: PredictedLimit | null;
  events: AlertEventRecord[];
}

/** What a « dépassement prévu » rule watches: the forecast passing a limit, upwards or downwards. */
export interface PredictedLimit {
  direction: 'above' | 'below';
  threshold: number;
}

/** What an alert engine step changed, for the live stream and notifications. */
export interface AlertChange {
  action: 'opened' | 'resolved' | 'updated';
  alert: AlertRecord;
}

export interface AlertFilters {
  status?: 'active' | AlertStatus | undefined;
  sensorId?: string | undefined;
  siteId?: string | undefined;
}
