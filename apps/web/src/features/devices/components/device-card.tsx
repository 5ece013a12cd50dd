import { AlertTriangle, LoaderCircle, Trash2 } from 'lucide-react';
import { Link } from 'react-router';
import { DEVICE_KINDS, deviceDisplayName, type Device, type DeviceKind } from '../device-kinds';
import { deviceDetailPath } from '../device-paths';
import { DEVICE_PRESENTATION } from '../device-presentation';
import { DeviceLiveSummary } from './device-live-summary';

/** What other parts of the app say about a device: its shop, and whether it is in alert. */
export type DeviceAnnotations = {
  siteName?: (siteId: string) => string | null;
  /** The severity of the device's worst active alert, if any. */
  alertOf?: (deviceId: string) => 'critical' | 'warning' | null;
};

type DeviceCardProps = DeviceAnnotations & {
  kind: DeviceKind;
  device: Device;
  deleting: boolean;
  deleteDisabled: boolean;
  /** null: no delete button (a viewer). */
  onDelete: ((id: string) => void) | null;
};

export function DeviceCard({ kind, device, deleting, deleteDisabled, onDelete, siteName, alertOf }: DeviceCardProps) {
  const name = deviceDisplayName(device);
  const named = name !== 'Unnamed';
  const { icon: Icon, tone } = DEVICE_PRESENTATION[kind];
  const alert = alertOf?.(device.id) ?? null;
  const site = device.siteId ? (siteName?.(device.siteId) ?? null) : null;
  const frame = alert
    ? alert === 'critical'
      ? 'border-red-400/80 bg-red-950/60 ring-2 ring-red-500/60 hover:bg-red-950/80'
      : 'border-amber-300/70 bg-amber-950/40 ring-2 ring-amber-400/50 hover:bg-amber-950/60'
    : 'border-white/10 bg-slate-900/60 hover:border-white/20 hover:bg-slate-900/80';

  return (
    <li
      data-testid="device-card"
      data-alert={alert ?? undefined}
      className={`group relative flex items-start gap-4 rounded-2xl border p-5 shadow-lg shadow-black/20 backdrop-blur transition ${frame}`}
    >
      <span className={`grid size-11 shrink-0 place-items-center rounded-xl bg-gradient-to-br ${tone}`}>
        <Icon className="size-5" aria-hidden="true" />
      </span>
      <div className="min-w-0 flex-1 pt-0.5">
        <h3 className="line-clamp-2 font-semibold [overflow-wrap:anywhere] text-white" lang={named ? undefined : 'en'}>
          {/* The whole card opens the detail page; the delete button sits above the link. */}
          <Link to={deviceDetailPath(kind, device.id)} className="after:absolute after:inset-0 after:rounded-2xl after:content-['']">
            {name}
          </Link>
        </h3>
        <p lang="en" className="mt-1 text-sm text-slate-400">
          {DEVICE_KINDS[kind].description}
        </p>
        {(alert || site) && (
          <p className="mt-2 flex flex-wrap items-center gap-2 text-xs">
            {alert && (
              <span
                className={`inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 font-bold uppercase tracking-wide ${
                  alert === 'critical' ? 'bg-red-500 text-white' : 'bg-amber-300 text-slate-950'
                }`}
              >
                <AlertTriangle className="size-3.5" aria-hidden="true" />
                En alerte
              </span>
            )}
            {site && <span className="text-slate-300">{site}</span>}
          </p>
        )}
        <DeviceLiveSummary device={device} inAlert={alert !== null} />
      </div>
      {onDelete && (
        <button
          type="button"
          onClick={() => onDelete(device.id)}
          disabled={deleteDisabled}
          aria-busy={deleting || undefined}
          aria-label={`Supprimer ${name}`}
          className="relative z-10 grid size-10 shrink-0 place-items-center rounded-lg text-slate-400 transition-colors hover:bg-red-500/15 hover:text-red-300 disabled:cursor-not-allowed disabled:opacity-50 disabled:hover:bg-transparent disabled:hover:text-slate-400"
        >
          {deleting ? (
            <LoaderCircle className="size-5 animate-spin text-red-300" aria-hidden="true" />
          ) : (
            <Trash2 className="size-5" aria-hidden="true" />
          )}
        </button>
      )}
    </li>
  );
}
