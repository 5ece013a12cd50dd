/** Tasks' plain values (no zod): what a browser bundle may import without the schemas. */
import type { TaskAnswer } from '../tasks.ts';

export const TASK_KINDS = ['checklist', 'cleaning', 'pest_control', 'oil', 'thermometer'] as const;
export type TaskKind = (typeof TASK_KINDS)[number];
export const TASK_KIND_LABELS: Record<TaskKind, string> = {
  checklist: 'Liste de contrôle',
  cleaning: 'Plan de nettoyage',
  pest_control: 'Lutte contre les nuisibles',
  oil: 'Huile de friture',
  thermometer: 'Vérification des thermomètres',
};
export const ITEM_TYPES = ['boolean', 'number', 'text', 'choice', 'photo'] as const;
export type ItemType = (typeof ITEM_TYPES)[number];
/** An answer as a French reader writes it: « 9,5 °C », « non », « Déchiré ». */
export function answerText(answer: Pick<TaskAnswer, 'value' | 'unit'>): string {
  const { value } = answer;
  if (value === null) return 'sans réponse';
  if (typeof value === 'boolean') return value ? 'oui' : 'non';
  if (typeof value === 'number')
    return `${value.toLocaleString('fr-FR', { maximumFractionDigits: 2 }).replace('-', '−')}${answer.unit ? `\u00a0${answer.unit}` : ''}`;
  return value;
}
export const PROCESS_KINDS = ['cooling', 'hot_holding'] as const;
export type ProcessKind = (typeof PROCESS_KINDS)[number];
export const PROCESS_KIND_LABELS: Record<ProcessKind, string> = {
  cooling: 'Refroidissement rapide',
  hot_holding: 'Maintien au chaud',
};
/** Cooling: from +63 °C or above, to +10 °C or below within 120 min. Hot holding: +63 °C or above, read at most 120 min apart. */
export const PROCESS_RULES = { hotMin: 63, coolTarget: 10, minutes: 120 } as const;
