import type { Alert } from '@vigie/contract';
import { ChevronRight } from 'lucide-react';
import { Link } from 'react-router';
import { ForecastLabel } from '@/components/forecast-label';
import { DetailSection } from '@/components/ui/section';
import { useNow } from '@/hooks/use-now';
import { formatDateTime } from '@/lib/measure-format';
import { formatDuration } from '../alert-format';
import { alertValue, isPredicted, type SensorReading } from './alert-value';
import { AlertStatusBadge, PredictedBadge, SeverityBadge } from './severity-badge';

const SHOWN = 10;

/**
 * The sensor page's alerts, newest first, each leading to its page. A « dépassement prévu » shows
 * the sensor's reading of its measure, and its forecast labelled as one.
 */
export function SensorAlerts({
  sensorId,
  alerts,
  readingOf,
  timeZone,
}: {
  sensorId: string;
  alerts: Alert[];
  /** The sensor's latest reading of a measure. */
  readingOf?: (key: string) => SensorReading | null;
  timeZone?: string | undefined;
}) {
  const now = useNow(30_000);
  return (
    <DetailSection id={`sensor-alerts-${sensorId}`} title="Alertes de ce capteur">
      {alerts.length === 0 ? (
        <p className="text-sm text-slate-300">Aucune alerte pour ce capteur.</p>
      ) : (
        <ul className="space-y-2">
          {alerts.slice(0, SHOWN).map((alert) => (
            <li key={alert.id}>
              <Link
                to={`/dashboard/alertes/${alert.id}`}
                className="flex items-center gap-3 rounded-xl border border-white/10 p-3 transition-colors hover:bg-white/5"
              >
                <div className="min-w-0 flex-1">
                  <p className="flex flex-wrap items-center gap-2">
                    <AlertStatusBadge status={alert.status} />
                    <SeverityBadge severity={alert.severity} />
                    {isPredicted(alert) && <PredictedBadge />}
                    {/* A past forecast has no reading of its own: only what was forecast is shown. */}
                    {!(isPredicted(alert) && alert.status === 'resolved') && (
                      <span className="text-sm font-semibold text-white">
                        {alertValue(alert, isPredicted(alert) && alert.key ? readingOf?.(alert.key) : null)}
                        {isPredicted(alert) && alert.key && readingOf?.(alert.key) && (
                          <span className="font-normal text-slate-300"> mesurés</span>
                        )}
                      </span>
                    )}
                    {isPredicted(alert) && alert.key && (
                      <ForecastLabel measureKey={alert.key} forecast={alert.forecast} now={now} timeZone={timeZone} className="text-sm" />
                    )}
                  </p>
                  <p className="mt-1 text-xs text-slate-400">
                    {formatDateTime(alert.openedAt)} · durée{' '}
                    {formatDuration(alert.openedAt, alert.resolvedAt ? Date.parse(alert.resolvedAt) : now)}
                  </p>
                </div>
                <ChevronRight className="size-4 shrink-0 text-slate-400" aria-hidden="true" />
              </Link>
            </li>
          ))}
        </ul>
      )}
    </DetailSection>
  );
}
