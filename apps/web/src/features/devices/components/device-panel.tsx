import { LoaderCircle, Plus, RotateCw } from 'lucide-react';
import { useDeferredValue, useMemo, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { SkeletonGrid } from '@/components/skeleton';
import { DASHBOARD_SKELETON_COUNT } from '@/config/constants';
import { errorMessage } from '@/lib/errors';
import { useNow } from '@/hooks/use-now';
import { formatNumber } from '@/lib/measure-format';
import { usePermissions } from '@/lib/permissions';
import { DEVICE_KINDS, type Device, type DeviceKind } from '../device-kinds';
import { applyView, DEFAULT_VIEW } from '../device-list-view';
import { DEVICE_PRESENTATION } from '../device-presentation';
import { type DeviceAnnotations, DeviceCard } from './device-card';
import { DeviceEmptyState } from './device-empty-state';
import { DeviceGrid } from './device-grid';
import { DeviceListToolbar, TOOLBAR_FROM } from './device-list-toolbar';

type DevicePanelProps = DeviceAnnotations & {
  kind: DeviceKind;
  devices: Device[] | undefined;
  loading: boolean;
  loadError: unknown;
  onRetry: () => void;
  creating: boolean;
  deletingId: string | null;
  onCreate: () => void;
  onDelete: (id: string) => void;
};

/** One list of the dashboard: heading with count, add button, then cards, skeletons or an empty state. */
export function DevicePanel({
  kind,
  devices,
  loading,
  loadError,
  onRetry,
  creating,
  deletingId,
  onCreate,
  onDelete,
  ...annotations
}: DevicePanelProps) {
  const { alertOf } = annotations;
  const { labels, fallbacks } = DEVICE_KINDS[kind];
  const headingId = `${kind}-list-title`;
  // A viewer reads: no add or delete control is offered (the server would refuse it).
  const { manage } = usePermissions();
  const [view, setView] = useState(DEFAULT_VIEW);
  // Typing stays fluid over thousands of devices: the list follows a moment later.
  const deferredView = useDeferredValue(view);
  const now = useNow();
  const searchable = (devices?.length ?? 0) >= TOOLBAR_FROM;
  const shown = useMemo(
    () => (devices && searchable ? applyView(devices, deferredView, { alertOf: alertOf ?? (() => null), now }) : (devices ?? [])),
    [devices, searchable, deferredView, alertOf, now],
  );
  const noun = kind === 'sensor' ? { one: 'capteur', many: 'capteurs' } : { one: 'émetteur', many: 'émetteurs' };

  return (
    <section aria-labelledby={headingId}>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h2 id={headingId} className="text-xl font-semibold text-white">
          {DEVICE_PRESENTATION[kind].plural}
          {devices && <span className="font-normal text-slate-400">{` (${formatNumber(devices.length)})`}</span>}
        </h2>
        {manage && (
          <button
            type="button"
            onClick={onCreate}
            disabled={creating}
            aria-busy={creating || undefined}
            className="inline-flex items-center gap-2 rounded-xl bg-cyan-400 px-4 py-2.5 text-sm font-semibold text-slate-950 shadow-lg shadow-cyan-500/20 transition hover:bg-cyan-300 disabled:cursor-wait disabled:bg-cyan-400/70"
          >
            {creating ? (
              <LoaderCircle className="size-4 animate-spin" aria-hidden="true" />
            ) : (
              <Plus className="size-4" aria-hidden="true" />
            )}
            {creating ? 'Création...' : labels.add}
          </button>
        )}
      </div>

      <div className="mt-6">
        {loading ? (
          <SkeletonGrid count={DASHBOARD_SKELETON_COUNT} label={labels.loading} />
        ) : loadError && !devices ? (
          <Alert
            action={
              <button
                type="button"
                onClick={onRetry}
                className="inline-flex items-center gap-2 rounded-lg border border-red-300/40 px-3 py-1.5 text-sm font-medium text-red-100 hover:bg-red-400/10"
              >
                <RotateCw className="size-4" aria-hidden="true" />
                Réessayer
              </button>
            }
          >
            <p>{errorMessage(loadError, fallbacks.list)}</p>
          </Alert>
        ) : devices && devices.length > 0 ? (
          <>
            {searchable && <DeviceListToolbar view={view} onChange={setView} shown={shown.length} total={devices.length} noun={noun} />}
            {shown.length > 0 ? (
              <DeviceGrid
                devices={shown}
                label={DEVICE_PRESENTATION[kind].plural}
                renderCard={(device) => (
                  <DeviceCard
                    key={device.id}
                    kind={kind}
                    device={device}
                    deleting={deletingId === device.id}
                    deleteDisabled={deletingId !== null}
                    onDelete={manage ? onDelete : null}
                    {...annotations}
                  />
                )}
              />
            ) : (
              <p className="rounded-2xl border border-white/10 bg-slate-900/60 p-6 text-slate-300">
                {`Aucun ${noun.one} ne correspond à cette recherche.`}
              </p>
            )}
          </>
        ) : (
          <DeviceEmptyState kind={kind} creating={creating} onAdd={manage ? onCreate : null} />
        )}
      </div>
    </section>
  );
}
