import type { CreateTaskTemplateRequest, ItemType, Severity, TaskFrequency, TaskKind, TaskTemplate } from '@vigie/contract';
import { parseDecimal } from '@/lib/quantity-format';

/**
 * A template as the editor holds it: every field as typed (numbers are text until they are sent),
 * so that nothing typed is lost when it is refused, by the form or by the server.
 */

const NNBSP = '\u202F';

let lastKey = 0;
/** A key for a row of a list (an item, an option, a time) that stays with it when rows move. */
export const rowKey = () => `row-${++lastKey}`;

export type OptionDraft = { key: string; text: string; failing: boolean };

export type ItemDraft = {
  key: string;
  /** The server's id of an item of a saved template, sent back so that it is kept. */
  id?: string;
  label: string;
  type: ItemType;
  required: boolean;
  unit: string;
  min: string;
  max: string;
  options: OptionDraft[];
  /** A yes/no's expected answer; '' for none. */
  expected: '' | 'yes' | 'no';
};

export type TimeDraft = { key: string; value: string };

export type TemplateDraft = {
  name: string;
  kind: TaskKind;
  severity: Severity;
  items: ItemDraft[];
  frequency: TaskFrequency;
  times: TimeDraft[];
  weekdays: number[];
  dayOfMonth: string;
  /** `once`: a datetime-local value, « 2026-12-12T10:00 », in the browser's time. */
  dueAt: string;
  windowMinutes: string;
  graceMinutes: string;
  /** Every site, those opened later included. */
  everywhere: boolean;
  siteIds: string[];
  regionIds: string[];
  locked: boolean;
};

/** What a template or a create request gives the editor. */
type Source = Pick<CreateTaskTemplateRequest, 'name' | 'kind' | 'items' | 'schedule' | 'severity' | 'locked' | 'siteIds' | 'regionIds'>;

const numberText = (value: number | undefined) => (value === undefined ? '' : String(value).replace('.', ','));

export function blankItem(type: ItemType = 'boolean'): ItemDraft {
  return {
    key: rowKey(),
    label: '',
    type,
    required: true,
    unit: '',
    min: '',
    max: '',
    options: [
      { key: rowKey(), text: '', failing: false },
      { key: rowKey(), text: '', failing: false },
    ],
    expected: type === 'boolean' ? 'yes' : '',
  };
}

function itemDraft(item: CreateTaskTemplateRequest['items'][number]): ItemDraft {
  const options = item.options ?? [];
  return {
    key: rowKey(),
    ...(item.id ? { id: item.id } : {}),
    label: item.label,
    type: item.type,
    required: item.required,
    unit: item.unit ?? '',
    min: numberText(item.min),
    max: numberText(item.max),
    options:
      options.length > 0
        ? options.map((text) => ({ key: rowKey(), text, failing: (item.failing ?? []).includes(text) }))
        : blankItem().options,
    expected: item.expected === undefined ? '' : item.expected ? 'yes' : 'no',
  };
}

const pad = (value: number) => String(value).padStart(2, '0');

/** « 2026-12-12T10:00 » for an instant, in the browser's time (what a datetime-local field shows). */
export function localInputOf(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** A template, a starter of the library, or nothing (a new one), made into what the editor holds. */
export function draftOf(source: Source | TaskTemplate | undefined, { scoped = false }: { scoped?: boolean } = {}): TemplateDraft {
  if (!source)
    return {
      name: '',
      kind: 'checklist',
      severity: 'warning',
      items: [blankItem()],
      frequency: 'daily',
      times: [{ key: rowKey(), value: '08:00' }],
      weekdays: [1],
      dayOfMonth: '1',
      dueAt: '',
      windowMinutes: '60',
      graceMinutes: '30',
      everywhere: !scoped,
      siteIds: [],
      regionIds: [],
      locked: false,
    };
  const { schedule } = source;
  const siteIds = source.siteIds ?? [];
  const regionIds = source.regionIds ?? [];
  return {
    name: source.name,
    kind: source.kind,
    severity: source.severity,
    items: source.items.map(itemDraft),
    frequency: schedule.frequency,
    times: (schedule.times ?? ['08:00']).map((value) => ({ key: rowKey(), value })),
    weekdays: schedule.weekdays ?? [1],
    dayOfMonth: String(schedule.dayOfMonth ?? 1),
    dueAt: schedule.dueAt ? localInputOf(schedule.dueAt) : '',
    windowMinutes: String(schedule.windowMinutes),
    graceMinutes: String(schedule.graceMinutes),
    // A member who sees some sites only names theirs: « every site » is not theirs to choose.
    everywhere: !scoped && siteIds.length === 0 && regionIds.length === 0,
    siteIds,
    regionIds: scoped ? [] : regionIds,
    locked: source.locked,
  };
}

/** Why the draft cannot be sent, and the field to fix (the editor's id suffix of that field). */
export type DraftProblem = { error: string; field: string };

const quoted = (text: string) => `«${NNBSP}${text}${NNBSP}»`;

/** A whole number of minutes in [min, max], or null. */
function minutesOf(text: string, min: number, max: number): number | null {
  const value = Number(text.trim());
  return text.trim() !== '' && Number.isInteger(value) && value >= min && value <= max ? value : null;
}

function readItem(item: ItemDraft, index: number): CreateTaskTemplateRequest['items'][number] | DraftProblem {
  const n = index + 1;
  const label = item.label.trim();
  if (!label) return { error: `Donnez un libellé au point ${n}.`, field: `item-${item.key}-label` };
  const base = { ...(item.id ? { id: item.id } : {}), label, type: item.type, required: item.required };
  switch (item.type) {
    case 'number': {
      const bound = (text: string) => (text.trim() === '' ? undefined : parseDecimal(text));
      const min = bound(item.min);
      const max = bound(item.max);
      if (min !== undefined && Number.isNaN(min))
        return { error: `Le minimum du point ${quoted(label)} doit être un nombre.`, field: `item-${item.key}-min` };
      if (max !== undefined && Number.isNaN(max))
        return { error: `Le maximum du point ${quoted(label)} doit être un nombre.`, field: `item-${item.key}-max` };
      if (min !== undefined && max !== undefined && min > max)
        return { error: `Le minimum du point ${quoted(label)} dépasse son maximum.`, field: `item-${item.key}-min` };
      const unit = item.unit.trim();
      return { ...base, ...(unit ? { unit } : {}), ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
    }
    case 'choice': {
      const empty = item.options.find((option) => !option.text.trim());
      if (empty) return { error: `Écrivez chaque option du point ${quoted(label)}, ou retirez-la.`, field: `option-${empty.key}` };
      const options = item.options.map((option) => option.text.trim());
      if (options.length < 2)
        return { error: `Le point ${quoted(label)} propose au moins deux options.`, field: `item-${item.key}-add-option` };
      if (new Set(options).size < options.length)
        return { error: `Deux options du point ${quoted(label)} sont identiques.`, field: `option-${item.options[0]?.key ?? ''}` };
      const failing = item.options.filter((option) => option.failing).map((option) => option.text.trim());
      return { ...base, options, ...(failing.length > 0 ? { failing } : {}) };
    }
    case 'boolean':
      return { ...base, ...(item.expected ? { expected: item.expected === 'yes' } : {}) };
    default:
      return base;
  }
}

/**
 * The request the draft stands for, or the first thing to fix. `scoped`: a member who sees some
 * sites only, who names theirs; `mayLock`: an admin who sees the whole organization.
 */
export function readDraft(
  draft: TemplateDraft,
  { scoped, mayLock }: { scoped: boolean; mayLock: boolean },
): { request: CreateTaskTemplateRequest } | DraftProblem {
  const name = draft.name.trim();
  if (!name) return { error: 'Donnez un nom au modèle.', field: 'name' };
  if (draft.items.length === 0) return { error: 'Ajoutez au moins un point de contrôle.', field: 'add-item' };
  const items: CreateTaskTemplateRequest['items'] = [];
  for (const [index, item] of draft.items.entries()) {
    const read = readItem(item, index);
    if ('error' in read) return read;
    items.push(read);
  }

  const windowMinutes = minutesOf(draft.windowMinutes, 1, 1440);
  if (windowMinutes === null) return { error: 'La fenêtre est un nombre entier de minutes, de 1 à 1440.', field: 'window' };
  const graceMinutes = minutesOf(draft.graceMinutes, 0, 1440);
  if (graceMinutes === null) return { error: 'Le délai de grâce est un nombre entier de minutes, de 0 à 1440.', field: 'grace' };

  let schedule: CreateTaskTemplateRequest['schedule'];
  if (draft.frequency === 'once') {
    const at = draft.dueAt ? new Date(draft.dueAt) : null;
    if (!at || Number.isNaN(at.getTime())) return { error: 'Donnez la date et l’heure de la tâche.', field: 'due-at' };
    schedule = { frequency: 'once', dueAt: at.toISOString(), windowMinutes, graceMinutes };
  } else {
    const blank = draft.times.find((time) => !/^([01]\d|2[0-3]):[0-5]\d$/.test(time.value));
    if (blank) return { error: 'Donnez chaque heure (« HH:MM »), ou retirez-la.', field: `time-${blank.key}` };
    if (draft.times.length === 0) return { error: 'Donnez au moins une heure.', field: 'add-time' };
    const times = [...new Set(draft.times.map((time) => time.value))].sort();
    if (draft.frequency === 'weekly') {
      if (draft.weekdays.length === 0) return { error: 'Cochez au moins un jour de la semaine.', field: 'weekday-1' };
      schedule = { frequency: 'weekly', times, weekdays: [...draft.weekdays].sort((a, b) => a - b), windowMinutes, graceMinutes };
    } else if (draft.frequency === 'monthly') {
      const dayOfMonth = minutesOf(draft.dayOfMonth, 1, 31);
      if (dayOfMonth === null) return { error: 'Le jour du mois va de 1 à 31.', field: 'day-of-month' };
      schedule = { frequency: 'monthly', times, dayOfMonth, windowMinutes, graceMinutes };
    } else {
      schedule = { frequency: 'daily', times, windowMinutes, graceMinutes };
    }
  }

  const everywhere = draft.everywhere && !scoped;
  const regionIds = everywhere || scoped ? [] : draft.regionIds;
  const siteIds = everywhere ? [] : draft.siteIds;
  if (!everywhere && siteIds.length + regionIds.length === 0)
    return {
      error: scoped
        ? 'Cochez au moins un de vos sites.'
        : `Cochez au moins une région ou un site, ou choisissez ${quoted('Tous les sites')}.`,
      field: 'coverage',
    };

  return {
    request: {
      name,
      kind: draft.kind,
      siteIds,
      regionIds,
      items,
      schedule,
      severity: draft.severity,
      locked: mayLock && draft.locked,
    },
  };
}
