import type { ApiKeyRole, Region, Site } from '@vigie/contract';
import { Copy, KeyRound } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FieldLabel } from '@/components/ui/field-label';
import { FormStatus } from '@/components/ui/form-status';
import { inputClass } from '@/components/ui/section';
import { errorMessage } from '@/lib/errors';
import { ROLE_LABELS } from '@/lib/permissions';
import { useCreateApiKey } from '../api/key-queries';
import { ScopeOptions, scopeOf } from './invite-form';

const KEY_ROLES: readonly ApiKeyRole[] = ['viewer', 'manager'];

/** The secret of a new key, shown once, with a copy button: it is stored nowhere. */
function NewKey({ name, secret }: { name: string; secret: string }) {
  const [copied, setCopied] = useState<string | null>(null);
  const id = useId();
  const copy = () => {
    navigator.clipboard
      .writeText(secret)
      .then(() => setCopied('Clé copiée.'))
      .catch(() => setCopied('Copie impossible ici\u202F: sélectionnez la clé et copiez-la.'));
  };
  return (
    <div data-testid="new-api-key" className="space-y-2 rounded-xl border border-amber-300/40 bg-amber-400/10 p-3 text-sm text-amber-50">
      <p role="status">
        Clé «{'\u00a0'}
        {name}
        {'\u00a0'}» créée. Copiez-la maintenant{'\u202F'}: elle ne sera plus affichée.
      </p>
      <div className="flex flex-col gap-2 sm:flex-row">
        <label htmlFor={id} className="sr-only">
          Clé d’API {name}
        </label>
        <input
          id={id}
          readOnly
          value={secret}
          onFocus={(event) => event.target.select()}
          className={`${inputClass} min-w-0 flex-1 font-mono`}
        />
        <Button type="button" icon={<Copy className="size-4" aria-hidden="true" />} onClick={copy}>
          Copier la clé
        </Button>
      </div>
      {copied && <p aria-live="polite">{copied}</p>}
    </div>
  );
}

/** « Créer une clé »: a name, a role (never admin), what it sees and an optional last day. */
export function ApiKeyForm({ sites, regions }: { sites: readonly Site[]; regions: readonly Region[] }) {
  const create = useCreateApiKey();
  const [name, setName] = useState('');
  const [role, setRole] = useState<ApiKeyRole>('viewer');
  const [scope, setScope] = useState('');
  const [until, setUntil] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  const ids = { name: useId(), role: useId(), scope: useId(), until: useId() };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setCreated(null);
    if (!name.trim()) return setError('Donnez un nom à la clé (par exemple le programme qui s’en servira).');
    // The key works through the whole of its last day, in the browser's time.
    const expiresAt = until ? new Date(`${until}T23:59:59`).toISOString() : null;
    create.mutate(
      { name: name.trim(), role, scope: scopeOf(scope), expiresAt },
      {
        onSuccess: (key) => {
          setCreated({ name: key.name, secret: key.key });
          setName('');
          setUntil('');
        },
        onError: (failure) => setError(errorMessage(failure, 'La clé d’API n’a pas été créée.')),
      },
    );
  };

  return (
    <form onSubmit={submit} className="space-y-4" aria-label="Créer une clé d’API" noValidate>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-1">
          <FieldLabel htmlFor={ids.name}>Nom</FieldLabel>
          <input id={ids.name} value={name} maxLength={100} onChange={(event) => setName(event.target.value)} className={inputClass} />
        </div>
        <div className="space-y-1">
          <FieldLabel htmlFor={ids.role}>Rôle</FieldLabel>
          <select id={ids.role} value={role} onChange={(event) => setRole(event.target.value as ApiKeyRole)} className={inputClass}>
            {KEY_ROLES.map((option) => (
              <option key={option} value={option}>
                {ROLE_LABELS[option]}
              </option>
            ))}
          </select>
        </div>
        <div className="space-y-1">
          <FieldLabel htmlFor={ids.scope}>Périmètre</FieldLabel>
          <select id={ids.scope} value={scope} onChange={(event) => setScope(event.target.value)} className={inputClass}>
            <ScopeOptions sites={sites} regions={regions} />
          </select>
        </div>
        <div className="space-y-1">
          <FieldLabel htmlFor={ids.until}>Dernier jour (facultatif)</FieldLabel>
          <input id={ids.until} type="date" value={until} onChange={(event) => setUntil(event.target.value)} className={inputClass} />
        </div>
      </div>
      <Button type="submit" variant="primary" busy={create.isPending} icon={<KeyRound className="size-4" aria-hidden="true" />}>
        Créer la clé
      </Button>
      <FormStatus error={error} />
      {created && <NewKey name={created.name} secret={created.secret} />}
    </form>
  );
}
