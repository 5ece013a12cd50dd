const NNBSP = '\u202F';

/** « 12 min », « 2 h 05 », « 3 j 4 h » between two instants. */
export function formatDuration(fromIso: string, toMs: number): string {
  const minutes = Math.max(0, Math.round((toMs - Date.parse(fromIso)) / 60_000));
  if (minutes < 60) return `${minutes}${NNBSP}min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours}${NNBSP}h` : `${hours}${NNBSP}h${NNBSP}${String(minutes % 60).padStart(2, '0')}`;
  return `${Math.floor(hours / 24)}${NNBSP}j${NNBSP}${hours % 24}${NNBSP}h`;
}
