import type { Alert } from '@vigie/contract';

/**
 * What an alert without a device is about: a task of the food-safety plan missed or answered out of
 * its limits, or a timed process (cooling, hot holding) that failed; its timeline's first line says which.
 */
export function planAlertLabel(alert: Pick<Alert, 'taskId' | 'processId'>): string {
  return alert.processId ? 'Refroidissement ou maintien au chaud' : 'Tâche du plan de maîtrise sanitaire';
}
