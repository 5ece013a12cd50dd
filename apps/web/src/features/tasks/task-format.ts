import type { Task, TaskItem } from '@vigie/contract';
import { formatClock } from '@vigie/contract/clock';
import { ApiError } from '@/lib/api-client';
import { errorMessage } from '@/lib/errors';
import { formatNumber } from '@/lib/measure-format';
import { parseDecimal } from '@/lib/quantity-format';

const NNBSP = '\u202F';

/** Where a task stands for the person doing it, now: not yet due, open, in its grace, done or missed. */
export type TaskStage = 'upcoming' | 'open' | 'grace' | 'done' | 'missed';

export function stageOf(task: Task, now: number): TaskStage {
  if (task.status === 'done' || task.status === 'late') return 'done';
  if (task.status === 'missed' || now > Date.parse(task.graceEndsAt)) return 'missed';
  if (now < Date.parse(task.dueAt)) return 'upcoming';
  return now <= Date.parse(task.windowEndsAt) ? 'open' : 'grace';
}

/** « de 8 h à 9 h », on the shop's clock. */
export function windowText(task: Pick<Task, 'dueAt' | 'windowEndsAt'>, timeZone?: string): string {
  return `de ${formatClock(task.dueAt, timeZone)} à ${formatClock(task.windowEndsAt, timeZone)}`;
}

/** « 1 h 05 », « 12 min », « moins d’une minute »: what is left until `until`. */
export function remainingText(until: number, now: number): string {
  const minutes = Math.floor((until - now) / 60_000);
  if (minutes < 1) return 'moins d’une minute';
  if (minutes < 60) return `${minutes}${NNBSP}min`;
  return `${Math.floor(minutes / 60)}${NNBSP}h${NNBSP}${String(minutes % 60).padStart(2, '0')}`;
}

/** « de 0 à 4 °C », « 4 °C au plus », « au moins 63 °C »; null without limits. */
export function limitsText(item: Pick<TaskItem, 'min' | 'max' | 'unit'>): string | null {
  const unit = item.unit ? `${NNBSP}${item.unit}` : '';
  const number = (value: number) => formatNumber(value, 2).replace('-', '−');
  if (item.min !== undefined && item.max !== undefined) return `de ${number(item.min)} à ${number(item.max)}${unit}`;
  if (item.max !== undefined) return `${number(item.max)}${unit} au plus`;
  if (item.min !== undefined) return `au moins ${number(item.min)}${unit}`;
  return null;
}

/** A typed answer read for its item: the value to send, or why it cannot be sent, and whether it is out of limits. */
export function readAnswer(
  item: TaskItem,
  raw: string | boolean | undefined,
): { value?: string | number | boolean; error?: string; outside?: boolean } {
  if (raw === undefined || raw === '') return item.required ? { error: `Répondez à «${NNBSP}${item.label}${NNBSP}».` } : {};
  switch (item.type) {
    case 'boolean':
      return { value: raw === true, outside: item.expected !== undefined && raw !== item.expected };
    case 'number': {
      const value = parseDecimal(String(raw));
      if (Number.isNaN(value)) return { error: `«${NNBSP}${item.label}${NNBSP}» attend un nombre.` };
      const outside = (item.min !== undefined && value < item.min) || (item.max !== undefined && value > item.max);
      return { value, outside };
    }
    case 'choice':
      return { value: String(raw), outside: (item.failing ?? []).includes(String(raw)) };
    default:
      return { value: typeof raw === 'string' ? raw.trim() : String(raw) };
  }
}

/**
 * Why answers were not recorded, in French: without network (a cold room), they stay in the form,
 * to send again once it is back; otherwise the server's reason (a task completed meanwhile…).
 */
export function sendErrorText(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.status === 0)
    return 'Pas de réseau : rien n’a été envoyé. Les réponses restent ici ; appuyez de nouveau sur « Enregistrer » une fois le réseau revenu.';
  return errorMessage(error, fallback);
}
