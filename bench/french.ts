/** French typography for the benchmarks' reports: narrow no-break space for thousands, a true minus, « — » for no figure. */
export const NNBSP = '\u202f';
export const NBSP = '\u00a0';

export function frenchNumber(n: number, digits: number): string {
  return Number.isFinite(n)
    ? n
        .toLocaleString('fr-FR', { minimumFractionDigits: digits, maximumFractionDigits: digits })
        .replace(/[\u00a0\u202f ]/g, NNBSP)
        .replace('-', '−')
    : '—';
}
