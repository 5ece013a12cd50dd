/**
 * Reads started at page load, before the session is checked (render-as-you-fetch). A returning user
 * opening a signed-in page would otherwise wait for the session check (`endpoints.user.me`), then for the frame and the
 * screen's code, before the screen even asks for its data: here the screen's reads leave with the
 * session check, carrying the stored token, and the screen's queries take their answers when they
 * first run.
 *
 * An answer only ever stands in for the call that would have carried the very same token: it is
 * kept under the path and the token it was fetched with, given once, and dropped when the session's
 * token differs (another account signed in meanwhile), when it is too old, or at sign-out. The
 * queries that take it run only once the session check has accepted that token and named its user,
 * so the answer lands under that user's query key. A failed early read is never shown: the call is
 * simply made again, as if there had been none.
 */
import { apiRequest, getAccessToken } from './api-client';

/** An early answer older than this is not used (the queries' own freshness): the screen reads again. */
export const EARLY_FETCH_MAX_AGE_MS = 30_000;

type Arrival = { ok: true; data: unknown; at: number } | { ok: false };

type EarlyFetch = {
  token: string;
  startedAt: number;
  controller: AbortController;
  promise: Promise<unknown>;
  /** Set once the answer is in: a screen mounting after it draws it in its first render. */
  arrival?: Arrival;
};

const started = new Map<string, EarlyFetch>();

/**
 * Starts `GET /api{path}` with `token`, unless the same read is already under way with it. `path` is
 * the one the screen's own call uses (`endpointPath(endpoints.overview.get)`): it is the key.
 */
export function startEarlyFetch(path: string, token: string): void {
  const current = started.get(path);
  if (current?.token === token) return;
  current?.controller.abort();
  const controller = new AbortController();
  const early: EarlyFetch = { token, startedAt: Date.now(), controller, promise: Promise.resolve() };
  early.promise = apiRequest<unknown>(path, { method: 'GET', token, signal: controller.signal }).then(
    (data) => {
      early.arrival = { ok: true, data, at: Date.now() };
      return data;
    },
    (error: unknown) => {
      early.arrival = { ok: false };
      throw error;
    },
  );
  // Nobody may ever take it: its failure must not surface as an unhandled rejection.
  early.promise.catch(() => undefined);
  started.set(path, early);
}

/** Removes the read kept for `path` and answers it if it may serve the current session's call. */
function claim(path: string): EarlyFetch | null {
  const early = started.get(path);
  if (!early) return null;
  started.delete(path);
  if (early.token !== getAccessToken() || Date.now() - early.startedAt > EARLY_FETCH_MAX_AGE_MS) {
    early.controller.abort();
    return null;
  }
  return early;
}

/**
 * The call for `path`: the early answer when there is one for the current session's token (given
 * once), else — none, another token, too old, or failed — `fetchAgain()`, the call as usual.
 */
export function earlyOr<T>(path: string, fetchAgain: () => Promise<T>): Promise<T> {
  const early = claim(path);
  if (!early) return fetchAgain();
  return (early.promise as Promise<T>).catch(() => fetchAgain());
}

/**
 * The early answer for `path` if it is already in and may serve the current session (given once,
 * with when it arrived), for a query's `initialData`: the screen draws it in its first render rather
 * than after a loading one. Undefined otherwise; a read still under way is left for {@link earlyOr}.
 */
export function takeArrivedEarly(path: string): { data: unknown; at: number } | undefined {
  if (!started.get(path)?.arrival) return undefined;
  const arrival = claim(path)?.arrival;
  return arrival?.ok ? { data: arrival.data, at: arrival.at } : undefined;
}

/**
 * A query's `initialData` and `initialDataUpdatedAt` from the early answer for `path`, shaped by
 * `parse` (the same check the query's own call makes; a throw means no initial data, and the query
 * reads again). `enabled`: false while the query's key is not the session's yet (no user).
 */
export function earlyInitialData<T>(
  path: string,
  parse: (data: unknown) => T,
  enabled = true,
): { initialData: () => T | undefined; initialDataUpdatedAt: () => number | undefined } {
  let arrivedAt: number | undefined;
  return {
    initialData: () => {
      const early = enabled ? takeArrivedEarly(path) : undefined;
      if (!early) return undefined;
      try {
        const data = parse(early.data);
        arrivedAt = early.at;
        return data;
      } catch {
        return undefined;
      }
    },
    // Read by the query right after `initialData`, when it gave data: fresh from when it arrived.
    initialDataUpdatedAt: () => arrivedAt,
  };
}

/** At sign-out: every early read is dropped (and stopped when still under way). */
export function discardEarlyFetches(): void {
  for (const early of started.values()) early.controller.abort();
  started.clear();
}
