import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { showToast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/errors';
import { useCreateDevice } from '../api/create-device';
import { useDeleteDevice } from '../api/delete-device';
import { useDevices } from '../api/get-devices';
import { useRestoreDevice } from '../api/restore-device';
import { DEVICE_PRESENTATION } from '../device-presentation';
import { DEVICE_KINDS, type DeviceKind } from '../device-kinds';
import { DevicePanel } from './device-panel';
import { DeviceTabs } from './device-tabs';

function useDeviceList(kind: DeviceKind, setError: (message: string | null) => void) {
  const query = useDevices({ kind });
  const create = useCreateDevice({ kind });
  const remove = useDeleteDevice({ kind });
  const restore = useRestoreDevice();

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
      // The device went to the trash: it can come back from here for a while.
      onSuccess: () =>
        showToast({
          message: `${DEVICE_PRESENTATION[kind].singular} supprimé`,
          action: {
            label: 'Annuler',
            onClick: () => {
              setError(null);
              restore.mutate({ kind, id }, { onError: (error) => setError(errorMessage(error, 'Échec de la restauration')) });
            },
          },
        }),
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
        <Alert onDismiss={() => setActionError(null)}>
          <p>{actionError}</p>
        </Alert>
      )}

      <DeviceTabs
        label="Type d’appareil"
        selected={tab}
        onSelect={setTab}
        tabs={[
          { id: 'emitter', label: DEVICE_PRESENTATION.emitter.plural, count: emitters.devices?.length },
          { id: 'sensor', label: DEVICE_PRESENTATION.sensor.plural, count: sensors.devices?.length },
        ]}
      >
        <DevicePanel key={tab} kind={tab} {...active} />
      </DeviceTabs>
    </div>
  );
}
