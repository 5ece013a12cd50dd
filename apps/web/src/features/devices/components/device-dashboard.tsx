import { useId, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { showToast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/errors';
import { useCreateDevice } from '../api/create-device';
import { useDeleteDevice } from '../api/delete-device';
import { useDevices } from '../api/get-devices';
import { useRestoreDevice } from '../api/restore-device';
import { DEVICE_PRESENTATION } from '../device-presentation';
import { DEVICE_KINDS, type DeviceKind } from '../device-kinds';
import type { DeviceAnnotations } from './device-card';
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

/**
 * Transmitters and sensors, both fetched on open, in two tabs. With several sites, a filter keeps
 * one shop's devices (every site by default, so the counts are the whole organization's).
 */
export function DeviceDashboard({
  sites = [],
  initialSiteId = '',
  ...annotations
}: DeviceAnnotations & {
  sites?: { id: string; name: string }[];
  /** The shop chosen on arrival (« Réseau » opens one). */ initialSiteId?: string;
}) {
  const [tab, setTab] = useState<DeviceKind>('emitter');
  const [siteId, setSiteId] = useState(initialSiteId);
  const [actionError, setActionError] = useState<string | null>(null);
  const siteFieldId = useId();
  const emitters = useDeviceList('emitter', setActionError);
  const sensors = useDeviceList('sensor', setActionError);
  const inSite = <T extends { devices: { siteId?: string }[] | undefined }>(list: T): T =>
    siteId && list.devices ? { ...list, devices: list.devices.filter((device) => device.siteId === siteId) } : list;
  const lists = { emitter: inSite(emitters), sensor: inSite(sensors) };
  const active = lists[tab];

  return (
    <div className="space-y-6">
      {sites.length > 1 && (
        <div className="flex flex-wrap items-center gap-3">
          <label htmlFor={siteFieldId} className="text-sm font-medium text-slate-200">
            Site
          </label>
          <select
            id={siteFieldId}
            value={siteId}
            onChange={(event) => setSiteId(event.target.value)}
            className="rounded-xl border border-white/15 bg-slate-950/70 px-3 py-2 text-sm text-white focus:border-cyan-300/60"
          >
            <option value="">Tous les sites</option>
            {sites.map((site) => (
              <option key={site.id} value={site.id}>
                {site.name}
              </option>
            ))}
          </select>
        </div>
      )}
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
          { id: 'emitter', label: DEVICE_PRESENTATION.emitter.plural, count: lists.emitter.devices?.length },
          { id: 'sensor', label: DEVICE_PRESENTATION.sensor.plural, count: lists.sensor.devices?.length },
        ]}
      >
        <DevicePanel key={tab} kind={tab} {...active} {...annotations} />
      </DeviceTabs>
    </div>
  );
}
