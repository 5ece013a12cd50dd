/**
 * Cells of a CSV file for a French spreadsheet, shared by every export (the monthly report, the
 * journal, a sensor's readings, the bulk export): `;` between fields, a decimal comma, text that a
 * spreadsheet will not run as a formula, dates as French spreadsheets read them.
 */

/** A number with a decimal comma, `digits` decimals, ASCII minus, no grouping; empty for null. */
export function csvNumber(value: number | null, digits = 1): string {
  if (value === null) return '';
  const fixed = value.toFixed(digits);
  return (/^-0(\.0*)?$/.test(fixed) ? fixed.slice(1) : fixed).replace('.', ',');
}

/**
 * Free text typed by people (names, actions): a leading = + - @ would make a spreadsheet run it as
 * a formula, so such text gets a leading apostrophe, which spreadsheets show as text.
 */
export function csvText(value: string | null): string {
  if (value === null) return '';
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** Quotes a field holding the separator, a quote or a line break; doubles its quotes. */
export function csvField(value: string): string {
  return /[;"\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** A date and time as French spreadsheets read it in `timeZone`: `25/11/2026 14:03:07`. */
export function csvLocalDateTime(timeZone: string): (date: Date) => string {
  const local = new Intl.DateTimeFormat('fr-FR', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  return (date) => local.format(date).replace(',', '');
}

/** A name typed by people as one cell: never read as a formula, quoted when it must be. */
export function csvCell(value: string): string {
  return csvField(csvText(value));
}
