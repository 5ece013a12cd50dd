import { AlertTriangle, X } from 'lucide-react';
import { useState } from 'react';
import { errorMessage } from '@/lib/errors';
import { useCreateDevice } from '../api/create-device';
import { useDeleteDevice } from '../api/delete-device';
import { useDevices } from '../api/get-devices';
import { DEVICE_KINDS, type DeviceKind } from '../device-kinds';
import { DevicePanel } from './device-panel';
import { DeviceTabs } from './device-tabs';

function useDeviceList(kind: DeviceKind, setError: (message: string | null) => void) {
  const query = useDevices({ kind });
  const create = useCreateDevice({ kind });
  const remove = useDeleteDevice({ kind });

  const onCreate = () => {
    if (create.isPending) return;
    setError(null);
    create.mutate(DEVICE_KINDS[kind].newName, {
      onError: (error) => setError(errorMessage(error, 'Échec de la création')),
    });
  };

  const onDelete = (id: string) => {
    if (remove.isPending) return;
    setError(null);
    remove.mutate(id, {
      onError: (error) => setError(errorMessage(error, 'Échec de la suppression')),
    });
  };

  return {
    devices: query.data,
    loading: query.isPending && query.fetchStatus !== 'idle',
    loadError: query.error,
    onRetry: () => void query.refetch(),
    creating: create.isPending,
    deletingId: remove.isPending ? (remove.variables ?? null) : null,
    onCreate,
    onDelete,
  };
}

/** Transmitters and sensors, both fetched on open, in two tabs. */
export function DeviceDashboard() {
  const [tab, setTab] = useState<DeviceKind>('emitter');
  const [actionError, setActionError] = useState<string | null>(null);
  const emitters = useDeviceList('emitter', setActionError);
  const sensors = useDeviceList('sensor', setActionError);
  const lists = { emitter: emitters, sensor: sensors };
  const active = lists[tab];

  return (
    <div className="space-y-6">
      {actionError && (
        <div
          role="alert"
          className="flex items-start gap-3 rounded-2xl border border-red-400/40 bg-red-500/10 p-4 text-red-100 shadow-lg shadow-red-950/30"
        >
          <AlertTriangle className="mt-0.5 size-5 shrink-0 text-red-300" aria-hidden="true" />
          <p className="flex-1 text-sm [overflow-wrap:anywhere]">{actionError}</p>
          <button
            type="button"
            onClick={() => setActionError(null)}
            aria-label="Fermer le message d'erreur"
            className="-m-1 grid size-8 shrink-0 place-items-center rounded-lg text-red-200 hover:bg-red-400/15"
          >
            <X className="size-4" aria-hidden="true" />
          </button>
        </div>
      )}

      <DeviceTabs
        label="Type d'appareil"
        selected={tab}
        onSelect={setTab}
        tabs={[
          { id: 'emitter', label: DEVICE_KINDS.emitter.labels.tab, count: emitters.devices?.length },
          { id: 'sensor', label: DEVICE_KINDS.sensor.labels.tab, count: sensors.devices?.length },
        ]}
      >
        <DevicePanel key={tab} kind={tab} {...active} />
      </DeviceTabs>
    </div>
  );
}
