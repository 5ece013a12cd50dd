import type { Insights, PredictedBreach } from '@vigie/contract';
import { CircleCheck, Hourglass, TriangleAlert, WifiOff } from 'lucide-react';
import { forecastLabel, type ForecastOfLimit } from '@/lib/forecast-label';
import { formatMeasure, formatThreshold } from '@/lib/measure-format';
import { basisText, breachDetails, breachText, forecastRangeText, NO_BREACH_TEXT } from '../insights-format';

/** A sensor silent this long has no present to forecast from (the server's rule). */
const SILENT_MS = 3600_000;

type ForecastSummaryProps = {
  insights: Insights;
  measureKey: string;
  now: number;
  timeZone?: string | undefined;
  /** The last reading of the measure, to tell a silent sensor from one too new to forecast. */
  lastReadingAt: string | null;
  /** Whether an active rule puts a limit on this measure: a breach is only predicted against one. */
  hasLimits: boolean;
  /**
   * The measure is past a limit now (`beyond`), or an alert that measured it so still runs: the
   * panel says so in the alert's colour, and never that no breach is forecast.
   */
  measured?: { value: number | null; limit: number | null; beyond: boolean } | null;
  /** What a running « dépassement prévu » alert on this measure forecasts. */
  alertForecast?: ForecastOfLimit | null;
};

const box = 'flex items-start gap-3 rounded-xl border p-4 text-sm';

type BreachLinesProps = { breach: PredictedBreach; measureKey: string; now: number; timeZone?: string | undefined };

/** A predicted breach as a forecast reads: how likely, when, between which hours, and whether the hour moved. */
function BreachLines({ breach, measureKey, now, timeZone }: BreachLinesProps) {
  const details = breachDetails(breach, timeZone);
  return (
    <p>
      <strong className="block font-semibold">{details.title}</strong>
      {breachText(breach, measureKey, now, timeZone)}
      {details.window && (
        <span data-testid="breach-window" className="block text-amber-100/90">
          {details.window}
        </span>
      )}
      {details.moved && (
        <span data-testid="breach-moved" className="block text-amber-100/90">
          {details.moved}
        </span>
      )}
    </p>
  );
}

/** What was measured against the limit, in words: « 10,9 °C mesurés (limite +8 °C) ». */
function measuredText(key: string, measured: NonNullable<ForecastSummaryProps['measured']>): string {
  const value = measured.value === null ? 'Aucune mesure connue' : `${formatMeasure(key, measured.value)} mesurés`;
  return measured.limit === null ? value : `${value} (limite ${formatThreshold(key, measured.limit)})`;
}

/**
 * The time to breach, the absence of one, or why there is no forecast; first of all, a limit
 * already passed. The panel agrees with the alerts: it never says in green that nothing is
 * forecast while the sensor is out of limits or a « dépassement prévu » alert runs.
 */
export function ForecastSummary({
  insights,
  measureKey,
  now,
  timeZone,
  lastReadingAt,
  hasLimits,
  measured = null,
  alertForecast = null,
}: ForecastSummaryProps) {
  const alarm = measured && (
    <div data-testid="forecast-state" className={`${box} border-red-400/60 bg-red-500/15 text-red-50`}>
      <TriangleAlert className="mt-0.5 size-5 shrink-0 text-red-300" aria-hidden="true" />
      <p>
        <strong className="block font-semibold">{measured.beyond ? 'Seuil déjà dépassé' : 'Alerte en cours'}</strong>
        {measuredText(measureKey, measured)}
      </p>
    </div>
  );

  if (insights.forecast.length === 0) {
    const last = lastReadingAt ? Date.parse(lastReadingAt) : null;
    // The server's word when it gives it; otherwise the last reading's age.
    const silent =
      last === null || (insights.forecastUnavailable ? insights.forecastUnavailable === 'no_recent_reading' : now - last > SILENT_MS);
    const Icon = silent ? WifiOff : Hourglass;
    return (
      <div className="space-y-3">
        {alarm}
        <div data-testid={alarm ? 'forecast-note' : 'forecast-state'} className={`${box} border-white/10 bg-slate-950/40 text-slate-200`}>
          <Icon className="mt-0.5 size-5 shrink-0 text-slate-400" aria-hidden="true" />
          <p>
            {last === null
              ? 'Pas de prévision\u202F: ce capteur n’a encore envoyé aucune mesure.'
              : silent
                ? 'Pas de prévision\u202F: ce capteur n’envoie plus de mesures depuis plus d’une heure.'
                : 'Pas assez de relevés pour prévoir\u202F: l’historique de ce capteur est encore trop court, et rien ne s’en écarte. La prévision viendra avec ses prochaines mesures.'}
          </p>
        </div>
      </div>
    );
  }

  const range = forecastRangeText(measureKey, insights.forecast);
  return (
    <div className="space-y-3">
      {alarm ? (
        // Past the limit already: a forecast of crossing it would say less than the reading does.
        alarm
      ) : alertForecast && !insights.breach ? (
        // The alert's forecast, until the next analysis agrees or the alert ends.
        <div data-testid="forecast-state" className={`${box} border-amber-300/50 bg-amber-400/10 text-amber-50`}>
          <TriangleAlert className="mt-0.5 size-5 shrink-0 text-amber-300" aria-hidden="true" />
          <p>
            <strong className="block font-semibold">Dépassement prévu</strong>
            {`${forecastLabel(measureKey, alertForecast, now, timeZone)} (alerte en cours)`}
          </p>
        </div>
      ) : insights.breach ? (
        <div data-testid="forecast-state" className={`${box} border-amber-300/50 bg-amber-400/10 text-amber-50`}>
          <TriangleAlert className="mt-0.5 size-5 shrink-0 text-amber-300" aria-hidden="true" />
          <BreachLines breach={insights.breach} measureKey={measureKey} now={now} timeZone={timeZone} />
        </div>
      ) : (
        <div data-testid="forecast-state" className={`${box} border-emerald-300/30 bg-emerald-400/10 text-emerald-50`}>
          <CircleCheck className="mt-0.5 size-5 shrink-0 text-emerald-300" aria-hidden="true" />
          <p>
            {NO_BREACH_TEXT}
            {!hasLimits && (
              <span className="mt-1 block text-slate-300">
                {'Aucune règle ne fixe de limite à cette mesure\u202F: ajoutez-en une pour que Vigie vous prévienne avant un dépassement.'}
              </span>
            )}
          </p>
        </div>
      )}
      {range && <p className="text-sm text-slate-300">{range}</p>}
      {insights.forecastModel && (
        <p data-testid="forecast-model" className="text-sm text-slate-300">
          {insights.forecastModel.explanation}
          {insights.forecastModel.basis && (
            <span data-testid="forecast-basis" className="block text-slate-400">
              {basisText(insights.forecastModel.basis, now, timeZone)}
            </span>
          )}
        </p>
      )}
    </div>
  );
}
