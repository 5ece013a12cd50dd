import type { Alert, PredictedAlert } from '@vigie/contract';
import { forecastLabel } from '@/lib/forecast-label';
import { formatMeasure } from '@/lib/measure-format';
import { planAlertState } from '../plan-alert';

/** A sensor's latest reading of a measure, as the devices list keeps it live. */
export type SensorReading = { value: number; ts: string };

/** A « dépassement prévu »: its `peak` and `last` are forecast values, never readings. */
export function isPredicted<T extends Pick<Alert, 'forecast'>>(alert: T): alert is T & { forecast: PredictedAlert } {
  return alert.forecast !== undefined;
}

/**
 * The value an alert shows, always something the sensor measured: the latest value of a breach;
 * for a « dépassement prévu », the sensor's latest reading, never the forecast; « Hors ligne » for
 * a silent sensor.
 */
export function alertValue(
  alert: Pick<Alert, 'key' | 'last' | 'forecast'> & Partial<Pick<Alert, 'taskId' | 'processId' | 'events'>>,
  reading?: SensorReading | null,
): string {
  // A task of the food-safety plan or a timed process: no measure, what went wrong.
  if (alert.taskId || alert.processId) return planAlertState(alert);
  if (alert.key === null) return 'Hors ligne';
  if (isPredicted(alert)) return reading ? formatMeasure(alert.key, reading.value) : '—';
  return alert.last === null ? '—' : formatMeasure(alert.key, alert.last);
}

/** Whether a reading is already past the limit a « dépassement prévu » forecasts. */
export function readingBeyond(forecast: PredictedAlert, reading: SensorReading | null | undefined): boolean {
  if (!reading) return false;
  return forecast.direction === 'above' ? reading.value > forecast.threshold : reading.value < forecast.threshold;
}

/**
 * What the toast of a new alert says after the sensor's name: the value of a breach, or for a
 * « dépassement prévu » its forecast, labelled (« dépassement prévu : +8 °C vers 14 h 10 »).
 */
export function alertNews(
  alert: Pick<Alert, 'key' | 'last' | 'forecast'> & Partial<Pick<Alert, 'taskId' | 'processId' | 'events'>>,
  now: number,
  timeZone?: string,
): string {
  if (isPredicted(alert) && alert.key) return `dépassement ${forecastLabel(alert.key, alert.forecast, now, timeZone)}`;
  return alertValue(alert);
}
