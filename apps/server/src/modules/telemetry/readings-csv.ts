import { csvLocalDateTime } from '../../lib/csv.ts';
import type { ReadingCursor } from './reading-dal.ts';

const PAGE = 5000;

/** Measure names and units for a spreadsheet reader; the keys the simulator and devices send. */
const MEASURES: ReadonlyMap<string, { label: string; unit: string }> = new Map([
  ['temperature', { label: 'Température', unit: '°C' }],
  ['humidity', { label: 'Humidité', unit: '%' }],
  ['co2', { label: 'CO₂', unit: 'ppm' }],
  ['battery', { label: 'Batterie', unit: '%' }],
  ['door', { label: 'Porte', unit: '' }],
  ['contact', { label: 'Porte', unit: '' }],
  ['open', { label: 'Porte ouverte', unit: '' }],
  ['visitors', { label: 'Visiteurs', unit: '' }],
  ['footfall', { label: 'Visiteurs', unit: '' }],
  ['rssi', { label: 'Signal radio', unit: 'dBm' }],
]);

export const CSV_HEADER = 'Date et heure (locale);Horodatage UTC;Mesure;Valeur;Unité';
/** The column a verified sensor's export adds: what it measured before its verification's correction. */
export const RAW_COLUMN = 'Valeur brute (avant correction)';

/** The French name and unit of a measured key; an unknown key keeps its name, with no unit. */
export function describeMeasure(key: string): { label: string; unit: string } {
  // A map: a key named like an object's own property (`constructor`) is a name like any other.
  return MEASURES.get(key) ?? { label: key, unit: '' };
}

/**
 * CSV lines of a device's readings for French spreadsheet software (« ; », decimal comma, a BOM
 * so accents and °C read right), fetched a page at a time so a year of data never sits in memory.
 */
export async function* csvRows(
  page: (after: ReadingCursor | undefined, limit: number) => Promise<(ReadingCursor & { value: number })[]>,
  timeZone: string,
  /** A verified sensor: the correction each reading was stored with (its raw value is the stored one plus it). */
  correction?: (key: string, ts: Date) => number,
): AsyncGenerator<string> {
  const local = csvLocalDateTime(timeZone);
  const number = (value: number) => String(value).replace('.', ',');
  const raw = correction
    ? (row: { key: string; ts: Date; value: number }) => `;${number(Math.round((row.value + correction(row.key, row.ts)) * 1000) / 1000)}`
    : () => '';
  yield `\uFEFF${CSV_HEADER}${correction ? `;${RAW_COLUMN}` : ''}\r\n`;
  let after: ReadingCursor | undefined;
  for (;;) {
    const rows = await page(after, PAGE);
    if (rows.length === 0) return;
    yield rows
      .map((row) => {
        const { label, unit } = describeMeasure(row.key);
        return `${local(row.ts)};${row.ts.toISOString()};${label};${number(row.value)};${unit}${raw(row)}\r\n`;
      })
      .join('');
    const last = rows[rows.length - 1];
    if (!last || rows.length < PAGE) return;
    after = { ts: last.ts, key: last.key, id: last.id };
  }
}
