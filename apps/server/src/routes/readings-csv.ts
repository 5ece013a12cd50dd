import type { ReadingDal } from '../modules/telemetry/reading-dal.ts';

const PAGE = 5000;

/** CSV lines of a device's readings, fetched a page at a time so a year of data never sits in memory. */
export async function* csvRows(
  readings: ReadingDal,
  deviceId: string,
  options: { key?: string | undefined; from: Date; to: Date; timeZone: string },
): AsyncGenerator<string> {
  const local = new Intl.DateTimeFormat('fr-FR', {
    timeZone: options.timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const number = (value: number) => String(value).replace('.', ',');
  // The BOM tells spreadsheet software the file is UTF-8 (accents, °C).
  yield `\uFEFFdate_heure_locale;horodatage_utc;mesure;valeur\r\n`;
  let after: { ts: Date; key: string } | undefined;
  for (;;) {
    const page = await readings.page(deviceId, { key: options.key, from: options.from, to: options.to, after, limit: PAGE });
    if (page.length === 0) return;
    yield page
      .map((row) => `${local.format(row.ts).replace(',', '')};${row.ts.toISOString()};${row.key};${number(row.value)}\r\n`)
      .join('');
    const last = page[page.length - 1];
    if (!last || page.length < PAGE) return;
    after = { ts: last.ts, key: last.key };
  }
}
