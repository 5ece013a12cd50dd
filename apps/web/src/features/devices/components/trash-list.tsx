import type { TrashedDevice } from '@vigie/contract';
import { LoaderCircle, RotateCcw, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { showToast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/errors';
import { usePermissions } from '@/lib/permissions';
import { useTrash } from '../api/get-trash';
import { useRestoreDevice } from '../api/restore-device';
import { deviceDisplayName } from '../device-kinds';
import { DEVICE_PRESENTATION } from '../device-presentation';
import { formatDate, formatDateTime } from '@/lib/measure-format';
import { LOAD_ERROR, UNNAMED } from '@/lib/fallback-text';

function TrashItem({
  device,
  restoring,
  disabled,
  onRestore,
}: {
  device: TrashedDevice;
  restoring: boolean;
  disabled: boolean;
  /** null: no restore button (a viewer). */
  onRestore: (() => void) | null;
}) {
  const { icon: Icon, tone, singular } = DEVICE_PRESENTATION[device.kind];
  const name = deviceDisplayName(device);
  return (
    <li
      data-testid="trashed-device"
      className="flex flex-col gap-4 rounded-2xl border border-white/10 bg-slate-900/60 p-5 shadow-lg shadow-black/20 backdrop-blur sm:flex-row sm:items-center"
    >
      <div className="flex min-w-0 flex-1 items-start gap-4">
        <span className={`grid size-11 shrink-0 place-items-center rounded-xl bg-gradient-to-br ${tone}`}>
          <Icon className="size-5" aria-hidden="true" />
        </span>
        <div className="min-w-0">
          <h2 className="font-semibold [overflow-wrap:anywhere] text-white" lang={name === UNNAMED ? 'en' : undefined}>
            {name}
          </h2>
          <p className="mt-0.5 text-sm text-slate-300">{singular}</p>
          <dl className="mt-2 space-y-0.5 text-sm text-slate-400">
            <div>
              <dt className="inline">Supprimé le </dt>
              <dd className="inline">
                <time dateTime={device.deletedAt}>{formatDateTime(device.deletedAt)}</time>
              </dd>
            </div>
            <div>
              <dt className="inline">Supprimé définitivement le </dt>
              <dd className="inline text-amber-100">
                <time dateTime={device.purgeAt}>{formatDate(device.purgeAt)}</time>
              </dd>
            </div>
          </dl>
        </div>
      </div>
      {onRestore && (
        <Button
          variant="secondary"
          busy={restoring}
          disabled={disabled}
          onClick={onRestore}
          icon={<RotateCcw className="size-4" aria-hidden="true" />}
          aria-label={`Restaurer ${name}`}
          className="self-start sm:self-center"
        >
          Restaurer
        </Button>
      )}
    </li>
  );
}

/** The devices in the trash, each restorable until its erasure date. */
export function TrashList() {
  const trash = useTrash();
  const restore = useRestoreDevice();
  const [error, setError] = useState<string | null>(null);
  const { manage } = usePermissions();

  if (trash.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-slate-300">
        <LoaderCircle className="size-4 animate-spin motion-reduce:animate-none" aria-hidden="true" />
        Chargement de la corbeille…
      </p>
    );
  }
  if (trash.isError) return <Alert>{errorMessage(trash.error, LOAD_ERROR)}</Alert>;

  const onRestore = (device: TrashedDevice) => {
    setError(null);
    restore.mutate(
      { kind: device.kind, id: device.id },
      {
        onSuccess: () => showToast({ message: `${DEVICE_PRESENTATION[device.kind].singular} restauré` }),
        onError: (cause) => setError(errorMessage(cause, 'Échec de la restauration')),
      },
    );
  };

  return (
    <div className="space-y-6">
      {error && <Alert onDismiss={() => setError(null)}>{error}</Alert>}
      {trash.data.length === 0 ? (
        <div className="flex flex-col items-center rounded-3xl border border-dashed border-white/15 bg-slate-900/40 px-4 py-12 text-center sm:px-6">
          <span className="grid size-14 place-items-center rounded-2xl bg-gradient-to-br from-cyan-400/20 to-violet-500/20 text-cyan-200">
            <Trash2 className="size-7" aria-hidden="true" />
          </span>
          <h2 className="mt-5 text-lg font-semibold text-white">La corbeille est vide</h2>
          <p className="mt-2 max-w-md text-sm leading-relaxed text-slate-300">
            Un appareil supprimé arrive ici&#8239;; vous pouvez le restaurer avec son historique jusqu’à son effacement définitif.
          </p>
        </div>
      ) : (
        <ul className="space-y-4" aria-label="Appareils supprimés">
          {trash.data.map((device) => (
            <TrashItem
              key={device.id}
              device={device}
              restoring={restore.isPending && restore.variables.id === device.id}
              disabled={restore.isPending}
              onRestore={manage ? () => onRestore(device) : null}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
