import type { IntegrationType } from '@vigie/contract';
import { KeyRound, Plus } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { CopyButton } from '@/components/copy-button';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import { inputClass } from '@/components/ui/section';
import { errorMessage } from '@/lib/errors';
import { type CreatedIntegration, useCreateIntegration } from '../api/lorawan-mutations';
import { INTEGRATION_TYPE_LABELS, integrationSteps } from '../lorawan-format';

const NNBSP = '\u202F';
const TYPES = Object.keys(INTEGRATION_TYPE_LABELS) as IntegrationType[];

/** Creates an integration; its address and secret are shown once, with what to paste where in the network server. */
export function NewIntegrationForm() {
  const create = useCreateIntegration();
  const ids = useId();
  const [type, setType] = useState<IntegrationType>('tts');
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedIntegration | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const chosen = name.trim() || INTEGRATION_TYPE_LABELS[type];
    setError(null);
    setCreated(null);
    create.mutate(
      { type, name: chosen },
      {
        onSuccess: (integration) => {
          setName('');
          setCreated(integration);
        },
        onError: (failure) => setError(errorMessage(failure, 'L’intégration n’a pas été créée.')),
      },
    );
  };

  return (
    <div className="space-y-5">
      <form onSubmit={onSubmit} noValidate aria-labelledby={`${ids}-title`} className="space-y-3 border-t border-white/10 pt-5">
        <h3 id={`${ids}-title`} className="text-base font-semibold text-white">
          Nouvelle intégration
        </h3>
        <div className="grid grid-cols-[minmax(0,1fr)] gap-3 sm:grid-cols-[minmax(0,14rem)_minmax(0,1fr)_auto]">
          <div className="space-y-1.5">
            <label htmlFor={`${ids}-type`} className="block text-sm font-medium text-slate-200">
              Serveur de réseau
            </label>
            <select
              id={`${ids}-type`}
              value={type}
              onChange={(event) => setType(event.target.value as IntegrationType)}
              className={`${inputClass} h-11`}
            >
              {TYPES.map((option) => (
                <option key={option} value={option}>
                  {INTEGRATION_TYPE_LABELS[option]}
                </option>
              ))}
            </select>
          </div>
          <div className="space-y-1.5">
            <label htmlFor={`${ids}-name`} className="block text-sm font-medium text-slate-200">
              Nom
            </label>
            <input
              id={`${ids}-name`}
              value={name}
              maxLength={100}
              placeholder={`${INTEGRATION_TYPE_LABELS[type]} du magasin`}
              aria-describedby={`${ids}-status`}
              onChange={(event) => setName(event.target.value)}
              className={`${inputClass} h-11`}
            />
          </div>
          <Button
            type="submit"
            variant="secondary"
            busy={create.isPending}
            icon={<Plus className="size-4" aria-hidden="true" />}
            className="h-11 sm:self-end"
          >
            Créer l’intégration
          </Button>
        </div>
        <FormStatus id={`${ids}-status`} error={error} />
      </form>

      {created && <CreatedIntegrationBox integration={created} onClose={() => setCreated(null)} />}
    </div>
  );
}

/** The address and the secret of a new integration, shown this once, and the steps for its network server. */
function CreatedIntegrationBox({ integration, onClose }: { integration: CreatedIntegration; onClose: () => void }) {
  const ids = useId();
  const header = `Bearer ${integration.secret}`;
  const typeLabel = INTEGRATION_TYPE_LABELS[integration.type];
  const field = 'min-w-0 flex-1 basis-full rounded-xl border px-3 py-2 font-mono text-xs [overflow-wrap:anywhere] sm:basis-auto';

  return (
    <section
      aria-labelledby={`${ids}-title`}
      data-testid="created-integration"
      className="space-y-4 rounded-2xl border-2 border-amber-300/60 bg-amber-400/10 p-4 sm:p-5"
    >
      <div className="flex items-start gap-3">
        <KeyRound className="mt-0.5 size-5 shrink-0 text-amber-200" aria-hidden="true" />
        <div className="min-w-0">
          <h3 id={`${ids}-title`} className="font-semibold [overflow-wrap:anywhere] text-white">
            Intégration «{NNBSP}
            {integration.name}
            {NNBSP}» créée
          </h3>
          <p className="mt-1 text-sm font-semibold text-amber-100">Copiez ce secret maintenant{NNBSP}: il ne sera plus affiché.</p>
        </div>
      </div>

      <dl className="space-y-3 text-sm">
        <div className="space-y-1.5">
          <dt className="font-medium text-slate-200">Adresse</dt>
          <dd className="flex flex-wrap items-center gap-2">
            <code data-testid="created-integration-url" className={`${field} border-white/10 bg-slate-950/70 text-cyan-100`}>
              {integration.url}
            </code>
            <CopyButton text={integration.url} label="Copier l’adresse" />
          </dd>
        </div>
        <div className="space-y-1.5">
          <dt className="font-medium text-slate-200">Secret</dt>
          <dd className="flex flex-wrap items-center gap-2">
            <code data-testid="created-integration-secret" className={`${field} border-amber-300/40 bg-slate-950/70 text-amber-50`}>
              {integration.secret}
            </code>
            <CopyButton text={integration.secret} label="Copier le secret" />
          </dd>
        </div>
        <div className="space-y-1.5">
          <dt className="font-medium text-slate-200">En-tête Authorization</dt>
          <dd className="flex flex-wrap items-center gap-2">
            <code className={`${field} border-white/10 bg-slate-950/70 text-slate-100`}>{header}</code>
            <CopyButton text={header} label="Copier l’en-tête" />
          </dd>
        </div>
      </dl>

      <div>
        <h4 className="text-sm font-semibold text-white">Dans {typeLabel}</h4>
        <ol className="mt-2 list-decimal space-y-1 pl-5 text-sm text-slate-200">
          {integrationSteps(integration.type).map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </div>

      <Button variant="ghost" size="sm" onClick={onClose}>
        J’ai copié le secret
      </Button>
    </section>
  );
}
