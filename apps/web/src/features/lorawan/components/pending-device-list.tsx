import type { Codec, Integration, PendingLorawanDevice, Sensor, Site } from '@vigie/contract';
import { Plus, X } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { showToast } from '@/components/ui/toast';
import { useNow } from '@/hooks/use-now';
import { errorMessage } from '@/lib/errors';
import { formatAge, formatDateTime } from '@/lib/measure-format';
import { useDismissPending } from '../api/lorawan-mutations';
import { formatDevEui, pendingModelText, seenText } from '../lorawan-format';
import { AdoptDialog } from './adopt-dialog';

type PendingDeviceListProps = {
  devices: PendingLorawanDevice[];
  codecs: Codec[];
  sites: Site[];
  integrations: Integration[];
  canManage: boolean;
  /** Opens an adopted sensor's page (the toast's « Voir »). */
  onOpenSensor: (sensor: Sensor) => void;
};

/** Unknown DevEUIs a network server sent frames of: adopted in two clicks when the suggestion is right, or set aside. */
export function PendingDeviceList({ devices, codecs, sites, integrations, canManage, onOpenSensor }: PendingDeviceListProps) {
  const dismiss = useDismissPending();
  const [adopting, setAdopting] = useState<PendingLorawanDevice | null>(null);
  const [error, setError] = useState<string | null>(null);
  const now = useNow(10_000);
  const integrationName = new Map(integrations.map((integration) => [integration.id, integration.name]));

  const onDismiss = (device: PendingLorawanDevice) => {
    setError(null);
    dismiss.mutate(device.devEui, {
      onSuccess: () => showToast({ message: `Appareil ${formatDevEui(device.devEui)} écarté\u202F: il reviendra s’il émet encore.` }),
      onError: (failure) => setError(errorMessage(failure, 'L’appareil n’a pas été écarté.')),
    });
  };

  const onAdopted = (sensor: Sensor) => {
    setAdopting(null);
    showToast({
      message: `Capteur «\u202F${sensor.name}\u202F» ajouté\u202F: sa trame reçue en attente est enregistrée, les suivantes le seront aussi.`,
      action: { label: 'Voir', onClick: () => onOpenSensor(sensor) },
    });
  };

  return (
    <div className="space-y-4">
      {error && <Alert onDismiss={() => setError(null)}>{error}</Alert>}
      {devices.length === 0 ? (
        <p className="text-sm text-slate-300">
          Aucun nouvel appareil détecté pour l’instant. Allumez un capteur à portée d’une de vos passerelles{'\u202F'}: il apparaîtra ici.
        </p>
      ) : (
        <ul className="divide-y divide-white/10" aria-label="Nouveaux appareils détectés">
          {devices.map((device) => {
            const formatted = formatDevEui(device.devEui);
            const model = pendingModelText(
              device,
              codecs.find((codec) => codec.id === device.suggestedCodec),
            );
            const via = integrationName.get(device.integrationId);
            const busy = dismiss.isPending && dismiss.variables === device.devEui;
            return (
              <li
                key={device.devEui}
                data-testid="pending-device"
                className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0 sm:flex-row sm:items-center"
              >
                <div className="min-w-0 flex-1">
                  <p className="font-mono font-semibold [overflow-wrap:anywhere] text-white">{formatted}</p>
                  <p className="text-sm [overflow-wrap:anywhere] text-slate-200">{model ?? 'Modèle inconnu'}</p>
                  <p className="text-sm text-slate-400">
                    {seenText(device.uplinks)}, dernière trame{' '}
                    <time dateTime={device.lastSeenAt} title={formatDateTime(device.lastSeenAt)}>
                      {formatAge(device.lastSeenAt, now)}
                    </time>
                    {via && <span className="[overflow-wrap:anywhere]"> · via {via}</span>}
                  </p>
                </div>
                {canManage && (
                  <div className="flex flex-wrap items-center gap-2">
                    <Button
                      variant="primary"
                      size="sm"
                      onClick={() => setAdopting(device)}
                      aria-label={`Adopter l’appareil ${formatted}`}
                      icon={<Plus className="size-4" aria-hidden="true" />}
                    >
                      Adopter
                    </Button>
                    <Button
                      variant="ghost"
                      size="sm"
                      busy={busy}
                      onClick={() => onDismiss(device)}
                      aria-label={`Écarter l’appareil ${formatted}`}
                      icon={<X className="size-4" aria-hidden="true" />}
                    >
                      Écarter
                    </Button>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {canManage && <AdoptDialog device={adopting} codecs={codecs} sites={sites} onClose={() => setAdopting(null)} onAdopted={onAdopted} />}
    </div>
  );
}
