/**
 * French figures for the anomaly explanations: decimal comma, U+202F between thousands and before
 * « : », U+2212 for negatives, U+00A0 before °C (as the alert messages write it).
 */
import { formatDuration } from '@vigie/contract/duration';

export const NNBSP = '\u202f';
const NBSP = '\u00a0';
const MINUS = '\u2212';

const formats = new Map<number, Intl.NumberFormat>();

/** « 1 234,5 », « −18 » (at most `digits` decimals, trailing zeros dropped), never « −0 ». */
export function frNumber(value: number, digits = 1): string {
  let format = formats.get(digits);
  if (!format) {
    format = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: digits });
    formats.set(digits, format);
  }
  const text = format.format(value).replace(/[\u00a0\u0020]/g, NNBSP);
  if (/^-0(,0*)?$/.test(text)) return text.slice(1);
  return text.replace('-', MINUS);
}

/** « 6,2 °C », « −18 °C »; with `signed`, « +2,4 °C ». */
export function frTemperature(value: number, signed = false): string {
  const text = frNumber(value, 1);
  return `${signed && value > 0 && text !== '0' ? '+' : ''}${text}${NBSP}°C`;
}

/** A value of a measure of unknown unit, with about three significant figures of its `scale`. */
export function frValue(value: number, scale: number, signed = false): string {
  const magnitude = Math.abs(scale) > 0 ? Math.floor(Math.log10(Math.abs(scale))) : 0;
  const digits = Math.max(0, Math.min(3, 2 - magnitude));
  const text = frNumber(value, digits);
  return `${signed && value > 0 && text !== '0' ? '+' : ''}${text}`;
}

/** « 25 min », « 1 h 10 min », « 2 j 3 h ». */
export function frDuration(ms: number): string {
  return formatDuration(Math.max(0, ms) / 1000);
}
