import type { Severity, TaskKind } from '@vigie/contract';
import { TASK_KIND_LABELS, TASK_KINDS } from '@vigie/contract/values';
import { FieldLabel } from '@/components/ui/field-label';
import { inputClass } from '@/components/ui/section';
import type { TemplateDraft } from '../template-draft';
import { fieldClass, hintClass, type FieldIds } from './template-fields';

/** What a template is: its name, its kind of task, and how grave the alert of a task missed or failed. */
export function TemplateBasicsFields({
  draft,
  ids,
  severityLabels,
  onChange: set,
}: {
  draft: TemplateDraft;
  ids: FieldIds;
  severityLabels: Record<Severity, string>;
  onChange: (changes: Partial<TemplateDraft>) => void;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <div className={`${fieldClass} sm:col-span-2`}>
        <FieldLabel htmlFor={ids.id('name')}>Nom du modèle</FieldLabel>
        <input
          id={ids.id('name')}
          value={draft.name}
          placeholder="Ouverture"
          maxLength={100}
          onChange={(event) => set({ name: event.target.value })}
          className={inputClass}
          {...ids.invalid('name')}
        />
      </div>
      <div className={fieldClass}>
        <FieldLabel htmlFor={ids.id('kind')}>Type de tâche</FieldLabel>
        <select
          id={ids.id('kind')}
          value={draft.kind}
          onChange={(event) => set({ kind: event.target.value as TaskKind })}
          className={inputClass}
        >
          {TASK_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {TASK_KIND_LABELS[kind]}
            </option>
          ))}
        </select>
      </div>
      <div className={fieldClass}>
        <FieldLabel htmlFor={ids.id('severity')}>Gravité de l’alerte</FieldLabel>
        <select
          id={ids.id('severity')}
          value={draft.severity}
          aria-describedby={ids.id('severity-hint')}
          onChange={(event) => set({ severity: event.target.value as Severity })}
          className={inputClass}
        >
          {(Object.keys(severityLabels) as Severity[]).map((severity) => (
            <option key={severity} value={severity}>
              {severityLabels[severity]}
            </option>
          ))}
        </select>
        <p id={ids.id('severity-hint')} className={hintClass}>
          Celle de l’alerte d’une tâche manquée ou non conforme.
        </p>
      </div>
    </div>
  );
}
