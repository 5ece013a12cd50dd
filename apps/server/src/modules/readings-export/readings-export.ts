import { csvCell } from '../../lib/csv.ts';
import { offsetAt } from '../../lib/local-time.ts';

/** One page of a sensor's readings, oldest first in (ts, key, id) order, after the cursor. */
export type ReadingsPage = (
  sensorId: string,
  after: { ts: Date; key: string; id: number } | undefined,
  limit: number,
) => Promise<{ ts: Date; key: string; id: number; value: number }[]>;

/** A sensor of the export, with its shop's name and time zone. */
export interface ExportedSensor {
  id: string;
  name: string;
  siteName: string;
  timeZone: string;
}

export const READINGS_CSV_HEADER = 'capteur;id;magasin;horodatage;mesure;valeur';
const PAGE = 5000;
/** Time zones change their offset on a quarter hour at most: each quarter's offset is computed once. */
const SLOT_MS = 15 * 60_000;

const pad = (value: number, length = 2) => String(value).padStart(length, '0');

/**
 * A time's wall clock in `timeZone` as `AAAA-MM-JJ HH:MM:SS`. The zone's offset is computed once per
 * quarter hour (Intl is slow for ten million lines), then the fields are read from the shifted time.
 */
export function localTimestamp(timeZone: string): (date: Date) => string {
  const offsets = new Map<number, number>();
  return (date) => {
    const ms = date.getTime();
    const slot = Math.floor(ms / SLOT_MS) * SLOT_MS;
    let offset = offsets.get(slot);
    if (offset === undefined) {
      offset = offsetAt(slot, timeZone);
      if (offsets.size > 10_000) offsets.clear();
      offsets.set(slot, offset);
    }
    const local = new Date(ms + offset);
    return `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())} ${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`;
  };
}

/**
 * Every reading of these sensors as CSV for a French spreadsheet (docs/api.md, Export des lectures):
 * BOM, « ; », decimal comma, each shop's local time. Sensor after sensor, a page at a time: what is
 * held is one page, whatever the number of lines; the caller's stream asks for the next when sent.
 */
export async function* readingsCsv(sensors: readonly ExportedSensor[], page: ReadingsPage): AsyncGenerator<string> {
  yield `\uFEFF${READINGS_CSV_HEADER}\r\n`;
  const clocks = new Map<string, (date: Date) => string>();
  for (const sensor of sensors) {
    let local = clocks.get(sensor.timeZone);
    if (!local) {
      local = localTimestamp(sensor.timeZone);
      clocks.set(sensor.timeZone, local);
    }
    const prefix = `${csvCell(sensor.name)};${sensor.id};${csvCell(sensor.siteName)};`;
    let after: { ts: Date; key: string; id: number } | undefined;
    for (;;) {
      const rows = await page(sensor.id, after, PAGE);
      if (rows.length > 0) {
        let chunk = '';
        for (const row of rows) chunk += `${prefix}${local(row.ts)};${row.key};${String(row.value).replace('.', ',')}\r\n`;
        yield chunk;
      }
      const last = rows.at(-1);
      if (!last || rows.length < PAGE) break;
      after = { ts: last.ts, key: last.key, id: last.id };
    }
  }
}
