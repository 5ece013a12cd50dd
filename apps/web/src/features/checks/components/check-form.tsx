import type { CheckKind, CreateCheckRequest, QuantityUnit, Site } from '@vigie/contract';
import { CHECK_KIND_LABELS, CHECK_KINDS, QUANTITY_UNITS } from '@vigie/contract/values';
import { ClipboardPlus } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import { inputClass } from '@/components/ui/section';
import { useNow } from '@/hooks/use-now';
import { errorMessage } from '@/lib/errors';
import { parseDecimal } from '@/lib/quantity-format';
import { useCreateCheck } from '../api/check-queries';
import { localInputValue } from '../check-format';

/** A sensor offered for « Relevé manuel d’un meuble ». */
export type SensorOption = { id: string; name: string; siteId: string };

/** The contract's bounds, restated for the messages given before sending. */
const MIN_TEMPERATURE = -80;
const MAX_TEMPERATURE = 120;
const MAX_QUANTITY = 1_000_000;

const field = 'space-y-1.5';
const label = 'block text-sm font-medium text-slate-200';
const choice =
  'flex cursor-pointer items-center gap-2 rounded-xl border border-white/10 bg-slate-950/40 px-3 py-2.5 text-sm text-slate-200 has-[:checked]:border-cyan-300/70 has-[:checked]:bg-cyan-400/10 has-[:checked]:text-white has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-cyan-300';

type Field = 'site' | 'product' | 'supplier' | 'accepted' | 'quantity' | 'sensor' | 'temperature' | 'takenAt';
type Draft = {
  kind: CheckKind;
  product: string;
  supplier: string;
  accepted: boolean | null;
  amount: string;
  unit: QuantityUnit;
  sensorId: string;
  temperature: string;
  note: string;
  takenAt: string;
};

/** A new check: a product probed, now; the site and the type stay from one check to the next. */
const freshDraft = (kind: CheckKind = 'product'): Draft => ({
  kind,
  product: '',
  supplier: '',
  accepted: null,
  amount: '',
  unit: 'colis',
  sensorId: '',
  temperature: '',
  note: '',
  takenAt: localInputValue(Date.now()),
});

type Failure = { error: string; field: Field };

/** What is sent (only what this type of check names), or the French reason it is not and the field at fault. */
function readCheck(siteId: string, draft: Draft, sensors: readonly SensorOption[]): CreateCheckRequest | Failure {
  if (!siteId) return { error: 'Choisissez un magasin.', field: 'site' };
  const check: Partial<CreateCheckRequest> & Pick<CreateCheckRequest, 'siteId' | 'kind'> = { siteId, kind: draft.kind };
  if (draft.kind === 'unit') {
    if (!draft.sensorId || !sensors.some((sensor) => sensor.id === draft.sensorId))
      return { error: 'Choisissez le meuble relevé.', field: 'sensor' };
    check.sensorId = draft.sensorId;
  } else {
    if (draft.kind === 'delivery') {
      const supplier = draft.supplier.trim();
      if (!supplier) return { error: 'Indiquez le fournisseur.', field: 'supplier' };
      check.supplier = supplier;
    }
    const product = draft.product.trim();
    if (!product) return { error: 'Indiquez le produit contrôlé.', field: 'product' };
    check.product = product;
    if (draft.kind === 'delivery') {
      if (draft.accepted === null) return { error: 'Dites si la livraison est acceptée ou refusée.', field: 'accepted' };
      check.accepted = draft.accepted;
      if (draft.amount.trim()) {
        const value = parseDecimal(draft.amount);
        if (!Number.isFinite(value) || value <= 0 || value > MAX_QUANTITY)
          return { error: 'Indiquez une quantité positive, par exemple «\u202F3\u202F», ou laissez-la vide.', field: 'quantity' };
        check.quantity = { value, unit: draft.unit };
      }
    }
  }
  const temperature = parseDecimal(draft.temperature);
  if (!Number.isFinite(temperature)) return { error: 'Indiquez la température, par exemple «\u202F9,4\u202F».', field: 'temperature' };
  if (temperature < MIN_TEMPERATURE || temperature > MAX_TEMPERATURE)
    return { error: 'La température doit être comprise entre −80 et +120\u202F°C.', field: 'temperature' };
  check.temperature = temperature;
  const note = draft.note.trim();
  if (note) check.note = note;
  const takenAt = draft.takenAt ? new Date(draft.takenAt).getTime() : Number.NaN;
  if (!Number.isFinite(takenAt)) return { error: 'Indiquez quand la température a été prise.', field: 'takenAt' };
  // A minute's grace: « maintenant », typed to the minute, is never in the future.
  if (takenAt > Date.now() + 60_000) return { error: 'La prise de température ne peut pas être dans le futur.', field: 'takenAt' };
  check.takenAt = new Date(takenAt).toISOString();
  return check as CreateCheckRequest;
}

/**
 * « Noter un contrôle »: a temperature taken by hand — a product probed, a delivery at reception
 * (accepted or refused), a unit whose sensor is down — in one of the shops one sees, with when.
 */
export function CheckForm({
  sites,
  sensors,
  defaultSiteId,
  onSaved,
}: {
  sites: readonly Site[];
  /** undefined while the sensors are being read. */
  sensors: readonly SensorOption[] | undefined;
  defaultSiteId: string | null;
  onSaved?: (siteId: string) => void;
}) {
  const create = useCreateCheck();
  const now = useNow();
  const [chosenSite, setChosenSite] = useState<string | null>(null);
  const [draft, setDraft] = useState<Draft>(() => freshDraft());
  const [error, setError] = useState<{ message: string; field: Field | null } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const id = useId();
  const titleId = `${id}-title`;
  const statusId = `${id}-status`;
  // The shop picked here, else the one the list shows, else the first.
  const siteId = [chosenSite, defaultSiteId, sites[0]?.id].find((known) => known && sites.some((site) => site.id === known)) ?? '';
  const siteSensors = (sensors ?? []).filter((sensor) => sensor.siteId === siteId);
  const change = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));
  const invalid = (name: Field) => (error?.field === name ? true : undefined);
  const describedBy = (name: Field, hint?: string) =>
    [hint, error?.field === name ? statusId : null].filter(Boolean).join(' ') || undefined;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    const check = readCheck(siteId, draft, siteSensors);
    if ('error' in check) return setError({ message: check.error, field: check.field });
    setError(null);
    create.mutate(check, {
      onSuccess: () => {
        setDraft(freshDraft(draft.kind));
        setDone('Contrôle enregistré.');
        onSaved?.(check.siteId);
      },
      onError: (failure) => setError({ message: errorMessage(failure, 'Le contrôle n’a pas été enregistré.'), field: null }),
    });
  };

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-labelledby={titleId}
      className="space-y-4 rounded-2xl border border-white/10 bg-slate-900/60 p-4 shadow-lg shadow-black/20 backdrop-blur sm:p-6"
    >
      <h2 id={titleId} className="text-lg font-semibold text-white">
        Noter un contrôle
      </h2>
      <div className={`${field} sm:max-w-sm`}>
        <label htmlFor={`${id}-site`} className={label}>
          Magasin
        </label>
        <select
          id={`${id}-site`}
          value={siteId}
          onChange={(event) => {
            setChosenSite(event.target.value);
            change({ sensorId: '' });
          }}
          disabled={sites.length === 0}
          aria-invalid={invalid('site')}
          aria-describedby={describedBy('site')}
          className={inputClass}
        >
          {sites.length === 0 && <option value="">Chargement des magasins…</option>}
          {sites.map((site) => (
            <option key={site.id} value={site.id}>
              {site.name}
            </option>
          ))}
        </select>
      </div>

      <fieldset className="min-w-0">
        <legend className="mb-2 text-sm font-medium text-slate-200">Type</legend>
        <div className="grid gap-2 sm:grid-cols-3">
          {CHECK_KINDS.map((kind) => (
            <label key={kind} className={choice}>
              <input
                type="radio"
                name={`${id}-kind`}
                value={kind}
                checked={draft.kind === kind}
                onChange={() => change({ kind })}
                className="size-4 shrink-0 accent-cyan-400"
              />
              {CHECK_KIND_LABELS[kind]}
            </label>
          ))}
        </div>
      </fieldset>

      <div className="grid gap-4 sm:grid-cols-2">
        {draft.kind === 'delivery' && (
          <div className={field}>
            <label htmlFor={`${id}-supplier`} className={label}>
              Fournisseur
            </label>
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
            <label htmlFor={`${id}-sensor`} className={label}>
              Meuble
            </label>
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
            <label htmlFor={`${id}-product`} className={label}>
              Produit
            </label>
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

      {draft.kind === 'delivery' && (
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
              <label htmlFor={`${id}-quantity`} className={label}>
                Quantité
              </label>
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
              <label htmlFor={`${id}-unit`} className={label}>
                Unité
              </label>
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

      <div className="grid gap-4 sm:grid-cols-2">
        <div className={field}>
          <label htmlFor={`${id}-temperature`} className={label}>
            Température (°C)
          </label>
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
          <label htmlFor={`${id}-taken-at`} className={label}>
            Pris le
          </label>
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

      <div className={field}>
        <label htmlFor={`${id}-note`} className={label}>
          Remarque
        </label>
        <textarea
          id={`${id}-note`}
          value={draft.note}
          onChange={(event) => change({ note: event.target.value })}
          rows={2}
          maxLength={1000}
          placeholder="Refusée devant le chauffeur."
          className={inputClass}
        />
      </div>

      <div className="flex flex-wrap items-center gap-3">
        <Button
          type="submit"
          variant="primary"
          busy={create.isPending}
          icon={<ClipboardPlus className="size-4" aria-hidden="true" />}
          className="w-full sm:w-auto"
        >
          Enregistrer le contrôle
        </Button>
        <FormStatus id={statusId} error={error?.message} success={done} />
      </div>
    </form>
  );
}
