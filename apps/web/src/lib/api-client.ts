import { API_BASE_URL } from '@/config/constants';

/** An API failure; `status` is 0 when the server could not be reached. */
export class ApiError extends Error {
  readonly status: number;

  constructor(message: string, status: number) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

export type ApiRequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  token?: string | null;
  signal?: AbortSignal;
  baseUrl?: string;
};

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

function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/**
 * Calls the API under `/api`. Resolves with the parsed JSON body (undefined for an empty body
 * such as a 204) and rejects with an {@link ApiError} carrying the text to show.
 */
export async function apiRequest<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const { method = 'GET', body, token, signal, baseUrl = API_BASE_URL } = options;
  const headers: Record<string, string> = { Accept: 'application/json' };
  // The JSON content type goes with a JSON body; an empty DELETE declared as JSON is invalid.
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers['Authorization'] = `Bearer ${token}`;

  let response: Response;
  try {
    response = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (isAbortError(error)) throw error;
    const message = error instanceof Error && error.message ? error.message : 'Network error';
    throw new ApiError(message, 0);
  }

  if (!response.ok) {
    throw new ApiError(await readErrorText(response), response.status);
  }
  if (response.status === 204) return undefined as T;

  const text = await response.text();
  if (!text) return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ApiError('Réponse du serveur illisible.', response.status);
  }
}

export const api = {
  get: <T>(path: string, options?: Omit<ApiRequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  delete: <T = void>(path: string, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};
