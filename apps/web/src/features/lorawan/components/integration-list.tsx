import type { Integration } from '@vigie/contract';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { CopyButton } from '@/components/copy-button';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/dialog';
import { showToast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/errors';
import { formatDateTime } from '@/lib/measure-format';
import { useDeleteIntegration } from '../api/lorawan-mutations';
import { INTEGRATION_TYPE_LABELS } from '../lorawan-format';
import { IntegrationHealthPanel } from './integration-health';

/**
 * The network servers Vigie listens to: their address to paste, when they last sent, their health
 * (to those who may read it) and their deletion.
 */
export function IntegrationList({
  integrations,
  canManage,
  canSeeHealth = false,
}: {
  integrations: Integration[];
  canManage: boolean;
  canSeeHealth?: boolean;
}) {
  const remove = useDeleteIntegration();
  const [confirming, setConfirming] = useState<Integration | null>(null);
  const [error, setError] = useState<string | null>(null);

  if (integrations.length === 0) {
    return (
      <p className="text-sm text-slate-300">
        {canManage
          ? 'Aucune intégration pour l’instant. Créez-en une ci-dessous pour relier votre serveur de réseau (The Things Stack, ChirpStack, ThingPark, Live Objects, Loriot ou Helium).'
          : 'Aucune intégration pour l’instant. Un administrateur ou un responsable peut en créer une.'}
      </p>
    );
  }

  const onConfirm = () => {
    if (!confirming) return;
    const integration = confirming;
    setError(null);
    remove.mutate(integration.id, {
      onSuccess: () => {
        setConfirming(null);
        showToast({ message: `Intégration «\u202F${integration.name}\u202F» supprimée.` });
      },
      onError: (failure) => {
        setConfirming(null);
        setError(errorMessage(failure, 'L’intégration n’a pas été supprimée.'));
      },
    });
  };

  return (
    <div className="space-y-4">
      {error && <Alert onDismiss={() => setError(null)}>{error}</Alert>}
      <ul className="divide-y divide-white/10" aria-label="Intégrations">
        {integrations.map((integration) => (
          <li key={integration.id} data-testid="integration" className="space-y-3 py-4 first:pt-0 last:pb-0">
            <div className="flex flex-wrap items-start justify-between gap-3">
              <div className="min-w-0">
                <h3 className="font-medium [overflow-wrap:anywhere] text-white">{integration.name}</h3>
                <p className="text-sm text-slate-300">
                  {INTEGRATION_TYPE_LABELS[integration.type]} · Dernier message{'\u202F'}:{' '}
                  {integration.lastEventAt ? (
                    <time dateTime={integration.lastEventAt}>{formatDateTime(integration.lastEventAt)}</time>
                  ) : (
                    'Jamais'
                  )}
                </p>
                {integration.mqtt && <MqttState mqtt={integration.mqtt} />}
              </div>
              {canManage && (
                <Button
                  variant="danger"
                  size="sm"
                  onClick={() => setConfirming(integration)}
                  aria-label={`Supprimer l’intégration ${integration.name}`}
                  icon={<Trash2 className="size-4" aria-hidden="true" />}
                >
                  Supprimer
                </Button>
              )}
            </div>
            <div className="flex flex-wrap items-center gap-2">
              <code
                aria-label={`Adresse de l’intégration ${integration.name}`}
                className="min-w-0 flex-1 basis-full rounded-xl border border-white/10 bg-slate-950/70 px-3 py-2 font-mono text-xs [overflow-wrap:anywhere] text-cyan-100 sm:basis-auto"
              >
                {integration.url}
              </code>
              <CopyButton text={integration.url} label="Copier l’adresse" />
            </div>
            {canSeeHealth && <IntegrationHealthPanel integrationId={integration.id} name={integration.name} />}
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={confirming !== null}
        title={`Supprimer l’intégration «\u202F${confirming?.name ?? ''}\u202F»\u202F?`}
        confirmLabel={remove.isPending ? 'Suppression…' : 'Supprimer'}
        busy={remove.isPending}
        onConfirm={onConfirm}
        onCancel={() => setConfirming(null)}
      >
        Vigie n’écoutera plus ce serveur de réseau{'\u202F'}: ses messages seront refusés. Les capteurs déjà ajoutés restent, avec leur
        historique.
      </ConfirmDialog>
    </div>
  );
}

const MQTT_STATES = {
  connecting: { label: 'connexion en cours…', tone: 'text-slate-300' },
  connected: { label: 'connecté', tone: 'text-emerald-300' },
  error: { label: 'erreur', tone: 'text-rose-300' },
} as const;

/** Where Vigie reads an integration's uplinks through MQTT, and how that connection goes. */
function MqttState({ mqtt }: { mqtt: NonNullable<Integration['mqtt']> }) {
  const state = MQTT_STATES[mqtt.state];
  return (
    <p data-testid="integration-mqtt" className="mt-1 text-sm [overflow-wrap:anywhere] text-slate-300">
      MQTT{'\u202F'}: <span className="font-mono text-xs">{mqtt.server}</span> ({mqtt.username}) ·{' '}
      <span className={`font-medium ${state.tone}`}>{state.label}</span>
      {mqtt.error && <span className="block text-rose-200">{mqtt.error}</span>}
    </p>
  );
}
