import { LoaderCircle } from 'lucide-react';
import { useMemo } from 'react';
import { useParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { PRODUCT_NAME } from '@/config/constants';
import { useAlerts } from '@/features/alerts/api/get-alerts';
import { useRules } from '@/features/alerts/api/rules';
import { conditionKey, conditionLimits } from '@/features/alerts/alert-format';
import { RuleEditor } from '@/features/alerts/components/rule-editor';
import { SensorAlerts } from '@/features/alerts/components/sensor-alerts';
import { useDevice } from '@/features/devices/api/get-device';
import { DeviceDetail } from '@/features/devices/components/device-detail';
import { DEVICE_PRESENTATION } from '@/features/devices/device-presentation';
import { deviceDisplayName, type DeviceKind } from '@/features/devices/device-kinds';
import { errorMessage } from '@/lib/errors';
import { useNotFoundGuard } from '../signed-in-outlet';

/** /dashboard/capteurs/:id and /dashboard/emetteurs/:id; another organization's device is a 404. */
export default function DeviceDetailRoute({ kind }: { kind: DeviceKind }) {
  const { id = '' } = useParams();
  const query = useDevice({ kind, id });
  const isSensor = kind === 'sensor';
  const rules = useRules({ target: { sensorId: isSensor ? id : '' } });
  const alerts = useAlerts({ filter: { sensorId: id }, enabled: isSensor });
  // The chart draws the rules' limits and shades the alert periods of the measure it shows.
  const annotations = useMemo(
    () =>
      isSensor
        ? {
            limits: (rules.data ?? [])
              .filter((rule) => rule.enabled)
              .flatMap((rule) => {
                const key = conditionKey(rule.condition);
                return key ? [{ key, values: conditionLimits(rule.condition) }] : [];
              }),
            periods: (alerts.data ?? []).map((alert) => ({ key: alert.key, from: alert.openedAt, to: alert.resolvedAt })),
          }
        : undefined,
    [isSensor, rules.data, alerts.data],
  );
  const notFound = useNotFoundGuard(query.error);

  if (notFound) return null;

  return (
    <>
      <title>{`${query.data ? deviceDisplayName(query.data) : DEVICE_PRESENTATION[kind].singular} · ${PRODUCT_NAME}`}</title>
      {query.data ? (
        <div className="space-y-6">
          <DeviceDetail key={query.data.id} kind={kind} device={query.data} {...(annotations ? { annotations } : {})} />
          {isSensor && (
            <div className="grid gap-6 lg:grid-cols-2">
              <RuleEditor target={{ sensorId: query.data.id }} />
              <SensorAlerts sensorId={query.data.id} alerts={alerts.data ?? []} />
            </div>
          )}
        </div>
      ) : query.isError ? (
        <Alert>{errorMessage(query.error, 'Error loading data')}</Alert>
      ) : (
        <p role="status" className="flex items-center gap-2 text-slate-300">
          <LoaderCircle className="size-4 animate-spin motion-reduce:animate-none" aria-hidden="true" />
          Chargement de l’appareil…
        </p>
      )}
    </>
  );
}
