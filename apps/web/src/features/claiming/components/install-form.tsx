import type { Site } from '@vigie/contract';
import { INSTALL_USES, type InstallUseKey } from '@vigie/contract/presets';
import { CircleCheck } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import type { LabelledDevice } from '../api/claim-device';
import type { Label } from './label-scanner';
import { FieldLabel } from '@/components/ui/field-label';

export type InstallChoices = { siteId: string; name: string; preset: InstallUseKey };

const KIND_NAMES: Record<LabelledDevice['kind'], string> = { sensor: 'Capteur', emitter: 'Émetteur' };

/** « Capteur Vigie TH-1 reconnu »: the device the label names, as its maker's batch describes it. */
export function recognizedText(device: Pick<LabelledDevice, 'kind' | 'model'>): string {
  return `${KIND_NAMES[device.kind]}${device.model ? ` ${device.model}` : ''} reconnu`;
}

const USE_KEYS = Object.keys(INSTALL_USES) as InstallUseKey[];

const fieldClass =
  'mt-1 block w-full rounded-xl border border-white/15 bg-slate-950/70 px-3 py-2.5 text-base text-white focus:border-cyan-300 focus:outline-none focus:ring-2 focus:ring-cyan-300/40';

/**
 * Step 2: where the device goes, its name, and what it watches (the alert rule it gets). It starts
 * from `initial`, the choices made before going back to the label, and hands them back with `onBack`.
 */
export function InstallForm({
  label,
  device,
  sites,
  busy,
  error,
  initial,
  onSubmit,
  onBack,
}: {
  label: Label;
  /** The device the label names, found at step 1. */
  device: Pick<LabelledDevice, 'kind' | 'model'>;
  sites: Site[];
  busy: boolean;
  error: string | null;
  initial?: InstallChoices | null;
  onSubmit: (choices: InstallChoices) => void;
  onBack: (choices: InstallChoices) => void;
}) {
  const ids = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [siteId, setSiteId] = useState(initial && sites.some((site) => site.id === initial.siteId) ? initial.siteId : (sites[0]?.id ?? ''));
  const [name, setName] = useState(initial?.name ?? '');
  // A transmitter measures nothing itself: no alert rule unless one is chosen.
  const [preset, setPreset] = useState<InstallUseKey>(initial?.preset ?? (device.kind === 'emitter' ? 'none' : 'chilled_very_perishable'));
  const [nameError, setNameError] = useState<string | null>(null);

  // The label's step is gone: the focus starts this one.
  useEffect(() => headingRef.current?.focus(), []);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!name.trim()) {
      setNameError('Donnez un nom à l’appareil, par exemple «\u202FVitrine crèmerie\u202F».');
      return;
    }
    setNameError(null);
    onSubmit({ siteId, name: name.trim(), preset });
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-5" aria-labelledby={`${ids}-title`}>
      <div>
        <h2 id={`${ids}-title`} ref={headingRef} tabIndex={-1} className="text-lg font-semibold text-white focus:outline-none">
          2. Où est-il et que surveille-t-il&#8239;?
        </h2>
        <p className="mt-1 flex items-center gap-2 text-sm font-semibold text-emerald-200">
          <CircleCheck className="size-4 shrink-0" aria-hidden="true" />
          {recognizedText(device)}
        </p>
        <p className="mt-1 text-sm text-slate-300">
          Étiquette lue&#8239;: <span className="font-mono text-cyan-100">{label.serial}</span>
        </p>
      </div>

      <FieldLabel>
        Magasin
        <select value={siteId} onChange={(event) => setSiteId(event.target.value)} className={fieldClass}>
          {sites.map((site) => (
            <option key={site.id} value={site.id}>
              {site.name}
            </option>
          ))}
        </select>
      </FieldLabel>

      <FieldLabel>
        Nom de l’appareil
        <input
          value={name}
          onChange={(event) => setName(event.target.value)}
          maxLength={100}
          placeholder="Vitrine crèmerie"
          aria-invalid={nameError ? true : undefined}
          aria-describedby={`${ids}-name-error`}
          className={fieldClass}
        />
      </FieldLabel>
      <FormStatus id={`${ids}-name-error`} error={nameError} />

      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-200">Ce qu’il surveille</legend>
        {USE_KEYS.map((key) => {
          const use = INSTALL_USES[key];
          return (
            <label
              key={key}
              className="flex cursor-pointer items-start gap-3 rounded-xl border border-white/10 bg-slate-950/40 p-3 has-[:checked]:border-cyan-300/70 has-[:checked]:bg-cyan-400/10"
            >
              <input
                type="radio"
                name={`${ids}-use`}
                value={key}
                checked={preset === key}
                onChange={() => setPreset(key)}
                className="mt-1 size-4 accent-cyan-400"
              />
              <span>
                <span className="block text-sm font-semibold text-white">{use.label}</span>
                <span className="block text-sm text-slate-300">{use.hint}</span>
              </span>
            </label>
          );
        })}
      </fieldset>

      <FormStatus error={error} />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" variant="primary" busy={busy} className="w-full sm:w-auto">
          {busy ? 'Installation…' : 'Installer l’appareil'}
        </Button>
        <Button onClick={() => onBack({ siteId, name, preset })} disabled={busy}>
          Changer d’étiquette
        </Button>
      </div>
    </form>
  );
}
