import { Plus, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { FieldLabel } from '@/components/ui/field-label';
import { inputClass } from '@/components/ui/section';
import { rowKey, type ItemDraft } from '../template-draft';
import { checkClass, fieldClass, hintClass, type FieldIds } from './template-fields';

const NNBSP = '\u202F';

/** What an item's answer fields share: the item, the editor's ids, an item field's id suffix, and the change. */
type AnswerProps = {
  item: ItemDraft;
  ids: FieldIds;
  /** The suffix of one of this item's fields, for `ids`. */
  field: (name: string) => string;
  set: (changes: Partial<ItemDraft>) => void;
};

/** A yes / no item: which answer is conforming (the other opens an alert), or none. */
export function ExpectedAnswerField({ item, ids, field, set }: AnswerProps) {
  return (
    <div className={fieldClass}>
      <FieldLabel htmlFor={ids.id(field('expected'))}>Réponse conforme</FieldLabel>
      <select
        id={ids.id(field('expected'))}
        value={item.expected}
        aria-describedby={ids.id(field('expected-hint'))}
        onChange={(event) => set({ expected: event.target.value as ItemDraft['expected'] })}
        className={inputClass}
      >
        <option value="yes">Oui</option>
        <option value="no">Non</option>
        <option value="">Aucune (toute réponse convient)</option>
      </select>
      <p id={ids.id(field('expected-hint'))} className={hintClass}>
        L’autre réponse rend la tâche non conforme et ouvre une alerte.
      </p>
    </div>
  );
}

/** A number item: its unit and the limits beyond which it is not conforming. */
export function NumberLimitsFields({ item, ids, field, set }: AnswerProps) {
  return (
    <div className="space-y-1.5">
      <div className="grid grid-cols-3 gap-2 sm:gap-3">
        <div className={fieldClass}>
          <FieldLabel htmlFor={ids.id(field('unit'))}>Unité</FieldLabel>
          <input
            id={ids.id(field('unit'))}
            value={item.unit}
            placeholder="°C"
            maxLength={16}
            onChange={(event) => set({ unit: event.target.value })}
            className={inputClass}
          />
        </div>
        <div className={fieldClass}>
          <FieldLabel htmlFor={ids.id(field('min'))}>Minimum</FieldLabel>
          <input
            id={ids.id(field('min'))}
            inputMode="decimal"
            value={item.min}
            onChange={(event) => set({ min: event.target.value })}
            className={inputClass}
            {...ids.invalid(field('min'))}
          />
        </div>
        <div className={fieldClass}>
          <FieldLabel htmlFor={ids.id(field('max'))}>Maximum</FieldLabel>
          <input
            id={ids.id(field('max'))}
            inputMode="decimal"
            value={item.max}
            onChange={(event) => set({ max: event.target.value })}
            className={inputClass}
            {...ids.invalid(field('max'))}
          />
        </div>
      </div>
      <p className={hintClass}>Une valeur hors des limites rend la tâche non conforme. Vide{NNBSP}: pas de limite.</p>
    </div>
  );
}

/** A choice item: its options (two to twenty), each marked conforming or not. */
export function ChoiceOptionsFields({
  item,
  ids,
  field,
  set,
  n,
}: AnswerProps & {
  /** The item's number (« Point 2 »), in the names of its options' fields. */
  n: number;
}) {
  const setOption = (key: string, changes: { text?: string; failing?: boolean }) =>
    set({ options: item.options.map((option) => (option.key === key ? { ...option, ...changes } : option)) });
  const addOption = () => {
    const option = { key: rowKey(), text: '', failing: false };
    set({ options: [...item.options, option] });
    ids.focusLater(`option-${option.key}`);
  };
  const removeOption = (key: string) => {
    set({ options: item.options.filter((option) => option.key !== key) });
    ids.focusLater(field('add-option'));
  };

  return (
    <fieldset className="min-w-0 space-y-2">
      <legend className="mb-1 text-sm font-medium text-slate-200">Options</legend>
      <p className={hintClass}>
        Cochez «{NNBSP}Non conforme{NNBSP}» pour les réponses qui doivent ouvrir une alerte.
      </p>
      <ul className="space-y-2">
        {item.options.map((option, position) => (
          <li key={option.key} className="flex flex-wrap items-center gap-2">
            <label htmlFor={ids.id(`option-${option.key}`)} className="sr-only">
              {`Option ${position + 1} du point ${n}`}
            </label>
            <input
              id={ids.id(`option-${option.key}`)}
              value={option.text}
              maxLength={100}
              onChange={(event) => setOption(option.key, { text: event.target.value })}
              className={`${inputClass} min-w-0 flex-1 basis-40`}
              {...ids.invalid(`option-${option.key}`)}
            />
            <label className="inline-flex cursor-pointer items-center gap-2 text-sm text-slate-200">
              <input
                type="checkbox"
                checked={option.failing}
                aria-label={`Option ${position + 1} du point ${n} non conforme`}
                onChange={(event) => setOption(option.key, { failing: event.target.checked })}
                className={checkClass}
              />
              <span aria-hidden="true">Non conforme</span>
            </label>
            <Button
              size="sm"
              onClick={() => removeOption(option.key)}
              disabled={item.options.length <= 2}
              aria-label={`Retirer l’option ${position + 1} du point ${n}`}
              icon={<X className="size-4" aria-hidden="true" />}
            />
          </li>
        ))}
      </ul>
      <Button
        id={ids.id(field('add-option'))}
        size="sm"
        onClick={addOption}
        disabled={item.options.length >= 20}
        icon={<Plus className="size-4" aria-hidden="true" />}
        {...ids.invalid(field('add-option'))}
      >
        Ajouter une option
      </Button>
    </fieldset>
  );
}
