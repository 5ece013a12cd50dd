import type { Site } from '@vigie/contract';
import { INSTALL_USES, type InstallUseKey } from '@vigie/contract/presets';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import type { Label } from './label-scanner';

export type InstallChoices = { siteId: string; name: string; preset: InstallUseKey };

const USE_KEYS = Object.keys(INSTALL_USES) as InstallUseKey[];

const fieldClass =
  'mt-1 block w-full rounded-xl border border-white/15 bg-slate-950/70 px-3 py-2.5 text-base text-white focus:border-cyan-300 focus:outline-none focus:ring-2 focus:ring-cyan-300/40';

/** Step 2: where the device goes, its name, and what it watches (the alert rule it gets). */
export function InstallForm({
  label,
  sites,
  busy,
  error,
  onSubmit,
  onBack,
}: {
  label: Label;
  sites: Site[];
  busy: boolean;
  error: string | null;
  onSubmit: (choices: InstallChoices) => void;
  onBack: () => void;
}) {
  const ids = useId();
  const [siteId, setSiteId] = useState(sites[0]?.id ?? '');
  const [name, setName] = useState('');
  const [preset, setPreset] = useState<InstallUseKey>('chilled_very_perishable');
  const [nameError, setNameError] = useState<string | null>(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!name.trim()) {
      setNameError('Donnez un nom à l’appareil, par exemple « Vitrine crèmerie ».');
      return;
    }
    setNameError(null);
    onSubmit({ siteId, name: name.trim(), preset });
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-5" aria-labelledby={`${ids}-title`}>
      <div>
        <h2 id={`${ids}-title`} className="text-lg font-semibold text-white">
          2. Où est-il et que surveille-t-il&#8239;?
        </h2>
        <p className="mt-1 text-sm text-slate-300">
          Étiquette lue&#8239;: <span className="font-mono text-cyan-100">{label.serial}</span>
        </p>
      </div>

      <label className="block text-sm font-medium text-slate-200">
        Magasin
        <select value={siteId} onChange={(event) => setSiteId(event.target.value)} className={fieldClass}>
          {sites.map((site) => (
            <option key={site.id} value={site.id}>
              {site.name}
            </option>
          ))}
        </select>
      </label>

      <label className="block text-sm font-medium text-slate-200">
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
      </label>
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
        <Button onClick={onBack} disabled={busy}>
          Changer d’étiquette
        </Button>
      </div>
    </form>
  );
}
