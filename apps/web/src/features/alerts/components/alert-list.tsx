import type { Alert, DeviceKind, Severity, Site } from '@vigie/contract';
import { BellRing, ChevronRight, LoaderCircle } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { ForecastLabel } from '@/components/forecast-label';
import { Alert as ErrorAlert } from '@/components/ui/alert';
import { useNow } from '@/hooks/use-now';
import { errorMessage } from '@/lib/errors';
import { formatDateTime } from '@/lib/measure-format';
import { useAlerts } from '../api/get-alerts';
import type { AlertListFilter } from '../alert-keys';
import { alertCount, formatDuration, SEVERITY_LABELS } from '../alert-format';
import { alertValue, isPredicted, readingBeyond, type SensorReading } from './alert-value';
import { planAlertLabel } from '../plan-alert';
import { AlertStatusBadge, PredictedBadge, SeverityBadge } from './severity-badge';
import { LOAD_ERROR } from '@/lib/fallback-text';

const STATUS_FILTERS = [
  { value: 'active', label: 'En cours' },
  { value: 'open', label: 'À traiter' },
  { value: 'resolved', label: 'Résolues' },
  { value: 'all', label: 'Toutes' },
] as const;
type StatusFilter = (typeof STATUS_FILTERS)[number]['value'];

const CAPTIONS: Record<StatusFilter, (count: number) => string> = {
  active: () => 'en cours',
  open: () => 'à traiter',
  resolved: (count) => (count > 1 ? 'résolues' : 'résolue'),
  all: () => 'au total',
};

const ORDER: Record<Alert['status'], number> = { open: 0, acknowledged: 1, resolved: 2 };

const selectClass =
  'w-full rounded-xl border border-white/15 bg-slate-950/70 px-3 py-2.5 text-sm text-white focus:border-cyan-300/60 sm:w-auto';

/**
 * The « Alertes » page: active first (to act on, then acknowledged), newest first within each;
 * filters by status, site and severity. Made for a phone first.
 */
export function AlertList({
  sites,
  sensorName,
  readingOf,
}: {
  sites: Site[];
  /** The name of a sensor, or of a transmitter (`kind`), for the reader (the alerts only carry its id). */
  sensorName: (sensorId: string, kind?: DeviceKind) => string;
  /** A sensor's latest reading of a measure: the value a « dépassement prévu » shows, beside its forecast. */
  readingOf?: (sensorId: string, key: string) => SensorReading | null;
}) {
  const [status, setStatus] = useState<StatusFilter>('active');
  const [siteId, setSiteId] = useState('');
  const [severity, setSeverity] = useState<'' | Severity>('');
  const filter: AlertListFilter = { ...(status === 'all' ? {} : { status }), ...(siteId ? { siteId } : {}) };
  const query = useAlerts({ filter });
  const now = useNow(30_000);
  const siteFieldId = useId();
  const severityFieldId = useId();
  const siteName = (id: string | null) => sites.find((site) => site.id === id)?.name ?? null;
  const timeZone = (id: string | null) => sites.find((site) => site.id === id)?.timezone;
  const alerts = (query.data ?? [])
    .filter((alert) => !severity || alert.severity === severity)
    .sort((a, b) => ORDER[a.status] - ORDER[b.status] || Date.parse(b.openedAt) - Date.parse(a.openedAt));

  return (
    <div className="space-y-5">
      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
        <div role="group" aria-label="Statut" className="flex flex-wrap gap-2">
          {STATUS_FILTERS.map((option) => (
            <button
              key={option.value}
              type="button"
              aria-pressed={status === option.value}
              onClick={() => setStatus(option.value)}
              className="rounded-full border border-white/15 px-3.5 py-1.5 text-sm font-medium text-slate-200 hover:bg-white/5 aria-pressed:border-cyan-300/60 aria-pressed:bg-cyan-400/15 aria-pressed:text-white"
            >
              {option.label}
            </button>
          ))}
        </div>
        <div className="flex flex-col gap-3 sm:ml-auto sm:flex-row">
          <label htmlFor={siteFieldId} className="sr-only">
            Site
          </label>
          <select id={siteFieldId} value={siteId} onChange={(event) => setSiteId(event.target.value)} className={selectClass}>
            <option value="">Tous les sites</option>
            {sites.map((site) => (
              <option key={site.id} value={site.id}>
                {site.name}
              </option>
            ))}
          </select>
          <label htmlFor={severityFieldId} className="sr-only">
            Gravité
          </label>
          <select
            id={severityFieldId}
            value={severity}
            onChange={(event) => setSeverity(event.target.value as '' | Severity)}
            className={selectClass}
          >
            <option value="">Toutes les gravités</option>
            {(Object.keys(SEVERITY_LABELS) as Severity[]).map((value) => (
              <option key={value} value={value}>
                {SEVERITY_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
      </div>

      {query.isError ? (
        <ErrorAlert>{errorMessage(query.error, LOAD_ERROR)}</ErrorAlert>
      ) : query.isPending ? (
        <p role="status" className="flex items-center gap-2 text-slate-300">
          <LoaderCircle className="size-4 animate-spin motion-reduce:animate-none" aria-hidden="true" />
          Chargement des alertes…
        </p>
      ) : alerts.length === 0 ? (
        <div className="rounded-2xl border border-white/10 bg-slate-900/60 p-8 text-center">
          <BellRing className="mx-auto size-8 text-emerald-300" aria-hidden="true" />
          <p className="mt-3 font-semibold text-white">{status === 'resolved' ? 'Aucune alerte résolue' : 'Aucune alerte'}</p>
          <p className="mt-1 text-sm text-slate-300">Vigie surveille vos capteurs jour et nuit et vous prévient ici.</p>
        </div>
      ) : (
        <>
          <p className="text-sm text-slate-300" role="status">
            {alertCount(alerts.length, CAPTIONS[status](alerts.length))}
          </p>
          <ul className="space-y-3">
            {alerts.map((alert) => {
              const reading =
                isPredicted(alert) && alert.key && alert.sensorId && alert.status !== 'resolved'
                  ? (readingOf?.(alert.sensorId, alert.key) ?? null)
                  : null;
              // A forecast is no reading: the measured value is red only when it is itself past the limit.
              const red = alert.status !== 'resolved' && (!isPredicted(alert) || readingBeyond(alert.forecast, reading));
              return (
                <li key={alert.id}>
                  <Link
                    to={`/dashboard/alertes/${alert.id}`}
                    data-testid="alert-item"
                    className={`flex items-center gap-4 rounded-2xl border p-4 transition-colors hover:bg-white/5 ${
                      alert.status === 'open' ? 'border-red-400/50 bg-red-500/10' : 'border-white/10 bg-slate-900/60'
                    }`}
                  >
                    <div className="min-w-0 flex-1 space-y-1.5">
                      <div className="flex flex-wrap items-center gap-2">
                        <AlertStatusBadge status={alert.status} />
                        <SeverityBadge severity={alert.severity} />
                        {isPredicted(alert) && <PredictedBadge />}
                      </div>
                      <p className="truncate font-semibold text-white">
                        {alert.sensorId ? sensorName(alert.sensorId, alert.deviceKind) : planAlertLabel(alert)}
                      </p>
                      <p className="text-sm text-slate-300">
                        {/* A past forecast has no reading of its own: only what was forecast is shown. */}
                        {isPredicted(alert) && alert.status === 'resolved' ? null : (
                          <>
                            <span data-testid="alert-value" className={red ? 'font-semibold text-red-200' : 'font-semibold text-slate-100'}>
                              {alertValue(alert, reading)}
                            </span>
                            {reading && ' mesurés'}
                            {isPredicted(alert) && ' · '}
                          </>
                        )}
                        {isPredicted(alert) && alert.key && (
                          <ForecastLabel measureKey={alert.key} forecast={alert.forecast} now={now} timeZone={timeZone(alert.siteId)} />
                        )}
                        {' · '}
                        {alert.status === 'resolved'
                          ? `durée ${formatDuration(alert.openedAt, Date.parse(alert.resolvedAt ?? alert.openedAt))}`
                          : `depuis ${formatDuration(alert.openedAt, now)}`}
                        {siteName(alert.siteId) && ` · ${siteName(alert.siteId)}`}
                      </p>
                      <p className="text-xs text-slate-400">Ouverte le {formatDateTime(alert.openedAt)}</p>
                    </div>
                    <ChevronRight className="size-5 shrink-0 text-slate-400" aria-hidden="true" />
                  </Link>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </div>
  );
}
