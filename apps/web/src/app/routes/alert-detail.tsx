import { LoaderCircle } from 'lucide-react';
import { useParams } from 'react-router';
import { Alert as ErrorAlert } from '@/components/ui/alert';
import { PRODUCT_NAME } from '@/config/constants';
import { useAlert } from '@/features/alerts/api/get-alert';
import { useRule } from '@/features/alerts/api/rules';
import { AlertDetail } from '@/features/alerts/components/alert-detail';
import { useSites } from '@/features/sites/api/get-sites';
import { ApiError } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { errorMessage } from '@/lib/errors';
import { useNotFoundGuard } from '../signed-in-outlet';
import { useSensorNames, useSensorReadings } from '../use-sensor-names';

/** /dashboard/alertes/:id; another organization's alert is a 404. */
export default function AlertDetailRoute() {
  const { id = '' } = useParams();
  const query = useAlert({ id });
  const rule = useRule({ id: query.data?.ruleId });
  const sites = useSites();
  const sensorName = useSensorNames();
  const readingOf = useSensorReadings();
  const { user } = useAuth();
  const notFound = useNotFoundGuard(query.error);
  if (notFound) return null;

  const alert = query.data;
  const who = (userId: string | null | undefined) =>
    !userId ? null : userId === user?.id ? user.name?.trim() || user.email : 'Un membre de l’équipe';

  return (
    <>
      <title>{`${alert ? `Alerte ${sensorName(alert.sensorId)}` : 'Alerte'} · ${PRODUCT_NAME}`}</title>
      {alert ? (
        <AlertDetail
          alert={alert}
          // null: the rule is gone (404); undefined: not known yet.
          rule={rule.data ?? (rule.error instanceof ApiError && rule.error.status === 404 ? null : undefined)}
          sensorName={sensorName(alert.sensorId)}
          siteName={sites.data?.find((site) => site.id === alert.siteId)?.name ?? null}
          timeZone={sites.data?.find((site) => site.id === alert.siteId)?.timezone}
          reading={alert.key ? readingOf(alert.sensorId, alert.key) : null}
          who={who}
        />
      ) : query.isError ? (
        <ErrorAlert>{errorMessage(query.error, 'Error loading data')}</ErrorAlert>
      ) : (
        <p role="status" className="flex items-center gap-2 text-slate-300">
          <LoaderCircle className="size-4 animate-spin motion-reduce:animate-none" aria-hidden="true" />
          Chargement de l’alerte…
        </p>
      )}
    </>
  );
}
