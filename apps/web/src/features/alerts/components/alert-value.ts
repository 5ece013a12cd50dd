import type { Alert } from '@vigie/contract';
import { formatMeasure } from '@/lib/measure-format';

/** The value an alert shows: its latest value, or « Hors ligne » for a silent sensor. */
export function alertValue(alert: Pick<Alert, 'key' | 'last'>): string {
  if (alert.key === null) return 'Hors ligne';
  return alert.last === null ? '—' : formatMeasure(alert.key, alert.last);
}
