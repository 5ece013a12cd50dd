import type { Insights } from '@vigie/contract';
import { BatteryLow, LoaderCircle, RotateCw } from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { DetailSection } from '@/components/ui/section';
import { useNow } from '@/hooks/use-now';
import { errorMessage } from '@/lib/errors';
import { measureLabel } from '@/lib/measure-format';
import { batteryLikelyText, batteryText, defrostText, FORECAST_HORIZON_HOURS, formatClock } from '../insights-format';
import { AnomalyList } from './anomaly-list';
import { ExcursionList } from './excursion-list';
import { ForecastSummary } from './forecast-summary';
import { LOAD_ERROR } from '@/lib/fallback-text';

type InsightsPanelProps = {
  measureKey: string;
  insights: Insights | undefined;
  /** The last failure to load, shown beside figures already there. */
  error: unknown;
  onRetry: () => void;
  /** The site's time zone: a shop manager reads times as the shop's clock shows them. */
  timeZone?: string | undefined;
  lastReadingAt: string | null;
  hasLimits: boolean;
  /** The measure past a limit now, or an alert measuring it so: the forecast panel says so first. */
  measured?: ComponentProps<typeof ForecastSummary>['measured'];
  /** What a running « dépassement prévu » alert on this measure forecasts. */
  alertForecast?: ComponentProps<typeof ForecastSummary>['alertForecast'];
};

function Block({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="min-w-0 space-y-3">
      <h3 className="text-sm font-semibold tracking-wide text-slate-200 uppercase">{title}</h3>
      {children}
    </div>
  );
}

/**
 * « Analyse prédictive » of a sensor's measure (docs/api.md, Analyse prédictive): the next four hours and the time to a
 * breach, the week's anomalies with their reasons, excursions in degree-hours, recognised defrosts,
 * and when to change the battery.
 */
export function InsightsPanel({
  measureKey,
  insights,
  error,
  onRetry,
  timeZone,
  lastReadingAt,
  hasLimits,
  measured = null,
  alertForecast = null,
}: InsightsPanelProps) {
  const now = useNow(30_000);
  const computedAt = insights ? Date.parse(insights.computedAt) : null;
  const likely = insights?.battery ? batteryLikelyText(insights.battery, now, timeZone) : null;
  return (
    <DetailSection
      id="insights-title"
      title="Analyse prédictive"
      description={`${measureLabel(measureKey)}\u202F: les ${FORECAST_HORIZON_HOURS} prochaines heures, et ce que Vigie a remarqué sur les 7 derniers jours.`}
      actions={
        computedAt !== null && (
          <p className="text-xs text-slate-400">
            Calculée à <time dateTime={insights?.computedAt}>{formatClock(computedAt, timeZone)}</time>
          </p>
        )
      }
    >
      <div className="space-y-6">
        {Boolean(error) && (
          <Alert
            size="compact"
            action={
              <button
                type="button"
                onClick={onRetry}
                className="inline-flex items-center gap-2 rounded-lg border border-red-300/40 px-3 py-1.5 text-sm font-medium text-red-100 hover:bg-red-400/10"
              >
                <RotateCw className="size-4" aria-hidden="true" />
                Réessayer
              </button>
            }
          >
            <p>{errorMessage(error, LOAD_ERROR)}</p>
          </Alert>
        )}
        {!insights ? (
          !error && (
            <p role="status" className="flex items-center gap-2 text-sm text-slate-300">
              <LoaderCircle className="size-4 animate-spin motion-reduce:animate-none" aria-hidden="true" />
              Calcul de l’analyse…
            </p>
          )
        ) : (
          <div className="grid gap-6 md:grid-cols-2">
            <Block title="Prévision">
              <ForecastSummary
                insights={insights}
                measureKey={measureKey}
                now={now}
                timeZone={timeZone}
                lastReadingAt={lastReadingAt}
                hasLimits={hasLimits}
                measured={measured}
                alertForecast={alertForecast}
              />
            </Block>
            <Block title="Anomalies">
              <AnomalyList
                anomalies={insights.anomalies}
                now={now}
                timeZone={timeZone}
                departure={Boolean(insights.forecastModel && insights.forecastModel.kind !== 'seasonal')}
              />
            </Block>
            <Block title="Dépassements">
              <ExcursionList excursions={insights.excursions} measureKey={measureKey} now={now} timeZone={timeZone} />
            </Block>
            {insights.defrosts.length > 0 && (
              <Block title="Dégivrages">
                <p className="text-sm text-slate-300">{defrostText(insights.defrosts, now, timeZone)}</p>
              </Block>
            )}
            {insights.battery && (
              <Block title="Pile">
                <div className="flex items-start gap-3 text-sm">
                  <BatteryLow className="mt-0.5 size-5 shrink-0 text-slate-400" aria-hidden="true" />
                  <p className="text-slate-200">
                    {batteryText(insights.battery, now, timeZone)}
                    {likely && <span className="mt-1 block text-slate-400">{likely}</span>}
                  </p>
                </div>
              </Block>
            )}
          </div>
        )}
      </div>
    </DetailSection>
  );
}
