/** French number formatting and units of the measures devices report. */
import { formatDateAt } from '@vigie/contract/clock';

const NNBSP = '\u202F';

// A formatter is costly to build (about 50 µs, against 1 µs to format): one per set of options,
// kept, rather than one per number — a table of 500 shops formats 2 500 of them.
const numberFormats = new Map<string, Intl.NumberFormat>();
const numberFormat = (maximumFractionDigits: number, minimumFractionDigits = 0) => {
  const key = `${maximumFractionDigits}:${minimumFractionDigits}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat('fr-FR', { maximumFractionDigits, minimumFractionDigits });
    numberFormats.set(key, format);
  }
  return format;
};
const MINUS = '\u2212';

/** `digits`: decimals always shown, on cards and in the chart alike; `singular`: the unit for 0 and 1. */
type MeasureInfo = { label: string; unit?: string; singular?: string; digits: number };

export const MEASURES: Record<string, MeasureInfo> = {
  temperature: { label: 'Température', unit: '°C', digits: 1 },
  probe_temperature: { label: 'Sonde externe', unit: '°C', digits: 1 },
  probe2_temperature: { label: 'Sonde externe 2', unit: '°C', digits: 1 },
  humidity: { label: 'Humidité', unit: '%', digits: 0 },
  co2: { label: 'CO₂', unit: 'ppm', digits: 0 },
  visitors: { label: 'Visiteurs', unit: 'visiteurs', singular: 'visiteur', digits: 0 },
  open: { label: 'Porte', digits: 0 },
  door: { label: 'Porte', digits: 0 },
  battery: { label: 'Batterie', unit: '%', digits: 0 },
  rssi: { label: 'Signal', unit: 'dBm', digits: 0 },
};

/** The French name of a measure key, or the key itself. */
export function measureLabel(key: string): string {
  return MEASURES[key]?.label ?? key;
}

/** The unit of a measure key, if it has one. */
export function measureUnit(key: string): string | undefined {
  return MEASURES[key]?.unit;
}

/**
 * A number in French notation (« 4,2 », « 12 500 », « −18 »), rounded to `digits` decimals;
 * `fixed` always shows them (« −18,0 »). Negative values take the minus sign U+2212.
 */
export function formatNumber(value: number, digits = 2, fixed = false): string {
  return numberFormat(digits, fixed ? digits : 0)
    .format(value)
    .replace(/[\u00A0\u202F ]/g, NNBSP)
    .replace(/^[-\u2212]/, MINUS);
}

/** Decimals a measure is shown with, on cards and in the chart alike. */
export function measureDigits(key: string): number {
  return MEASURES[key]?.digits ?? 2;
}

/**
 * A value with its unit, French typography (narrow no-break space before the unit):
 * `temperature 4.25` → « 4,3 °C », `open 1` → « Ouverte », unknown keys raw.
 */
export function formatMeasure(key: string, value: number): string {
  if (key === 'open' || key === 'door') return value ? 'Ouverte' : 'Fermée';
  const info = MEASURES[key];
  if (!info) return formatNumber(value);
  const number = formatNumber(value, info.digits, true);
  // French singular for 0 and 1: « 0 visiteur », « 1 visiteur », « 2 visiteurs ».
  const unit = info.singular && Math.abs(Math.round(value)) < 2 ? info.singular : info.unit;
  return unit ? `${number}${NNBSP}${unit}` : number;
}

/** A limit as rules are read: signed, with its unit, without needless decimals (« +8 °C », « −18 °C », « +3,5 °C »). */
export function formatThreshold(key: string, value: number): string {
  const number = formatNumber(value, measureDigits(key));
  const unit = measureUnit(key);
  return `${value > 0 ? '+' : ''}${number}${unit ? `${NNBSP}${unit}` : ''}`;
}

/** Keys in the order a card shows them: the most telling measure first. */
const PRIORITY = ['temperature', 'humidity', 'co2', 'visitors', 'open', 'door'];
const SECONDARY = new Set(['battery', 'rssi']);

/** The key a card shows in front: a known measure first, then any, battery and signal last. */
export function mainMeasureKey(latest: Record<string, unknown>): string | null {
  const keys = Object.keys(latest);
  if (keys.length === 0) return null;
  const known = PRIORITY.find((key) => keys.includes(key));
  if (known) return known;
  return [...keys].sort().find((key) => !SECONDARY.has(key)) ?? keys.find((key) => key === 'rssi') ?? keys[0] ?? null;
}

/** A second telling measure a card shows beside the main one (the humidity of a cold room), if the device reports one. */
export function secondaryMeasureKey(latest: Record<string, unknown>, main: string | null): string | null {
  if (!main || !PRIORITY.includes(main)) return null;
  return PRIORITY.find((key) => key !== main && key in latest) ?? null;
}

/**
 * A formatter made on first use, not when the module loads: the first of each kind loads the
 * locale's data, tens of milliseconds on a phone, paid by every page that imports this module
 * (« Tâches du jour » among them) even when it never shows an age or a date in words.
 */
function onFirstUse<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

const relativeFormat = onFirstUse(() => new Intl.RelativeTimeFormat('fr', { numeric: 'auto', style: 'short' }));

/** How long ago `ts` was, in French: « à l'instant », « il y a 2 min », « il y a 3 heures »… */
export function formatAge(ts: string | number, now: number): string {
  const then = typeof ts === 'number' ? ts : Date.parse(ts);
  if (Number.isNaN(then)) return '';
  const seconds = Math.round((now - then) / 1000);
  if (seconds < 10) return 'à l’instant';
  // In seconds under a minute: « à l'instant » beside « Hors ligne » would contradict it.
  if (seconds < 60) return relativeFormat().format(-seconds, 'second').replace(/ /g, '\u00A0');
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return relativeFormat().format(-minutes, 'minute').replace(/ /g, '\u00A0');
  const hours = Math.round(minutes / 60);
  if (hours < 24) return relativeFormat().format(-hours, 'hour').replace(/ /g, '\u00A0');
  const days = Math.round(hours / 24);
  if (days < 31) return relativeFormat().format(-days, 'day').replace(/ /g, '\u00A0');
  const months = Math.round(days / 30);
  if (months < 12) return relativeFormat().format(-months, 'month').replace(/ /g, '\u00A0');
  return relativeFormat()
    .format(-Math.round(days / 365), 'year')
    .replace(/ /g, '\u00A0');
}

/** An absolute date and time for a tooltip or a detail page: « 1er déc. 2026 à 21 h 32 ». */
export function formatDateTime(ts: string | number): string {
  return formatDateAt(ts, undefined, 'medium');
}

const dateFormat = onFirstUse(() => new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'long', year: 'numeric' }));

/** A day in words: « 22 décembre 2026 ». */
export function formatDate(ts: string | number): string {
  return dateFormat().format(new Date(ts));
}
