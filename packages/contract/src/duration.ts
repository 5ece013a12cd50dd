/**
 * French durations for reports, without zod so that the web app can import it alone
 * (`@vigie/contract/duration`): « 40 s », « 45 min », « 2 h 05 min », « 3 j 4 h »; « 0 min » for nothing.
 * `space` is the non-breaking space between a number and its unit (U+202F by default).
 */
export function formatDuration(seconds: number, space = '\u202f'): string {
  if (seconds <= 0) return `0${space}min`;
  if (seconds < 60) return `${Math.round(seconds)}${space}s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes}${space}min`;
  if (minutes < 24 * 60) {
    const rest = minutes % 60;
    return `${Math.floor(minutes / 60)}${space}h${rest ? `${space}${String(rest).padStart(2, '0')}${space}min` : ''}`;
  }
  const hours = Math.round(minutes / 60);
  const rest = hours % 24;
  const days = Math.floor(hours / 24);
  // Thousands grouped with the same narrow space as French numbers (« 1 000 j »).
  const dayText = String(days).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
  return `${dayText}${space}j${rest ? `${space}${rest}${space}h` : ''}`;
}
