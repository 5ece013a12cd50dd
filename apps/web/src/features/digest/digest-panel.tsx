import { useId, useState } from 'react';
import { FormStatus } from '@/components/ui/form-status';
import { errorMessage } from '@/lib/errors';
import { useDigest, useSetDigest } from './digest-queries';

const NNBSP = '\u202F';

/** « Mon compte »: the morning e-mail of yesterday's alerts in one's shops, asked for or stopped. */
export function DigestPanel() {
  const digest = useDigest();
  const save = useSetDigest();
  const id = useId();
  const [status, setStatus] = useState<{ error?: string; success?: string }>({});

  if (digest.isError) return <FormStatus error={errorMessage(digest.error, 'Le réglage du résumé n’a pas pu être lu.')} />;
  if (!digest.data) return <p className="text-sm text-slate-300">Chargement…</p>;
  const { enabled, hour } = digest.data.digest;

  const toggle = (next: boolean) => {
    setStatus({});
    save.mutate(next, {
      onSuccess: () =>
        setStatus({
          success: next ? `Résumé demandé${NNBSP}: le premier arrive demain matin.` : 'Résumé arrêté.',
        }),
      onError: (failure) => setStatus({ error: errorMessage(failure, 'Le réglage n’a pas pu être enregistré.') }),
    });
  };

  return (
    <div className="space-y-2">
      <div className="flex items-start gap-3">
        <input
          id={`${id}-digest`}
          type="checkbox"
          checked={enabled}
          disabled={save.isPending}
          onChange={(event) => toggle(event.target.checked)}
          aria-describedby={`${id}-digest-hint ${id}-digest-status`}
          className="mt-1 size-5 shrink-0 accent-cyan-400"
        />
        <div className="min-w-0">
          <label htmlFor={`${id}-digest`} className="text-sm font-medium text-white">
            Recevoir chaque matin le résumé des alertes de la veille
          </label>
          <p id={`${id}-digest-hint`} className="text-xs text-slate-400">
            Par e-mail, à partir de {hour}
            {NNBSP}h (heure de vos magasins), même quand il n’y a eu aucune alerte{NNBSP}; seulement les magasins que vous voyez.
          </p>
        </div>
      </div>
      <FormStatus id={`${id}-digest-status`} error={status.error} success={status.success} />
    </div>
  );
}
