import type { Alert, AlertStatus, Rule, Severity } from '@vigie/contract';

/** What a rule watches: one sensor, or every sensor of a site. */
export type RuleTarget = { sensorId: string } | { siteId: string };

export type AlertListFilter = { status?: 'active' | AlertStatus; sensorId?: string; siteId?: string };

/** Query keys of the alerts feature, per signed-in user so that accounts never share a cache. */
export const alertKeys = {
  all: (owner: string) => ['alerts', owner] as const,
  list: (owner: string, filter: AlertListFilter) => ['alerts', owner, 'list', filter] as const,
  lists: (owner: string) => ['alerts', owner, 'list'] as const,
  detail: (owner: string, id: string) => ['alerts', owner, 'detail', id] as const,
  /** The sensor's readings around an alert, for its curve; `window` says which (`to` null: up to now). */
  readings: (owner: string, id: string, window: { key: string; from: string; to: string | null; buckets: number }) =>
    ['alerts', owner, 'readings', id, window] as const,
  rule: (owner: string, id: string) => ['alerts', owner, 'rule', id] as const,
  policy: (owner: string) => ['alerts', owner, 'policy'] as const,
  rules: (owner: string, target: RuleTarget) => ['alerts', owner, 'rules', target] as const,
  /** Every list of rules, whatever it aims at: a template lays and changes rules in many sites at once. */
  allRules: (owner: string) => ['alerts', owner, 'rules'] as const,
  templates: (owner: string) => ['alerts', owner, 'templates'] as const,
};

export type { Alert, Rule, Severity };

/** Alerts someone has to act on (open), and those still running (open or acknowledged). */
export const needsAction = (alert: Pick<Alert, 'status'>) => alert.status === 'open';
export const isActive = (alert: Pick<Alert, 'status'>) => alert.status !== 'resolved';
