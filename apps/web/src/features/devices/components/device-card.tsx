import { AlertTriangle, LoaderCircle, PauseCircle, Trash2, TrendingUp } from 'lucide-react';
import { Link } from 'react-router';
import type { CameFromState } from '@/lib/came-from';
import { DEVICE_KINDS, deviceDisplayName, type Device, type DeviceKind } from '../device-kinds';
import { deviceDetailPath } from '../device-paths';
import { DEVICE_PRESENTATION } from '../device-presentation';
import { SENSOR_USES, sensorUse } from '../sensor-use';
import { mainMeasureKey } from '@/lib/measure-format';
import { CardSparkline } from './card-sparkline';
import { DeviceLiveSummary } from './device-live-summary';
import { UNNAMED } from '@/lib/fallback-text';

/** What other parts of the app say about a device: its shop, and whether it is in alert. */
export type DeviceAnnotations = {
  siteName?: (siteId: string) => string | null;
  /** The severity of the device's worst active alert, if any. */
  alertOf?: (deviceId: string) => 'critical' | 'warning' | null;
  /**
   * The device's active « dépassement prévu », labelled as a forecast (« prévu : +8 °C vers 14 h 10 »),
   * and whether it is its only alert (nothing measured beyond a limit).
   */
  forecastOf?: (deviceId: string) => { label: string; only: boolean } | null;
  /** What the link to the device's page carries: the page showing the card, for its way back. */
  detailLinkState?: CameFromState;
  /** The limit a sensor is held to, in words (« ≤ +4,0 °C ») on its measure, with the lines its curve draws. */
  limitOf?: (device: Device) => { key: string; words: string; limits: number[] } | null;
  /** « En pause jusqu’à 14 h 30 » while the sensor or its shop is paused. */
  pauseOf?: (device: Device) => string | null;
};

type DeviceCardProps = DeviceAnnotations & {
  kind: DeviceKind;
  device: Device;
  deleting: boolean;
  deleteDisabled: boolean;
  /** null: no delete button (a viewer). */
  onDelete: ((id: string) => void) | null;
};

export function DeviceCard({
  kind,
  device,
  deleting,
  deleteDisabled,
  onDelete,
  siteName,
  alertOf,
  forecastOf,
  detailLinkState,
  limitOf,
  pauseOf,
}: DeviceCardProps) {
  const name = deviceDisplayName(device);
  const named = name !== UNNAMED;
  const limit = kind === 'sensor' ? (limitOf?.(device) ?? null) : null;
  const pause = kind === 'sensor' ? (pauseOf?.(device) ?? null) : null;
  // A sensor's icon says what it watches: a fridge, a freezer, a door, a counter, the air.
  const use = kind === 'sensor' ? sensorUse(device, limit?.key === 'temperature' ? Math.max(...limit.limits) : undefined) : null;
  const { icon: Icon, tone } = use ? SENSOR_USES[use] : DEVICE_PRESENTATION[kind];
  // The curve of the main measure, unless it is a door's open or closed.
  const measure = kind === 'sensor' ? mainMeasureKey(device.latest ?? {}) : null;
  const curve = measure && measure !== 'open' && measure !== 'door' && measure !== 'rssi' && measure !== 'battery' ? measure : null;
  const alert = alertOf?.(device.id) ?? null;
  const forecast = alert ? (forecastOf?.(device.id) ?? null) : null;
  // Only a forecast: the reading stays in its usual colour, it is not beyond the limit.
  const measuredAlert = alert !== null && !forecast?.only;
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
      <span className={`grid size-11 shrink-0 place-items-center rounded-xl bg-gradient-to-br ${tone}`} data-use={use ?? undefined}>
        <Icon className="size-5" aria-hidden="true" />
      </span>
      <div className="min-w-0 flex-1 pt-0.5">
        <h3 className="line-clamp-2 font-semibold [overflow-wrap:anywhere] text-white" lang={named ? undefined : 'en'}>
          {/* The whole card opens the detail page; the delete button sits above the link. */}
          <Link
            to={deviceDetailPath(kind, device.id)}
            state={detailLinkState}
            className="after:absolute after:inset-0 after:rounded-2xl after:content-['']"
          >
            {name}
          </Link>
        </h3>
        <p lang="en" className="mt-1 text-sm text-slate-400">
          {DEVICE_KINDS[kind].description}
        </p>
        {(alert || site || use) && (
          <p className="mt-2 flex flex-wrap items-center gap-2 text-xs">
            {alert && (
              <span
                className={`inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 font-bold uppercase tracking-wide ${
                  alert === 'critical' ? 'bg-red-500 text-white' : 'bg-amber-300 text-slate-950'
                }`}
              >
                <AlertTriangle className="size-3.5" aria-hidden="true" />
                {measuredAlert ? 'En alerte' : 'Dépassement prévu'}
              </span>
            )}
            {use && use !== 'other' && (
              <span className="rounded-md bg-slate-500/10 px-1.5 py-0.5 text-slate-300">{SENSOR_USES[use].label}</span>
            )}
            {site && <span className="text-slate-300">{site}</span>}
          </p>
        )}
        {pause && (
          <p
            data-testid="device-pause"
            className="mt-2 inline-flex items-center gap-1 rounded-md bg-slate-500/15 px-2 py-0.5 text-xs font-medium text-slate-200"
          >
            <PauseCircle className="size-3.5 shrink-0" aria-hidden="true" />
            {pause}
          </p>
        )}
        <DeviceLiveSummary device={device} inAlert={measuredAlert} />
        {limit && (
          <p data-testid="device-limit" className="mt-1 text-xs text-slate-400">
            {`Limite${'\u202F'}: ${limit.words}`}
          </p>
        )}
        {curve && (
          <CardSparkline sensorId={device.id} measure={curve} limits={limit?.key === curve ? limit.limits : []} inAlert={measuredAlert} />
        )}
        {forecast && (
          <p data-testid="device-forecast" className="mt-2 flex items-center gap-1 text-sm font-medium text-violet-200">
            <TrendingUp className="size-3.5 shrink-0" aria-hidden="true" />
            {forecast.label}
          </p>
        )}
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
