import type { ApiKey } from '@vigie/contract';
import { Ban } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/dialog';
import { showToast } from '@/components/ui/toast';
import { useNow } from '@/hooks/use-now';
import { errorMessage } from '@/lib/errors';
import { ROLE_LABELS } from '@/lib/permissions';
import { useRevokeApiKey } from '../api/key-queries';
import { isExpired } from '../team-format';

const day = (iso: string) => new Date(iso).toLocaleDateString('fr-FR', { day: 'numeric', month: 'long', year: 'numeric' });

/** The organization's keys: what each may do, when it was last used, and « Révoquer », after a confirmation. */
export function ApiKeyList({ apiKeys }: { apiKeys: ApiKey[] }) {
  const revoke = useRevokeApiKey();
  const [error, setError] = useState<string | null>(null);
  const [asked, setAsked] = useState<ApiKey | null>(null);
  const now = useNow();

  if (apiKeys.length === 0) return <p className="text-sm text-slate-300">Aucune clé d’API.</p>;

  const confirm = () => {
    if (!asked) return;
    const key = asked;
    setError(null);
    revoke.mutate(key.id, {
      onSuccess: () => showToast({ message: `Clé «\u00a0${key.name}\u00a0» révoquée\u202F: elle ne fonctionne plus.` }),
      onError: (failure) => setError(errorMessage(failure, 'La clé d’API n’a pas été révoquée.')),
      onSettled: () => setAsked(null),
    });
  };

  return (
    <div className="space-y-4">
      {error && <Alert onDismiss={() => setError(null)}>{error}</Alert>}
      <ul className="divide-y divide-white/10" aria-label="Clés d’API">
        {apiKeys.map((key) => (
          <li key={key.id} data-testid="api-key" className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0 sm:flex-row sm:items-center">
            <div className="min-w-0 flex-1">
              <p className="font-medium [overflow-wrap:anywhere] text-white">
                {key.name} <code className="ml-1 text-sm text-slate-300">{key.prefix}…</code>
              </p>
              <p className="text-sm text-slate-300">
                {ROLE_LABELS[key.role]} · {key.scope ? 'Quelques magasins' : 'Toute l’organisation'} · créée le {day(key.createdAt)} ·{' '}
                {key.expiresAt ? (
                  <span className={isExpired(key.expiresAt, now) ? 'font-semibold text-amber-200' : undefined}>
                    {isExpired(key.expiresAt, now) ? 'expirée le' : 'jusqu’au'} {day(key.expiresAt)}
                  </span>
                ) : (
                  'sans échéance'
                )}{' '}
                · {key.lastUsedAt ? `utilisée le ${day(key.lastUsedAt)}` : 'jamais utilisée'}
              </p>
            </div>
            <Button
              variant="danger"
              size="sm"
              busy={revoke.isPending && revoke.variables === key.id}
              onClick={() => setAsked(key)}
              aria-label={`Révoquer la clé ${key.name}`}
              icon={<Ban className="size-4" aria-hidden="true" />}
            >
              Révoquer
            </Button>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={asked !== null}
        title="Révoquer cette clé d’API ?"
        confirmLabel="Révoquer"
        busy={revoke.isPending}
        onConfirm={confirm}
        onCancel={() => setAsked(null)}
      >
        Les programmes qui se servent de la clé «{'\u00a0'}
        {asked?.name}
        {'\u00a0'}» seront refusés dès leur prochaine requête. Cela ne peut pas être annulé.
      </ConfirmDialog>
    </div>
  );
}
