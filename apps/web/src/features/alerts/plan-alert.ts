import type { Alert } from '@vigie/contract';

/**
 * What an alert without a device is about: a task of the food-safety plan missed or answered out of
 * its limits, or a timed process (cooling, hot holding) that failed; its timeline's first line says which.
 */
export function planAlertLabel(alert: Pick<Alert, 'taskId' | 'processId'>): string {
  return alert.processId ? 'Refroidissement ou maintien au chaud' : 'Tâche du plan de maîtrise sanitaire';
}

/** What went wrong, as its timeline's first line says: « Tâche manquée », « Non conforme », « En échec ». */
export function planAlertState(alert: Pick<Alert, 'taskId' | 'processId'> & { events?: Alert['events'] }): string {
  if (alert.processId) return 'En échec';
  const opened = alert.events?.find((event) => event.type === 'opened')?.text ?? '';
  return / non faite/.test(opened) ? 'Tâche manquée' : 'Non conforme';
}

/** The first line of a plan alert's timeline: which task or product, and how it went wrong. */
export function planAlertFinding(alert: Pick<Alert, 'events'>): string {
  return alert.events.find((event) => event.type === 'opened')?.text ?? '—';
}
