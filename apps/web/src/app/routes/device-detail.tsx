import { LoaderCircle } from 'lucide-react';
import { useEffect, useMemo, useRef } from 'react';
import { useParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { PRODUCT_NAME } from '@/config/constants';
import { useAlerts } from '@/features/alerts/api/get-alerts';
import { useRules } from '@/features/alerts/api/rules';
import { conditionKey, conditionLimits } from '@/features/alerts/alert-format';
import { activeForecast, measuredBreach } from '@/features/alerts/limit-state';
import { usePauseHistory } from '@/features/alerts/api/pause-queries';
import { PauseControl } from '@/features/alerts/components/pause-control';
import { RuleEditor } from '@/features/alerts/components/rule-editor';
import { SensorAlerts } from '@/features/alerts/components/sensor-alerts';
import { CalibrationPanel } from '@/features/calibration/components/calibration-panel';
import { useDevice } from '@/features/devices/api/get-device';
import { readingsKeys } from '@/features/devices/api/get-readings';
import { onLiveReading } from '@/features/devices/apply-live-event';
import { DeviceDetail } from '@/features/devices/components/device-detail';
import { type ChartAnnotations, RANGES } from '@/features/devices/components/readings-chart';
import { DEVICE_PRESENTATION } from '@/features/devices/device-presentation';
import { deviceDisplayName, deviceKeys, type DeviceKind } from '@/features/devices/device-kinds';
import { useInsights } from '@/features/insights/api/get-insights';
import { InsightsPanel } from '@/features/insights/components/insights-panel';
import { INSIGHTS_REFRESH_MS, insightsKeys } from '@/features/insights/insights-keys';
import { useSites } from '@/features/sites/api/get-sites';
import { useOwner } from '@/lib/auth';
import { errorMessage } from '@/lib/errors';
import { mainMeasureKey } from '@/lib/measure-format';
import { useNotFoundGuard } from '../signed-in-outlet';
import { LOAD_ERROR } from '@/lib/fallback-text';

/** The chart's longest period: the pauses it may shade are read over it once, whatever period is shown. */
const PAUSE_HISTORY_MS = Math.max(...RANGES.map((range) => range.ms));

/** /dashboard/capteurs/:id and /dashboard/emetteurs/:id; another organization's device is a 404. */
export default function DeviceDetailRoute({ kind }: { kind: DeviceKind }) {
  const { id = '' } = useParams();
  const query = useDevice({ kind, id });
  const isSensor = kind === 'sensor';
  const rules = useRules({ target: { sensorId: isSensor ? id : '' } });
  const alerts = useAlerts({ filter: { sensorId: id }, enabled: isSensor });
  const sites = useSites();
  // The predictive analysis follows the sensor's main measure (temperature for a fridge).
  const latest = query.data?.latest ?? {};
  const measureKey = isSensor && query.data ? (mainMeasureKey(latest) ?? 'temperature') : null;
  const insights = useInsights({ sensorId: isSensor ? id : '', key: measureKey });
  const pauses = usePauseHistory({ sensorId: isSensor ? id : '', periodMs: PAUSE_HISTORY_MS });
  const timeZone = sites.data?.find((site) => site.id === query.data?.siteId)?.timezone;
  const owner = useOwner();
  // A verification corrects the sensor's temperatures from its date on: what shows them is read again.
  const correctedByCalibration = useMemo(
    () => [
      deviceKeys.detail('sensor', owner, id),
      deviceKeys.list('sensor', owner),
      readingsKeys.all('sensor', owner, id),
      insightsKeys.all(owner),
    ],
    [owner, id],
  );

  // New readings of this sensor bring a fresher forecast, no more than once a minute (the server's cache).
  const refresh = useRef({ refetch: insights.refetch, updatedAt: insights.dataUpdatedAt });
  useEffect(() => {
    refresh.current = { refetch: insights.refetch, updatedAt: insights.dataUpdatedAt };
  });
  useEffect(
    () =>
      onLiveReading((reading) => {
        const { refetch, updatedAt } = refresh.current;
        if (reading.deviceId === id && Date.now() - updatedAt >= INSIGHTS_REFRESH_MS) void refetch();
      }),
    [id],
  );

  // The chart draws the rules' limits, shades the alert periods of the measure it shows, the analysis and the pauses.
  const annotations = useMemo<ChartAnnotations | undefined>(() => {
    if (!isSensor) return undefined;
    const analysis = insights.data;
    return {
      limits: (rules.data ?? [])
        .filter((rule) => rule.enabled)
        .flatMap((rule) => {
          const key = conditionKey(rule.condition);
          return key ? [{ key, values: conditionLimits(rule.condition) }] : [];
        }),
      periods: (alerts.data ?? []).map((alert) => ({ key: alert.key, from: alert.openedAt, to: alert.resolvedAt })),
      pauses: (pauses.data ?? []).map((pause) => ({
        from: pause.from,
        until: pause.until,
        reason: pause.reason,
        wholeShop: pause.sensorId === null,
      })),
      timeZone,
      ...(analysis
        ? {
            forecast: { key: analysis.key, points: analysis.forecast },
            spans: [
              ...analysis.anomalies.map((anomaly) => ({ key: analysis.key, kind: 'anomaly' as const, from: anomaly.from, to: anomaly.to })),
              ...analysis.defrosts.map((defrost) => ({ key: analysis.key, kind: 'defrost' as const, from: defrost.from, to: defrost.to })),
            ],
          }
        : {}),
    };
  }, [isSensor, rules.data, alerts.data, insights.data, pauses.data, timeZone]);
  const hasLimits = Boolean(annotations?.limits.some((limit) => limit.key === measureKey && limit.values.length > 0));
  // The forecast panel agrees with the alerts: a limit passed now, or a « dépassement prévu » running.
  const measured = measureKey ? measuredBreach(rules.data ?? [], alerts.data ?? [], measureKey, latest[measureKey]?.value ?? null) : null;
  const alertForecast = measureKey ? activeForecast(alerts.data ?? [], measureKey) : null;
  const notFound = useNotFoundGuard(query.error);

  if (notFound) return null;

  return (
    <>
      <title>{`${query.data ? deviceDisplayName(query.data) : DEVICE_PRESENTATION[kind].singular} · ${PRODUCT_NAME}`}</title>
      {query.data ? (
        <div className="space-y-6">
          <DeviceDetail
            key={query.data.id}
            kind={kind}
            device={query.data}
            {...(annotations ? { annotations } : {})}
            // The pause at the top, under the name: what holds the sensor's notifications is the first thing read.
            underHeader={isSensor && <PauseControl sensor={{ id: query.data.id, siteId: query.data.siteId ?? null }} timeZone={timeZone} />}
            afterHistory={
              measureKey && (
                <InsightsPanel
                  measureKey={measureKey}
                  insights={insights.data}
                  error={insights.error}
                  onRetry={() => void insights.refetch()}
                  timeZone={timeZone}
                  lastReadingAt={latest[measureKey]?.ts ?? null}
                  hasLimits={hasLimits}
                  measured={measured}
                  alertForecast={alertForecast}
                />
              )
            }
          />
          {isSensor && (
            <div className="grid gap-6 lg:grid-cols-2">
              <RuleEditor target={{ sensorId: query.data.id }} />
              <SensorAlerts
                sensorId={query.data.id}
                alerts={alerts.data ?? []}
                readingOf={(key) => latest[key] ?? null}
                timeZone={timeZone}
              />
            </div>
          )}
          {isSensor && <CalibrationPanel sensorId={query.data.id} timeZone={timeZone} related={correctedByCalibration} />}
        </div>
      ) : query.isError ? (
        <Alert>{errorMessage(query.error, LOAD_ERROR)}</Alert>
      ) : (
        <p role="status" className="flex items-center gap-2 text-slate-300">
          <LoaderCircle className="size-4 animate-spin motion-reduce:animate-none" aria-hidden="true" />
          Chargement de l’appareil…
        </p>
      )}
    </>
  );
}
