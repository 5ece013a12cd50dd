import type { QuantityUnit } from '@vigie/contract';
import { QUANTITY_UNITS } from '@vigie/contract/values';
import { FieldLabel } from '@/components/ui/field-label';
import { inputClass } from '@/components/ui/section';
import { useNow } from '@/hooks/use-now';
import { localInputValue } from '../check-format';
import type { CheckFormState, SensorOption } from './use-check-form';

export const field = 'space-y-1.5';
/** A radio shown as a tile: the whole tile is its label, lit when checked or focused. */
export const choice =
  'flex cursor-pointer items-center gap-2 rounded-xl border border-white/10 bg-slate-950/40 px-3 py-2.5 text-sm text-slate-200 has-[:checked]:border-cyan-300/70 has-[:checked]:bg-cyan-400/10 has-[:checked]:text-white has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-cyan-300';

type FieldsProps = { id: string; form: CheckFormState };

/** What was checked: the product (and, for a delivery, its supplier), or the unit whose sensor is down. */
export function CheckedFields({ id, form, sensors }: FieldsProps & { sensors: readonly SensorOption[] | undefined }) {
  const { draft, change, siteSensors, invalid, describedBy } = form;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {draft.kind === 'delivery' && (
        <div className={field}>
          <FieldLabel htmlFor={`${id}-supplier`}>Fournisseur</FieldLabel>
          <input
            id={`${id}-supplier`}
            value={draft.supplier}
            onChange={(event) => change({ supplier: event.target.value })}
            maxLength={120}
            placeholder="Laiterie du Mont"
            aria-invalid={invalid('supplier')}
            aria-describedby={describedBy('supplier')}
            className={inputClass}
          />
        </div>
      )}
      {draft.kind === 'unit' ? (
        <div className={field}>
          <FieldLabel htmlFor={`${id}-sensor`}>Meuble</FieldLabel>
          <select
            id={`${id}-sensor`}
            value={draft.sensorId}
            onChange={(event) => change({ sensorId: event.target.value })}
            disabled={!sensors || siteSensors.length === 0}
            aria-invalid={invalid('sensor')}
            aria-describedby={describedBy('sensor')}
            className={inputClass}
          >
            <option value="">
              {!sensors ? 'Chargement des capteurs…' : siteSensors.length === 0 ? 'Aucun capteur dans ce magasin' : 'Choisir un meuble…'}
            </option>
            {siteSensors.map((sensor) => (
              <option key={sensor.id} value={sensor.id}>
                {sensor.name}
              </option>
            ))}
          </select>
        </div>
      ) : (
        <div className={field}>
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
      )}
    </div>
  );
}

/** A delivery's own fields: accepted or refused, and how much arrived. */
export function DeliveryFields({ id, form }: FieldsProps) {
  const { draft, change, invalid, describedBy } = form;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <fieldset className="min-w-0" aria-describedby={describedBy('accepted')}>
        <legend className="mb-2 text-sm font-medium text-slate-200">Décision</legend>
        <div className="grid grid-cols-2 gap-2">
          {[
            { value: true, text: 'Acceptée' },
            { value: false, text: 'Refusée' },
          ].map((option) => (
            <label key={option.text} className={choice}>
              <input
                type="radio"
                name={`${id}-accepted`}
                checked={draft.accepted === option.value}
                onChange={() => change({ accepted: option.value })}
                className="size-4 shrink-0 accent-cyan-400"
              />
              {option.text}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="grid grid-cols-[minmax(0,1fr)_auto] gap-3">
        <div className={field}>
          <FieldLabel htmlFor={`${id}-quantity`}>Quantité</FieldLabel>
          <input
            id={`${id}-quantity`}
            value={draft.amount}
            onChange={(event) => change({ amount: event.target.value })}
            inputMode="decimal"
            autoComplete="off"
            placeholder="3"
            aria-invalid={invalid('quantity')}
            aria-describedby={describedBy('quantity')}
            className={inputClass}
          />
        </div>
        <div className={field}>
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
  );
}

/** The temperature read, and when. */
export function ReadingFields({ id, form }: FieldsProps) {
  const { draft, change, invalid, describedBy } = form;
  const now = useNow();
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <div className={field}>
        <FieldLabel htmlFor={`${id}-temperature`}>Température (°C)</FieldLabel>
        <input
          id={`${id}-temperature`}
          value={draft.temperature}
          onChange={(event) => change({ temperature: event.target.value })}
          // Text, not number: « 9,4 » and « −18 » are typed as they are read on the probe.
          inputMode="decimal"
          autoComplete="off"
          placeholder="9,4"
          aria-invalid={invalid('temperature')}
          aria-describedby={describedBy('temperature')}
          className={inputClass}
        />
      </div>
      <div className={field}>
        <FieldLabel htmlFor={`${id}-taken-at`}>Pris le</FieldLabel>
        <input
          id={`${id}-taken-at`}
          type="datetime-local"
          value={draft.takenAt}
          max={localInputValue(now)}
          onChange={(event) => change({ takenAt: event.target.value })}
          aria-invalid={invalid('takenAt')}
          aria-describedby={describedBy('takenAt', `${id}-taken-at-hint`)}
          className={`${inputClass}`}
        />
        <p id={`${id}-taken-at-hint`} className="text-xs text-slate-400">
          Maintenant par défaut{'\u202F'}; jusqu’à 7 jours en arrière.
        </p>
      </div>
    </div>
  );
}
