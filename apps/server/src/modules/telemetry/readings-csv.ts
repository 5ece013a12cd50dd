import type { ReadingRow } from './reading-dal.ts';

const PAGE = 5000;

export const CSV_HEADER = 'date_heure_locale;horodatage_utc;mesure;valeur';

/**
 * CSV lines of a device's readings for French spreadsheet software (« ; », decimal comma, a BOM
 * so accents and °C read right), fetched a page at a time so a year of data never sits in memory.
 */
export async function* csvRows(
  page: (after: { ts: Date; key: string } | undefined, limit: number) => Promise<Pick<ReadingRow, 'ts' | 'key' | 'value'>[]>,
  timeZone: string,
): AsyncGenerator<string> {
  const local = new Intl.DateTimeFormat('fr-FR', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const number = (value: number) => String(value).replace('.', ',');
  yield `\uFEFF${CSV_HEADER}\r\n`;
  let after: { ts: Date; key: string } | undefined;
  for (;;) {
    const rows = await page(after, PAGE);
    if (rows.length === 0) return;
    yield rows
      .map((row) => `${local.format(row.ts).replace(',', '')};${row.ts.toISOString()};${row.key};${number(row.value)}\r\n`)
      .join('');
    const last = rows[rows.length - 1];
    if (!last || rows.length < PAGE) return;
    after = { ts: last.ts, key: last.key };
  }
}
