import { ArrowLeft, LoaderCircle } from 'lucide-react';
import { lazy } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { Alert as ErrorAlert } from '@/components/ui/alert';
import { PRODUCT_NAME } from '@/config/constants';
import { useAlert } from '@/features/alerts/api/get-alert';
import { useRule } from '@/features/alerts/api/rules';
import type { AlertChartProps } from '@/features/alerts/components/alert-curve';
import { AlertDetail } from '@/features/alerts/components/alert-detail';
import { useDevices } from '@/features/devices/api/get-devices';
import { useSites } from '@/features/sites/api/get-sites';
import { ApiError } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { errorMessage } from '@/lib/errors';
import { alertDeviceLink } from '../alert-device';
import { planAlertLabel } from '@/features/alerts/plan-alert';
import { PAGES } from '../navigation/pages';
import { useNotFoundGuard } from '../signed-in-outlet';
import { useSensorNames, useSensorReadings } from '../use-sensor-names';
import { LOAD_ERROR } from '@/lib/fallback-text';

// uPlot and its styles load with a chart only, as on the sensor's page.
const UplotChart = lazy(() => import('@/features/devices/components/uplot-chart'));

/**
 * The alert's curve, drawn by the sensor page's chart: its limits and shaded periods as there, and
 * the peak's interval as the thin amber mark that chart gives an anomaly (an alert's curve shows none).
 */
function AlertChart({ peak, overlays, ...chart }: AlertChartProps) {
  return <UplotChart {...chart} overlays={{ ...overlays, anomalies: peak ? [peak] : [] }} />;
}

/** /dashboard/alertes/:id; another organization's alert is a 404. */
export default function AlertDetailRoute() {
  const { id = '' } = useParams();
  const query = useAlert({ id });
  const rule = useRule({ id: query.data?.ruleId ?? undefined });
  const sites = useSites();
  const sensorName = useSensorNames();
  const readingOf = useSensorReadings();
  const listed = { sensor: useDevices({ kind: 'sensor' }).data, emitter: useDevices({ kind: 'emitter' }).data };
  const { pathname } = useLocation();
  const { user } = useAuth();
  const notFound = useNotFoundGuard(query.error);
  if (notFound) return null;

  const alert = query.data;
  // The page of its sensor — or transmitter, for a silent one — leads back to this alert, by its breadcrumb.
  const sensorLink = alert
    ? alertDeviceLink(alert, (kind, id) => listed[kind]?.some((device) => device.id === id) ?? false, {
        path: pathname,
        label: PAGES.alert.label,
      })
    : null;
  const name = alert ? (alert.sensorId ? sensorName(alert.sensorId, alert.deviceKind) : planAlertLabel(alert)) : null;
  const who = (userId: string | null | undefined) =>
    !userId ? null : userId === user?.id ? user.name?.trim() || user.email : 'Un membre de l’équipe';

  return (
    <>
      <title>{`${name ? `Alerte ${name}` : 'Alerte'} · ${PRODUCT_NAME}`}</title>
      {/* Back to the list of alerts, wherever the page was opened from (a notification, an e-mail, the sensor's page). */}
      <nav aria-label="Retour" className="mb-4">
        <Link
          to="/dashboard/alertes"
          className="inline-flex items-center gap-2 rounded-lg text-sm font-medium text-cyan-200 hover:text-cyan-100"
        >
          <ArrowLeft className="size-4" aria-hidden="true" />
          Alertes
        </Link>
      </nav>
      {alert ? (
        <AlertDetail
          alert={alert}
          // null: the rule is gone (404); undefined: not known yet.
          rule={rule.data ?? (rule.error instanceof ApiError && rule.error.status === 404 ? null : undefined)}
          sensorName={name ?? ''}
          sensorLink={sensorLink}
          siteName={sites.data?.find((site) => site.id === alert.siteId)?.name ?? null}
          timeZone={sites.data?.find((site) => site.id === alert.siteId)?.timezone}
          reading={alert.key && alert.sensorId ? readingOf(alert.sensorId, alert.key) : null}
          who={who}
          chart={AlertChart}
        />
      ) : query.isError ? (
        <ErrorAlert>{errorMessage(query.error, LOAD_ERROR)}</ErrorAlert>
      ) : (
        <p role="status" className="flex items-center gap-2 text-slate-300">
          <LoaderCircle className="size-4 animate-spin motion-reduce:animate-none" aria-hidden="true" />
          Chargement de l’alerte…
        </p>
      )}
    </>
  );
}
