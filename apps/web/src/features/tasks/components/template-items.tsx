import type { ItemType } from '@vigie/contract';
import { ITEM_TYPES } from '@vigie/contract/values';
import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { FieldLabel } from '@/components/ui/field-label';
import { inputClass } from '@/components/ui/section';
import { blankItem, type ItemDraft } from '../template-draft';
import { checkClass, fieldClass, hintClass, legendClass, type FieldIds } from './template-fields';
import { ChoiceOptionsFields, ExpectedAnswerField, NumberLimitsFields } from './template-item-answers';

const NNBSP = '\u202F';

export const ITEM_TYPE_LABELS: Record<ItemType, string> = {
  boolean: 'Oui / non',
  number: 'Nombre',
  text: 'Texte libre',
  choice: 'Choix dans une liste',
  photo: 'Photo',
};

const quoted = (text: string) => (text.trim() ? ` «${NNBSP}${text.trim()}${NNBSP}»` : '');

/** One item: its label, its kind of answer, and what that answer needs (limits, options, the expected yes or no). */
function ItemFields({
  item,
  index,
  count,
  ids,
  onChange,
  onMove,
  onRemove,
}: {
  item: ItemDraft;
  index: number;
  count: number;
  ids: FieldIds;
  onChange: (item: ItemDraft) => void;
  onMove: (direction: -1 | 1) => void;
  onRemove: () => void;
}) {
  const n = index + 1;
  const f = (name: string) => `item-${item.key}-${name}`;
  const set = (changes: Partial<ItemDraft>) => onChange({ ...item, ...changes });
  const named = `le point ${n}${quoted(item.label)}`;

  return (
    <li>
      <fieldset className="min-w-0 space-y-3 rounded-xl border border-white/10 p-3 sm:p-4" data-testid="template-item">
        <legend className="px-1 text-sm font-semibold text-white">Point {n}</legend>
        <div className={fieldClass}>
          <FieldLabel htmlFor={ids.id(f('label'))}>Libellé</FieldLabel>
          <input
            id={ids.id(f('label'))}
            value={item.label}
            placeholder="Température de la chambre froide"
            onChange={(event) => set({ label: event.target.value })}
            className={inputClass}
            {...ids.invalid(f('label'))}
          />
        </div>
        <div className="grid gap-3 sm:grid-cols-2 sm:items-end">
          <div className={fieldClass}>
            <FieldLabel htmlFor={ids.id(f('type'))}>Forme de la réponse</FieldLabel>
            <select
              id={ids.id(f('type'))}
              value={item.type}
              onChange={(event) => {
                const type = event.target.value as ItemType;
                set({ type, expected: type === 'boolean' && item.type !== 'boolean' ? 'yes' : item.expected });
              }}
              className={inputClass}
            >
              {ITEM_TYPES.map((type) => (
                <option key={type} value={type}>
                  {ITEM_TYPE_LABELS[type]}
                </option>
              ))}
            </select>
          </div>
          <label className="inline-flex cursor-pointer items-center gap-2 py-2 text-sm text-slate-200">
            <input
              type="checkbox"
              checked={item.required}
              onChange={(event) => set({ required: event.target.checked })}
              className={checkClass}
            />
            Réponse obligatoire
          </label>
        </div>

        {item.type === 'boolean' && <ExpectedAnswerField item={item} ids={ids} field={f} set={set} />}

        {item.type === 'number' && <NumberLimitsFields item={item} ids={ids} field={f} set={set} />}

        {item.type === 'choice' && <ChoiceOptionsFields item={item} ids={ids} field={f} set={set} n={n} />}

        {item.type === 'photo' && <p className={hintClass}>La personne prend la photo avec son téléphone au moment du contrôle.</p>}

        <div className="flex flex-wrap gap-2 border-t border-white/10 pt-3">
          <Button
            id={ids.id(f('up'))}
            size="sm"
            onClick={() => onMove(-1)}
            disabled={index === 0}
            aria-label={`Monter ${named}`}
            icon={<ArrowUp className="size-4" aria-hidden="true" />}
          >
            Monter
          </Button>
          <Button
            id={ids.id(f('down'))}
            size="sm"
            onClick={() => onMove(1)}
            disabled={index === count - 1}
            aria-label={`Descendre ${named}`}
            icon={<ArrowDown className="size-4" aria-hidden="true" />}
          >
            Descendre
          </Button>
          <Button
            size="sm"
            variant="danger"
            onClick={onRemove}
            disabled={count <= 1}
            aria-label={`Retirer ${named}`}
            icon={<Trash2 className="size-4" aria-hidden="true" />}
          >
            Retirer
          </Button>
        </div>
      </fieldset>
    </li>
  );
}

/** The template's checklist: its items in order, each added, changed, moved up or down, or removed. */
export function TemplateItemsFields({
  items,
  ids,
  onChange,
}: {
  items: ItemDraft[];
  ids: FieldIds;
  onChange: (items: ItemDraft[]) => void;
}) {
  const move = (index: number, direction: -1 | 1) => {
    const target = index + direction;
    const moved = items[index];
    if (!moved || target < 0 || target >= items.length) return;
    const next = items.filter((_, position) => position !== index);
    next.splice(target, 0, moved);
    onChange(next);
    // The focus stays on the button pressed, gone with its item; at the end of the list, on the other one.
    const atEdge = target === 0 || target === items.length - 1;
    ids.focusLater(`item-${moved.key}-${atEdge ? (direction < 0 ? 'down' : 'up') : direction < 0 ? 'up' : 'down'}`);
  };
  const add = () => {
    const item = blankItem();
    onChange([...items, item]);
    ids.focusLater(`item-${item.key}-label`);
  };
  return (
    <fieldset className="min-w-0 space-y-3">
      <legend className={legendClass}>Points de contrôle</legend>
      <ol className="space-y-3">
        {items.map((item, index) => (
          <ItemFields
            key={item.key}
            item={item}
            index={index}
            count={items.length}
            ids={ids}
            onChange={(changed) => onChange(items.map((candidate) => (candidate.key === item.key ? changed : candidate)))}
            onMove={(direction) => move(index, direction)}
            onRemove={() => {
              onChange(items.filter((candidate) => candidate.key !== item.key));
              ids.focusLater('add-item');
            }}
          />
        ))}
      </ol>
      <Button
        id={ids.id('add-item')}
        variant="secondary"
        size="sm"
        onClick={add}
        disabled={items.length >= 50}
        icon={<Plus className="size-4" aria-hidden="true" />}
        {...ids.invalid('add-item')}
      >
        Ajouter un point
      </Button>
    </fieldset>
  );
}
