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
import { FieldLabel } from '@/components/ui/field-label';

const NNBSP = '\u202F';
const TYPES = Object.keys(INTEGRATION_TYPE_LABELS) as IntegrationType[];

/** Creates an integration; its address and secret are shown once, with what to paste where in the network server. */
export function NewIntegrationForm() {
  const create = useCreateIntegration();
  const ids = useId();
  const [type, setType] = useState<IntegrationType>('tts');
  const [name, setName] = useState('');
  /** The Things Stack only: Vigie connects to the application's MQTT server instead of being called. */
  const [viaMqtt, setViaMqtt] = useState(false);
  const [server, setServer] = useState('');
  const [username, setUsername] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedIntegration | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const chosen = name.trim() || INTEGRATION_TYPE_LABELS[type];
    setError(null);
    setCreated(null);
    const mqtt = type === 'tts' && viaMqtt ? { server: server.trim(), username: username.trim(), password: apiKey.trim() } : undefined;
    create.mutate(
      { type, name: chosen, ...(mqtt ? { mqtt } : {}) },
      {
        onSuccess: (integration) => {
          setName('');
          setApiKey('');
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
            <FieldLabel htmlFor={`${ids}-type`}>Serveur de réseau</FieldLabel>
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
            <FieldLabel htmlFor={`${ids}-name`}>Nom</FieldLabel>
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
        {type === 'tts' && (
          <fieldset className="space-y-3">
            <legend className="text-sm font-medium text-slate-200">Connexion</legend>
            <div className="flex flex-col gap-2 text-sm text-slate-200 sm:flex-row sm:gap-6">
              <label className="flex items-center gap-2">
                <input
                  type="radio"
                  name={`${ids}-via`}
                  checked={!viaMqtt}
                  onChange={() => setViaMqtt(false)}
                  className="size-4 accent-cyan-400"
                />
                Webhook (The Things Stack appelle Vigie)
              </label>
              <label className="flex items-center gap-2">
                <input
                  type="radio"
                  name={`${ids}-via`}
                  checked={viaMqtt}
                  onChange={() => setViaMqtt(true)}
                  className="size-4 accent-cyan-400"
                />
                MQTT (Vigie se connecte au serveur de l’application)
              </label>
            </div>
            {viaMqtt && (
              <div className="grid grid-cols-[minmax(0,1fr)] gap-3 sm:grid-cols-3">
                <div className="space-y-1.5">
                  <FieldLabel htmlFor={`${ids}-server`}>Serveur MQTT</FieldLabel>
                  <input
                    id={`${ids}-server`}
                    value={server}
                    inputMode="url"
                    autoComplete="off"
                    placeholder="mqtts://eu1.cloud.thethings.network:8883"
                    onChange={(event) => setServer(event.target.value)}
                    className={`${inputClass} h-11`}
                  />
                </div>
                <div className="space-y-1.5">
                  <FieldLabel htmlFor={`${ids}-username`}>Utilisateur (application@tenant)</FieldLabel>
                  <input
                    id={`${ids}-username`}
                    value={username}
                    autoComplete="off"
                    placeholder="mon-app@ttn"
                    onChange={(event) => setUsername(event.target.value)}
                    className={`${inputClass} h-11`}
                  />
                </div>
                <div className="space-y-1.5">
                  <FieldLabel htmlFor={`${ids}-key`}>Clé d’API</FieldLabel>
                  <input
                    id={`${ids}-key`}
                    type="password"
                    value={apiKey}
                    autoComplete="off"
                    placeholder="NNSXS.…"
                    onChange={(event) => setApiKey(event.target.value)}
                    className={`${inputClass} h-11`}
                  />
                </div>
              </div>
            )}
          </fieldset>
        )}
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

      {integration.mqtt && (
        <p className="text-sm text-slate-100">
          Vigie se connecte à <code className="font-mono text-cyan-100">{integration.mqtt.server}</code> en tant que{' '}
          <code className="font-mono text-cyan-100">{integration.mqtt.username}</code> et lit les messages de l’application{NNBSP}: rien à
          coller dans The Things Stack. L’état de la connexion s’affiche dans la liste des intégrations. L’adresse et le secret ci-dessous
          servent si vous préférez un jour le webhook.
        </p>
      )}
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
