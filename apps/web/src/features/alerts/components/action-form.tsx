import type { ActionKind, Alert, ProductOutcome, QuantityUnit } from '@vigie/contract';
import { ACTION_KIND_LABELS, ACTION_KINDS, PRODUCT_FATE_LABELS, QUANTITY_UNITS } from '@vigie/contract/values';
import { ClipboardCheck } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import { inputClass } from '@/components/ui/section';
import { errorMessage } from '@/lib/errors';
import { parseDecimal } from '@/lib/quantity-format';
import { useAlertStep, type ActionBody } from '../api/alert-actions';
import { FieldLabel } from '@/components/ui/field-label';

const OUTCOMES = Object.keys(PRODUCT_FATE_LABELS) as ProductOutcome[];
/** The contract's bound on a quantity. */
const MAX_QUANTITY = 1_000_000;

const choice =
  'inline-flex cursor-pointer items-center gap-2 rounded-full border border-white/15 px-3 py-1.5 text-sm text-slate-200 has-[:checked]:border-cyan-300/60 has-[:checked]:bg-cyan-400/15 has-[:checked]:text-white has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-cyan-300';

type Field = 'kind' | 'text' | 'outcome' | 'product' | 'quantity';
type Draft = {
  kind: ActionKind | '';
  text: string;
  withFate: boolean;
  outcome: ProductOutcome | '';
  product: string;
  amount: string;
  unit: QuantityUnit;
};

const EMPTY: Draft = { kind: '', text: '', withFate: false, outcome: '', product: '', amount: '', unit: 'kg' };

/** What is sent (only what was given), or the French reason it is not and the field at fault. */
function readAction(draft: Draft): ActionBody | { error: string; field: Field } {
  const text = draft.text.trim();
  if (!draft.kind && !text) return { error: 'Choisissez une action dans la liste ou décrivez ce qui a été fait.', field: 'kind' };
  if (draft.kind === 'other' && !text)
    return { error: '«\u202FAutre action\u202F»\u202F: décrivez-la dans «\u202FPrécisions\u202F».', field: 'text' };
  const body: ActionBody = {};
  if (draft.kind) body.kind = draft.kind;
  if (text) body.text = text;
  if (!draft.withFate) return body;
  if (!draft.outcome) return { error: 'Choisissez le devenir des produits.', field: 'outcome' };
  const product = draft.product.trim();
  if (!product) return { error: 'Indiquez le produit concerné.', field: 'product' };
  const value = parseDecimal(draft.amount);
  if (!Number.isFinite(value) || value <= 0)
    return { error: 'Indiquez une quantité positive, par exemple «\u202F12,5\u202F».', field: 'quantity' };
  if (value > MAX_QUANTITY) return { error: 'La quantité est hors des valeurs possibles.', field: 'quantity' };
  body.fate = { outcome: draft.outcome, product, quantity: { value, unit: draft.unit } };
  return body;
}

/**
 * « Action corrective », guided: an action from the list (« Autre action » is then described),
 * some words, and what became of the products, with the quantity.
 */
export function ActionForm({ alert, placeholder }: { alert: Alert; placeholder: string }) {
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [error, setError] = useState<{ message: string; field: Field | null } | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const step = useAlertStep({ id: alert.id });
  const id = useId();
  const statusId = `${id}-status`;
  const change = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));
  const invalid = (field: Field) => (error?.field === field ? true : undefined);
  const describedBy = (field: Field, hint?: string) =>
    [hint, error?.field === field ? statusId : null].filter(Boolean).join(' ') || undefined;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSuccess(null);
    const action = readAction(draft);
    if ('error' in action) return setError({ message: action.error, field: action.field });
    setError(null);
    step.mutate(
      { kind: 'action', action },
      {
        onSuccess: () => {
          setDraft(EMPTY);
          setSuccess('Action enregistrée.');
        },
        onError: (failure) => setError({ message: errorMessage(failure, 'L’opération a échoué.'), field: null }),
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3">
      <fieldset className="min-w-0 space-y-3">
        <legend id={`${id}-legend`} className="mb-1 text-sm font-semibold text-white">
          Action corrective
        </legend>
        <div className="space-y-1.5">
          <FieldLabel htmlFor={`${id}-kind`}>Action</FieldLabel>
          <select
            id={`${id}-kind`}
            value={draft.kind}
            onChange={(event) => change({ kind: event.target.value as ActionKind | '' })}
            aria-invalid={invalid('kind')}
            aria-describedby={describedBy('kind')}
            className={inputClass}
          >
            <option value="">Choisir une action…</option>
            {ACTION_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {ACTION_KIND_LABELS[kind]}
              </option>
            ))}
          </select>
        </div>
        <div className="space-y-1.5">
          <FieldLabel id={`${id}-text-label`} htmlFor={`${id}-text`}>
            Précisions
          </FieldLabel>
          <textarea
            id={`${id}-text`}
            value={draft.text}
            onChange={(event) => change({ text: event.target.value })}
            rows={2}
            maxLength={2000}
            placeholder={placeholder}
            // Named with the form's title too: « Action corrective Précisions », the field one writes the action in.
            aria-labelledby={`${id}-legend ${id}-text-label`}
            aria-invalid={invalid('text')}
            aria-describedby={describedBy('text', `${id}-text-hint`)}
            className={inputClass}
          />
          <p id={`${id}-text-hint`} className="text-xs text-slate-400">
            {draft.kind === 'other' ? 'Obligatoire pour «\u202FAutre action\u202F».' : 'Facultatif, sauf pour «\u202FAutre action\u202F».'}
          </p>
        </div>
        <fieldset className="min-w-0 space-y-3 rounded-xl border border-white/10 p-3 sm:p-4">
          <legend className="px-1 text-sm font-medium text-slate-200">Devenir des produits</legend>
          <label className="flex cursor-pointer items-center gap-2 text-sm text-slate-200">
            <input
              type="checkbox"
              checked={draft.withFate}
              onChange={(event) => change({ withFate: event.target.checked })}
              className="size-4 accent-cyan-400"
            />
            Des produits sont concernés
          </label>
          {draft.withFate && (
            <div className="space-y-3">
              <fieldset className="min-w-0" aria-describedby={describedBy('outcome')}>
                <legend className="mb-2 text-sm font-medium text-slate-200">Devenir</legend>
                <div className="flex flex-wrap gap-2">
                  {OUTCOMES.map((outcome) => (
                    <label key={outcome} className={choice}>
                      <input
                        type="radio"
                        name={`${id}-outcome`}
                        value={outcome}
                        checked={draft.outcome === outcome}
                        onChange={() => change({ outcome })}
                        className="size-4 accent-cyan-400"
                      />
                      {PRODUCT_FATE_LABELS[outcome]}
                    </label>
                  ))}
                </div>
              </fieldset>
              <div className="space-y-1.5">
                <FieldLabel htmlFor={`${id}-product`}>Produit</FieldLabel>
                <input
                  id={`${id}-product`}
                  value={draft.product}
                  onChange={(event) => change({ product: event.target.value })}
                  maxLength={120}
                  placeholder="Yaourts nature"
                  aria-invalid={invalid('product')}
                  aria-describedby={describedBy('product')}
                  className={inputClass}
                />
              </div>
              <div className="grid grid-cols-[minmax(0,1fr)_auto] gap-3 sm:max-w-sm">
                <div className="space-y-1.5">
                  <FieldLabel htmlFor={`${id}-quantity`}>Quantité</FieldLabel>
                  <input
                    id={`${id}-quantity`}
                    value={draft.amount}
                    onChange={(event) => change({ amount: event.target.value })}
                    // Text, not number: « 12,5 » is typed as it is said.
                    inputMode="decimal"
                    autoComplete="off"
                    placeholder="12,5"
                    aria-invalid={invalid('quantity')}
                    aria-describedby={describedBy('quantity')}
                    className={inputClass}
                  />
                </div>
                <div className="space-y-1.5">
                  <FieldLabel htmlFor={`${id}-unit`}>Unité</FieldLabel>
                  <select
                    id={`${id}-unit`}
                    value={draft.unit}
                    onChange={(event) => change({ unit: event.target.value as QuantityUnit })}
                    className={inputClass}
                  >
                    {QUANTITY_UNITS.map((unit) => (
                      <option key={unit} value={unit}>
                        {unit}
                      </option>
                    ))}
                  </select>
                </div>
              </div>
            </div>
          )}
        </fieldset>
      </fieldset>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" variant="secondary" busy={step.isPending} icon={<ClipboardCheck className="size-4" aria-hidden="true" />}>
          Enregistrer l’action
        </Button>
        <FormStatus id={statusId} error={error?.message} success={success} />
      </div>
    </form>
  );
}
