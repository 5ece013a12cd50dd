import type { Site } from '@vigie/contract';
import { CHECK_KIND_LABELS, CHECK_KINDS } from '@vigie/contract/values';
import { ClipboardPlus } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { FieldLabel } from '@/components/ui/field-label';
import { FormStatus } from '@/components/ui/form-status';
import { inputClass } from '@/components/ui/section';
import { CheckedFields, choice, DeliveryFields, field, ReadingFields } from './check-fields';
import { useCheckForm, type SensorOption } from './use-check-form';

export type { SensorOption } from './use-check-form';

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
  const id = useId();
  const titleId = `${id}-title`;
  const statusId = `${id}-status`;
  const form = useCheckForm({ sites, sensors, defaultSiteId, onSaved, statusId });
  const { create, siteId, setChosenSite, draft, change, error, done, invalid, describedBy, onSubmit } = form;

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
        <FieldLabel htmlFor={`${id}-site`}>Magasin</FieldLabel>
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

      <CheckedFields id={id} form={form} sensors={sensors} />

      {draft.kind === 'delivery' && <DeliveryFields id={id} form={form} />}

      <ReadingFields id={id} form={form} />

      <div className={field}>
        <FieldLabel htmlFor={`${id}-note`}>Remarque</FieldLabel>
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
