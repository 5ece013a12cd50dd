import type { Insights } from '@vigie/contract';
import { CircleCheck, Hourglass, TriangleAlert, WifiOff } from 'lucide-react';
import { breachText, forecastRangeText, NO_BREACH_TEXT } from '../insights-format';

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
};

const box = 'flex items-start gap-3 rounded-xl border p-4 text-sm';

/** The time to breach, the absence of one, or why there is no forecast. */
export function ForecastSummary({ insights, measureKey, now, timeZone, lastReadingAt, hasLimits }: ForecastSummaryProps) {
  if (insights.forecast.length === 0) {
    const last = lastReadingAt ? Date.parse(lastReadingAt) : null;
    const silent = last === null || now - last > SILENT_MS;
    const Icon = silent ? WifiOff : Hourglass;
    return (
      <div data-testid="forecast-state" className={`${box} border-white/10 bg-slate-950/40 text-slate-200`}>
        <Icon className="mt-0.5 size-5 shrink-0 text-slate-400" aria-hidden="true" />
        <p>
          {last === null
            ? 'Pas de prévision\u202F: ce capteur n’a encore envoyé aucune mesure.'
            : silent
              ? 'Pas de prévision\u202F: ce capteur n’envoie plus de mesures depuis plus d’une heure.'
              : 'Pas encore de prévision\u202F: l’historique de ce capteur est trop court. Il faut au moins une heure de mesures régulières.'}
        </p>
      </div>
    );
  }

  const range = forecastRangeText(measureKey, insights.forecast);
  return (
    <div className="space-y-3">
      {insights.breach ? (
        <div data-testid="forecast-state" className={`${box} border-amber-300/50 bg-amber-400/10 text-amber-50`}>
          <TriangleAlert className="mt-0.5 size-5 shrink-0 text-amber-300" aria-hidden="true" />
          <p>
            <strong className="block font-semibold">Dépassement prévu</strong>
            {breachText(insights.breach, measureKey, now, timeZone)}
          </p>
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
    </div>
  );
}
