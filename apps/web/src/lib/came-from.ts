import { useLocation } from 'react-router';

/** The page a person left to open another one: its address (with its query) and its name. */
export type CameFrom = { path: string; label: string };

/** The history state a link passes so that the page it opens can lead back where the person was. */
export type CameFromState = { from: CameFrom };

/**
 * The page named by a location's state, or null when the state says nothing usable. History
 * state outlives the code that wrote it (a reload, an old tab), so it is checked, and only a
 * path of this app is accepted: never another site's address.
 */
export function cameFrom(state: unknown): CameFrom | null {
  if (typeof state !== 'object' || state === null) return null;
  const from: unknown = (state as { from?: unknown }).from;
  if (typeof from !== 'object' || from === null) return null;
  const { path, label } = from as { path?: unknown; label?: unknown };
  if (typeof path !== 'string' || typeof label !== 'string' || !label.trim()) return null;
  if (!path.startsWith('/') || path.startsWith('//')) return null;
  return { path, label };
}

/** The state for a link leaving the current page, which `label` names (« Magasins », « Alerte »…). */
export function useCameFromHere(label: string): CameFromState {
  const { pathname, search } = useLocation();
  return { from: { path: `${pathname}${search}`, label } };
}
