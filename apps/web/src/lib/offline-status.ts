/**
 * Whether the page works offline, and how old its values are. The service worker (public/sw.js)
 * answers the dashboard's reads from what it kept when the network fails, marking them with the
 * time they were stored: the header below. The API client hands every answer here; the live
 * stream says when the server was last heard.
 */
export const OFFLINE_HEADER = 'x-vigie-offline';

export type OfflineStatus = {
  /** The browser is offline, or values on screen came from the worker's store. */
  offline: boolean;
  /** When the values on screen were last current (ms): the oldest stored answer shown, else the server last heard; null if unknown. */
  valuesAt: number | null;
};

const ONLINE: OfflineStatus = { offline: false, valuesAt: null };

export function createOfflineStatus(now: () => number = Date.now) {
  let online = true;
  /** Stored answers were received since the server was last heard; the oldest was stored at `storedAt` (null: unknown). */
  let fromStore = false;
  let storedAt: number | null = null;
  let heardAt: number | null = null;
  let snapshot = ONLINE;
  const listeners = new Set<() => void>();

  const update = () => {
    const offline = !online || fromStore;
    const valuesAt = !offline ? null : fromStore ? storedAt : heardAt;
    if (snapshot.offline === offline && snapshot.valuesAt === valuesAt) return;
    snapshot = offline ? { offline, valuesAt } : ONLINE;
    for (const listener of listeners) listener();
  };

  const heard = () => {
    heardAt = now();
    if (fromStore) {
      fromStore = false;
      storedAt = null;
      update();
    }
  };

  const onOnline = () => {
    online = true;
    // Back online: the lists are read again; a read the worker still answers from its store says so.
    fromStore = false;
    storedAt = null;
    update();
  };
  const onOffline = () => {
    online = false;
    update();
  };

  return {
    subscribe(listener: () => void): () => void {
      if (listeners.size === 0 && typeof window !== 'undefined') {
        window.addEventListener('online', onOnline);
        window.addEventListener('offline', onOffline);
        online = typeof navigator === 'undefined' || navigator.onLine !== false;
        update();
      }
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && typeof window !== 'undefined') {
          window.removeEventListener('online', onOnline);
          window.removeEventListener('offline', onOffline);
        }
      };
    },
    getSnapshot: (): OfflineStatus => snapshot,
    /** An answer of the API: from the worker's store (the offline header), or from the server. */
    noteAnswer(response: Response): void {
      const stored = response.headers.get(OFFLINE_HEADER);
      if (stored !== null) {
        const at = Date.parse(stored);
        const known = Number.isFinite(at) ? at : null;
        // The oldest one tells how old the screen may be; one of unknown age makes it unknown.
        storedAt = !fromStore ? known : storedAt === null || known === null ? null : Math.min(storedAt, known);
        fromStore = true;
        update();
      } else if (response.ok) heard();
    },
    /** Data from the live stream: the server is reachable and the values current. */
    noteHeard: heard,
  };
}

/** The page's status, shared by the API client, the live stream and the banner. */
export const offlineStatus = createOfflineStatus();
