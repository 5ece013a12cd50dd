import type { Check } from '@vigie/contract';
import { formatNumber } from '@/lib/measure-format';
import { formatQuantity } from '@/lib/quantity-format';

const NNBSP = '\u202F';

/** A temperature taken by hand, signed, one decimal: « +9,4 °C », « −18,0 °C », « 0,0 °C ». */
export function formatCheckTemperature(value: number): string {
  return `${value > 0 ? '+' : ''}${formatNumber(value, 1, true)}${NNBSP}°C`;
}

/** A delivery's decision: « Refusée : 3 colis », « Acceptée »; null for other checks. */
export function decisionText(check: Pick<Check, 'accepted' | 'quantity'>): string | null {
  if (check.accepted === null) return null;
  const word = check.accepted ? 'Acceptée' : 'Refusée';
  return check.quantity ? `${word}${NNBSP}: ${formatQuantity(check.quantity)}` : word;
}

/** A `datetime-local` value for an instant, in the browser's zone: « 2026-11-23T14:10 ». */
export function localInputValue(ms: number): string {
  const date = new Date(ms);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
