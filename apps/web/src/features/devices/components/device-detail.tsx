import { Trash2 } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '@/components/ui/dialog';
import { FormStatus } from '@/components/ui/form-status';
import { showToast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/errors';
import { usePermissions } from '@/lib/permissions';
import { useDeleteDevice } from '../api/delete-device';
import { useRestoreDevice } from '../api/restore-device';
import { deviceDisplayName, type Device, type DeviceKind } from '../device-kinds';
import { DEVICE_PRESENTATION } from '../device-presentation';
import { formatAge, formatDateTime, formatMeasure, measureLabel } from '@/lib/measure-format';
import { useDeviceStatus } from '../use-device-status';
import { BatteryLevel } from './battery-level';
import { DetailSection } from '@/components/ui/section';
import { DeviceStatusBadge } from './device-status-badge';
import { OfflineDelayForm } from './offline-delay-form';
import { type ChartAnnotations, ReadingsChart } from './readings-chart';
import { ReadingsExport } from './readings-export';
import { RenameForm } from './rename-form';
import { TokenRotation } from './token-rotation';
import { UNNAMED } from '@/lib/fallback-text';

type DeviceDetailProps = {
  kind: DeviceKind;
  device: Device;
  annotations?: ChartAnnotations;
  /** Shown right after the history chart (a sensor's predictive analysis). */
  afterHistory?: ReactNode;
  /** Shown right under the header, before anything else (a sensor's pause: what holds its notifications now). */
  underHeader?: ReactNode;
};

/** Everything about one device: live state, history, settings and its token. */
export function DeviceDetail({ kind, device, annotations, afterHistory, underHeader }: DeviceDetailProps) {
  const { status, now } = useDeviceStatus(device);
  const navigate = useNavigate();
  const remove = useDeleteDevice({ kind });
  const restore = useRestoreDevice();
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  // Settings, token and deletion are for admins and managers; a viewer reads the rest.
  const { manage } = usePermissions();
  const name = deviceDisplayName(device);
  const presentation = DEVICE_PRESENTATION[kind];
  const Icon = presentation.icon;
  const entries = Object.entries(device.latest ?? {}).sort(([a], [b]) => a.localeCompare(b));

  const onDelete = () =>
    remove.mutate(device.id, {
      onSuccess: () => {
        void navigate('/dashboard', { replace: true });
        // The toast outlives this page: « Annuler » brings the device back from the dashboard.
        showToast({
          message: `${presentation.singular} supprimé`,
          action: {
            label: 'Annuler',
            onClick: () =>
              void restore
                .mutateAsync({ kind, id: device.id })
                .catch((error: unknown) => showToast({ message: errorMessage(error, 'Échec de la restauration') })),
          },
        });
      },
      onError: () => setConfirmingDelete(false),
    });

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start gap-4">
        <span className={`grid size-14 shrink-0 place-items-center rounded-2xl bg-gradient-to-br ${presentation.tone}`}>
          <Icon className="size-7" aria-hidden="true" />
        </span>
        <div className="min-w-0 flex-1">
          <h1
            className="text-2xl font-bold tracking-tight [overflow-wrap:anywhere] text-white sm:text-3xl"
            lang={name === UNNAMED ? 'en' : undefined}
          >
            {name}
          </h1>
          <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-300">
            <span>{presentation.singular}</span>
            <DeviceStatusBadge status={status} className="text-sm" />
            {device.battery !== null && device.battery !== undefined && <BatteryLevel percent={device.battery} />}
          </p>
        </div>
      </div>
      {underHeader}

      <div className="grid gap-6 lg:grid-cols-3">
        <DetailSection id="state-title" title="État">
          <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm">
            <dt className="text-slate-400">Dernier contact</dt>
            <dd className="text-slate-100">
              {device.lastSeenAt ? (
                <time dateTime={device.lastSeenAt} title={formatDateTime(device.lastSeenAt)}>
                  {`${formatAge(device.lastSeenAt, now)} (${formatDateTime(device.lastSeenAt)})`}
                </time>
              ) : (
                'Jamais'
              )}
            </dd>
            <dt className="text-slate-400">Numéro de série</dt>
            <dd className="font-mono [overflow-wrap:anywhere] text-slate-100">{device.serial ?? '—'}</dd>
            <dt className="text-slate-400">Modèle</dt>
            <dd className="[overflow-wrap:anywhere] text-slate-100">{device.model ?? '—'}</dd>
            <dt className="text-slate-400">Ajouté le</dt>
            <dd className="text-slate-100">{formatDateTime(device.createdAt)}</dd>
          </dl>
        </DetailSection>

        <div className="lg:col-span-2">
          <DetailSection id="latest-title" title="Dernières valeurs">
            {entries.length === 0 ? (
              <p className="text-sm text-slate-300">
                {manage
                  ? 'Aucune mesure reçue pour l’instant. Configurez l’appareil avec son jeton ci-dessous.'
                  : 'Aucune mesure reçue pour l’instant.'}
              </p>
            ) : (
              <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3">
                {entries.map(([key, latest]) => (
                  <li key={key} data-testid="latest-value" className="rounded-xl border border-white/5 bg-slate-950/50 p-3">
                    <p className="text-xs text-slate-400">{measureLabel(key)}</p>
                    <p className="mt-1 text-lg font-semibold tabular-nums text-white">{formatMeasure(key, latest.value)}</p>
                    <time dateTime={latest.ts} title={formatDateTime(latest.ts)} className="text-xs text-slate-400">
                      {formatAge(latest.ts, now)}
                    </time>
                  </li>
                ))}
              </ul>
            )}
          </DetailSection>
        </div>
      </div>

      {kind === 'sensor' && (
        <>
          <DetailSection id="history-title" title="Historique">
            <ReadingsChart
              kind={kind}
              deviceId={device.id}
              keys={Object.keys(device.latest ?? {})}
              {...(annotations ? { annotations } : {})}
            />
          </DetailSection>
          {afterHistory}
          <DetailSection
            id="export-title"
            title="Exporter les mesures"
            description={'Toutes les mesures de la période, pour un tableur (séparateur «\u202F;\u00A0», virgule décimale).'}
          >
            <ReadingsExport kind={kind} deviceId={device.id} />
          </DetailSection>
        </>
      )}

      {manage && (
        <>
          <div className="grid gap-6 lg:grid-cols-2">
            <DetailSection id="settings-title" title="Réglages">
              <div className="space-y-5">
                <RenameForm key={`name-${device.name}`} kind={kind} device={device} />
                <div>
                  <h3 className="text-sm font-semibold text-white">Délai avant «&#8239;Hors ligne&#8239;»</h3>
                  <p className="mb-2 mt-1 text-sm text-slate-400">
                    Sans nouvelle de l’appareil pendant ce délai, il est affiché hors ligne.
                  </p>
                  <OfflineDelayForm kind={kind} device={device} />
                </div>
              </div>
            </DetailSection>
            <DetailSection
              id="token-title"
              title="Jeton de l’appareil"
              description="L’appareil s’identifie avec ce jeton. En générer un nouveau révoque l’ancien."
            >
              <TokenRotation kind={kind} deviceId={device.id} />
            </DetailSection>
          </div>

          <DetailSection
            id="danger-title"
            title="Supprimer l’appareil"
            description="Il part dans la corbeille avec ses mesures, restaurable pendant un temps."
          >
            <button
              type="button"
              onClick={() => setConfirmingDelete(true)}
              className="inline-flex items-center gap-2 rounded-xl border border-red-400/40 px-4 py-2.5 text-sm font-medium text-red-100 hover:bg-red-500/15"
            >
              <Trash2 className="size-4" aria-hidden="true" />
              {`Supprimer ${name}`}
            </button>
            <FormStatus className="mt-3" error={remove.isError && errorMessage(remove.error, 'Échec de la suppression')} />
          </DetailSection>

          <ConfirmDialog
            open={confirmingDelete}
            title={`Supprimer ${name}\u202F?`}
            confirmLabel={remove.isPending ? 'Suppression…' : 'Supprimer'}
            busy={remove.isPending}
            onConfirm={onDelete}
            onCancel={() => setConfirmingDelete(false)}
          >
            {`${presentation.singular} et son historique iront dans la corbeille, d’où vous pourrez les restaurer jusqu’à leur effacement définitif.`}
          </ConfirmDialog>
        </>
      )}
    </div>
  );
}
