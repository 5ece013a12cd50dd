import { TrendingUp } from 'lucide-react';
import { forecastLabel, type ForecastOfLimit } from '@/lib/forecast-label';

type ForecastLabelProps = {
  measureKey: string;
  forecast: ForecastOfLimit;
  now: number;
  timeZone?: string | undefined;
  className?: string;
};

/**
 * « prévu : +8 °C vers 14 h 10 » in the forecast's violet (the chart draws the forecast in it),
 * beside the reading and never in its place.
 */
export function ForecastLabel({ measureKey, forecast, now, timeZone, className = '' }: ForecastLabelProps) {
  return (
    <span data-testid="forecast-label" className={`inline-flex items-baseline gap-1 font-medium text-violet-200 ${className}`}>
      <TrendingUp className="size-3.5 shrink-0 self-center" aria-hidden="true" />
      {forecastLabel(measureKey, forecast, now, timeZone)}
    </span>
  );
}
