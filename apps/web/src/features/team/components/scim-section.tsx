import { Copy, RefreshCw } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/dialog';
import { FormStatus } from '@/components/ui/form-status';
import { inputClass } from '@/components/ui/section';
import { errorMessage } from '@/lib/errors';
import { scimBaseUrl, useCreateScimToken } from '../api/scim-queries';

/** One value to copy into the identity provider (the address, the token), with its button. */
function CopyField({
  label,
  value,
  button,
  done,
  secret = false,
}: {
  label: string;
  value: string;
  button: string;
  done: string;
  secret?: boolean;
}) {
  const [copied, setCopied] = useState<string | null>(null);
  const id = useId();
  const copy = () => {
    navigator.clipboard
      .writeText(value)
      .then(() => setCopied(done))
      .catch(() => setCopied('Copie impossible ici\u202F: sélectionnez le texte et copiez-le.'));
  };
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="font-medium">
        {label}
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          id={id}
          readOnly
          value={value}
          onFocus={(event) => event.target.select()}
          className={`${inputClass} min-w-0 flex-1 ${secret ? 'font-mono' : ''}`}
        />
        <Button type="button" icon={<Copy className="size-4" aria-hidden="true" />} onClick={copy}>
          {button}
        </Button>
      </div>
      {copied && <p aria-live="polite">{copied}</p>}
    </div>
  );
}

/** The SCIM service's address and the new token, shown once: the token is stored nowhere but as its fingerprint. */
export function ScimCredentials({ baseUrl, token }: { baseUrl: string; token: string }) {
  return (
    <div data-testid="scim-token" className="space-y-3 rounded-xl border border-amber-300/40 bg-amber-400/10 p-3 text-sm text-amber-50">
      <p role="status">
        Jeton SCIM créé. Copiez-le maintenant dans votre fournisseur d’identité{'\u202F'}: il ne sera plus affiché, et le précédent est
        refusé dès à présent.
      </p>
      <CopyField label="URL du service SCIM" value={baseUrl} button="Copier l’URL" done="URL copiée." />
      <CopyField label="Jeton SCIM" value={token} button="Copier le jeton" done="Jeton copié." secret />
    </div>
  );
}

/**
 * « Provisionnement SCIM » (admins): the token that lets the organization's identity provider
 * (Microsoft Entra ID, Okta…) add its people as members and remove them; created or replaced here.
 */
export function ScimSection() {
  const create = useCreateScimToken();
  const [error, setError] = useState<string | null>(null);
  const [token, setToken] = useState<string | null>(null);
  const [asked, setAsked] = useState(false);

  const submit = () => {
    setAsked(false);
    setError(null);
    setToken(null);
    create.mutate(undefined, {
      onSuccess: setToken,
      onError: (failure) => setError(errorMessage(failure, 'Le jeton SCIM n’a pas été créé.')),
    });
  };

  return (
    <div className="space-y-4">
      <Button
        type="button"
        variant="primary"
        busy={create.isPending}
        icon={<RefreshCw className="size-4" aria-hidden="true" />}
        onClick={() => setAsked(true)}
      >
        Créer ou remplacer le jeton SCIM
      </Button>
      <FormStatus error={error} />
      {token && <ScimCredentials baseUrl={scimBaseUrl(window.location.origin)} token={token} />}
      <ConfirmDialog
        open={asked}
        title={'Créer un nouveau jeton SCIM\u202F?'}
        confirmLabel="Créer le jeton"
        busy={create.isPending}
        onConfirm={submit}
        onCancel={() => setAsked(false)}
      >
        S’il y en a déjà un, il est remplacé{'\u202F'}: votre fournisseur d’identité sera refusé tant que vous ne lui aurez pas donné le
        nouveau.
      </ConfirmDialog>
    </div>
  );
}
