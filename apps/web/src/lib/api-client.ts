import type { CallArguments, PathParams, QueryValues, ResponseOf, Route } from '@vigie/contract';
import { pathOf } from '@vigie/contract/values';
import { API_BASE_URL } from '@/config/constants';
import { OFFLINE_HEADER, offlineStatus } from './offline-status';
import { EVENT_POSITION_HEADER, readPositions } from './read-positions';

/** An API failure; `status` is 0 when the server could not be reached. */
export class ApiError extends Error {
  readonly status: number;

  constructor(message: string, status: number) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type ApiRequestOptions = {
  method?: Method;
  body?: unknown;
  signal?: AbortSignal;
  baseUrl?: string;
  /** See {@link ApiFetchOptions.token}. */
  token?: string;
};

export type ApiFetchOptions = {
  method?: Method;
  /** Sent as JSON when defined. */
  body?: unknown;
  /** Sent as multipart/form-data instead (a photo): the browser writes its boundary. */
  multipart?: FormData;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  cache?: RequestCache;
  baseUrl?: string;
  /**
   * The bearer to send instead of the session's: a read started before the session is checked
   * (lib/early-fetch.ts). A 401 to such a call leaves the verdict to the session check.
   */
  token?: string;
};

// The session the client speaks for: set at login or from storage, cleared at sign-out.
let accessToken: string | null = null;
let onUnauthorized: (() => void) | null = null;

/** The bearer token sent with every call; `null` signs the client out. */
export function setAccessToken(token: string | null): void {
  accessToken = token;
}

export function getAccessToken(): string | null {
  return accessToken;
}

/**
 * Called when the server refuses the current token (401 on a call that carried one): the
 * session is over. The auth provider signs out there.
 */
export function setUnauthorizedHandler(handler: (() => void) | null): void {
  onUnauthorized = handler;
}

/**
 * The text a person reads for a failed response: the `message` of a JSON body, else the raw
 * body text, else `HTTP {status}: {statusText}`. A JSON body without a message falls back to
 * the status line so that raw JSON never reaches the screen.
 */
export async function readErrorText(response: Response): Promise<string> {
  const fallback = `HTTP ${response.status}: ${response.statusText}`.trim();
  const text = (await response.text().catch(() => '')).trim();
  if (!text) return fallback;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object') {
      const message = (parsed as { message?: unknown }).message;
      return typeof message === 'string' && message.trim() ? message : fallback;
    }
  } catch {
    // Not JSON: the raw text is the message.
  }
  return text;
}

export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/**
 * The one place that calls `fetch`: adds the base path and the bearer token, and turns a
 * network failure into an {@link ApiError} with status 0 (an abort is rethrown as is). The raw
 * response is returned, whatever its status; a 401 to a call that carried the token ends the
 * session.
 */
export async function apiFetch(path: string, options: ApiFetchOptions = {}): Promise<Response> {
  const { method = 'GET', body, signal, cache, baseUrl = API_BASE_URL } = options;
  const headers: Record<string, string> = { ...options.headers };
  // The JSON content type goes with a JSON body; an empty DELETE declared as JSON is invalid.
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const ownToken = options.token !== undefined;
  const token = ownToken ? options.token : accessToken;
  if (token) headers['Authorization'] = `Bearer ${token}`;

  const startedAt = performance.now();
  let response: Response;
  try {
    response = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: options.multipart ?? (body === undefined ? undefined : JSON.stringify(body)),
      signal,
      ...(cache ? { cache } : {}),
    });
  } catch (error) {
    if (isAbortError(error)) throw error;
    const message = error instanceof Error && error.message ? error.message : 'Network error';
    throw new ApiError(message, 0);
  }
  if (response.status === 401 && token && !ownToken && token === accessToken) onUnauthorized?.();
  offlineStatus.noteAnswer(response);
  // An answer the service worker kept from an earlier visit (offline) says nothing of where the page's reads stand now.
  const position = response.ok && !response.headers.has(OFFLINE_HEADER) ? response.headers.get(EVENT_POSITION_HEADER) : null;
  if (position) readPositions.noteRead(position, startedAt);
  return response;
}

/** Throws the {@link ApiError} a failed response stands for; returns an OK response. */
async function ensureOk(response: Response): Promise<Response> {
  if (!response.ok) throw new ApiError(await readErrorText(response), response.status);
  return response;
}

/**
 * Calls the API under `/api`. Resolves with the parsed JSON body (undefined for an empty body
 * such as a 204) and rejects with an {@link ApiError} carrying the text to show.
 */
export async function apiRequest<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const response = await ensureOk(await apiFetch(path, { ...options, headers: { Accept: 'application/json' } }));
  if (response.status === 204) return undefined as T;

  const text = await response.text();
  if (!text) return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ApiError('Réponse du serveur illisible.', response.status);
  }
}

/** A file from the API (e.g. a CSV export), with the name the server proposes for it. */
export async function apiBlob(
  path: string,
  options: { accept: string; signal?: AbortSignal; baseUrl?: string },
): Promise<{ blob: Blob; disposition: string | null }> {
  const response = await ensureOk(
    await apiFetch(path, { headers: { Accept: options.accept }, signal: options.signal, baseUrl: options.baseUrl }),
  );
  return { blob: await response.blob(), disposition: response.headers.get('content-disposition') };
}

type Options = Omit<ApiRequestOptions, 'method' | 'body'>;

export const api = {
  get: <T>(path: string, options?: Options) => apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Options) => apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Options) => apiRequest<T>(path, { ...options, method: 'PUT', body }),
  delete: <T = void>(path: string, options?: Options) => apiRequest<T>(path, { ...options, method: 'DELETE' }),
};

/**
 * The path of an endpoint of the catalogue, parameters and query filled in, relative to the API's
 * base (what {@link apiFetch} and {@link apiBlob} take): `/sites/3f…` for `endpoints.sites.get`.
 */
export function endpointPath<P extends string>(endpoint: { readonly path: P }, params?: PathParams<P>, query?: QueryValues): string {
  const full = pathOf(endpoint, params, query);
  return full.startsWith(`${API_BASE_URL}/`) ? full.slice(API_BASE_URL.length) : full;
}

/**
 * Calls an endpoint of the catalogue by name: `call(endpoints.sites.update, { params: { id }, body })`.
 * Resolves with the parsed JSON body (undefined for a 204), rejects with an {@link ApiError}. Its
 * options and its answer are typed from the endpoint's schemas (`@vigie/contract`'s `CallOptions`
 * and `ResponseOf`, types only: no schema reaches the bundle).
 */
export function call<R extends Route>(endpoint: R, ...[options]: CallArguments<R>): Promise<ResponseOf<R>> {
  const { params, query, body, signal } = (options ?? {}) as {
    params?: PathParams<string>;
    query?: QueryValues;
    body?: unknown;
    signal?: AbortSignal;
  };
  return apiRequest<ResponseOf<R>>(endpointPath(endpoint, params, query), {
    method: endpoint.method,
    body,
    ...(signal ? { signal } : {}),
  });
}
