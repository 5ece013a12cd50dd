import type { CheckKind, CreateCheckRequest, QuantityUnit, Site } from '@vigie/contract';
import { useState, type FormEvent } from 'react';
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

type Field = 'site' | 'product' | 'supplier' | 'accepted' | 'quantity' | 'sensor' | 'temperature' | 'takenAt';
export type Draft = {
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
 * The check form's state and its sending: the shop (picked here, else the list's), the draft, the
 * error and the field it is about, and what the fields' `aria-*` say of it. Apart from the form so
 * that its field groups read one state.
 */
export function useCheckForm({
  sites,
  sensors,
  defaultSiteId,
  onSaved,
  statusId,
}: {
  sites: readonly Site[];
  sensors: readonly SensorOption[] | undefined;
  defaultSiteId: string | null;
  onSaved: ((siteId: string) => void) | undefined;
  statusId: string;
}) {
  const create = useCreateCheck();
  const [chosenSite, setChosenSite] = useState<string | null>(null);
  const [draft, setDraft] = useState<Draft>(() => freshDraft());
  const [error, setError] = useState<{ message: string; field: Field | null } | null>(null);
  const [done, setDone] = useState<string | null>(null);
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

  return { create, siteId, siteSensors, setChosenSite, draft, change, error, done, invalid, describedBy, onSubmit };
}

/** What the check form's field groups read and change. */
export type CheckFormState = ReturnType<typeof useCheckForm>;
