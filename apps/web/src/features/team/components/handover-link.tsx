import { Copy } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { inputClass } from '@/components/ui/section';

/**
 * An invitation's link when this server sends no e-mail: shown once to the admin who made it, to
 * hand over (it is stored nowhere, and a new one replaces it when the invitation is sent again).
 */
export function HandoverLink({ email, link }: { email: string; link: string }) {
  const [copied, setCopied] = useState<string | null>(null);
  const id = useId();
  const copy = () => {
    navigator.clipboard
      .writeText(link)
      .then(() => setCopied('Lien copié.'))
      .catch(() => setCopied('Copie impossible ici\u202F: sélectionnez le lien et copiez-le.'));
  };
  return (
    <div data-testid="handover-link" className="space-y-2 rounded-xl border border-amber-300/40 bg-amber-400/10 p-3 text-sm text-amber-50">
      <p role="status">
        Invitation créée pour {email}. Ce serveur n’envoie pas d’e-mail{'\u202F'}: transmettez-lui ce lien vous-même (il ne sera plus
        affiché).
      </p>
      <div className="flex flex-col gap-2 sm:flex-row">
        <label htmlFor={id} className="sr-only">
          Lien d’invitation pour {email}
        </label>
        <input id={id} readOnly value={link} onFocus={(event) => event.target.select()} className={`${inputClass} min-w-0 flex-1`} />
        <Button type="button" icon={<Copy className="size-4" aria-hidden="true" />} onClick={copy}>
          Copier le lien
        </Button>
      </div>
      {copied && <p aria-live="polite">{copied}</p>}
    </div>
  );
}
