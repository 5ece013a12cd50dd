import { formatClock, formatRelativeDay } from './clock-format';
import { formatThreshold } from './measure-format';

const NNBSP = '\u202F';

/** What a « dépassement prévu » announces: the limit the forecast crosses, and when (null when not known). */
export type ForecastOfLimit = { threshold: number; eta: string | null };

/**
 * A predicted breach, labelled as a forecast and never to stand for a reading:
 * « prévu : +8 °C vers 14 h 10 », « prévu : +8 °C demain vers 0 h 40 », « prévu : +8 °C » when the
 * time is not known (a resolved alert, a forecast that no longer crosses the limit). Times are the
 * site's: a shop manager reads them on the shop's clock.
 */
export function forecastLabel(key: string, forecast: ForecastOfLimit, now: number, timeZone?: string): string {
  return `prévu${NNBSP}: ${forecastTarget(key, forecast, now, timeZone)}`;
}

/** The limit and its time without the label, where « Prévu » is already said: « +8 °C vers 14 h 10 ». */
export function forecastTarget(key: string, forecast: ForecastOfLimit, now: number, timeZone?: string): string {
  const limit = formatThreshold(key, forecast.threshold);
  const eta = forecast.eta === null ? Number.NaN : Date.parse(forecast.eta);
  if (Number.isNaN(eta)) return limit;
  const day = formatRelativeDay(eta, now, timeZone);
  const when = day === 'aujourd’hui' ? '' : `${day} `;
  return `${limit} ${when}vers ${formatClock(eta, timeZone)}`;
}
