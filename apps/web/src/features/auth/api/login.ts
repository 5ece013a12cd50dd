import type { LoginRequest, LoginResponse } from '@vigie/contract';
import { apiFetch } from '@/lib/api-client';

export type LoginAttempt = { ok: true; token: string } | { ok: false; error: string };

export const LOGIN_ERRORS = {
  noToken: 'Token non reçu du serveur',
  userFetch: 'Impossible de récupérer les informations utilisateur',
  network: 'Erreur de connexion. Vérifiez votre connexion internet.',
} as const;

async function readServerMessage(response: Response): Promise<string | null> {
  try {
    const body: unknown = await response.json();
    if (body !== null && typeof body === 'object') {
      const message = (body as { message?: unknown }).message;
      if (typeof message === 'string' && message.trim()) return message;
    }
  } catch {
    // No JSON body: the status line is used instead.
  }
  return null;
}

/**
 * POST /api/auth/login. Failures come back as the text to show: the server's message, else
 * `Erreur {status}: {statusText}`, `Token non reçu du serveur` without an access token, and
 * the connection message when the server cannot be reached.
 */
export async function requestAccessToken(credentials: LoginRequest): Promise<LoginAttempt> {
  let response: Response;
  try {
    response = await apiFetch('/auth/login', { method: 'POST', headers: { Accept: 'application/json' }, body: credentials });
  } catch {
    return { ok: false, error: LOGIN_ERRORS.network };
  }

  if (!response.ok) {
    const message = await readServerMessage(response);
    return { ok: false, error: message ?? `Erreur ${response.status}: ${response.statusText}`.trim() };
  }

  const data = (await response.json().catch(() => null)) as Partial<LoginResponse> | null;
  const token = data?.accessToken;
  if (typeof token !== 'string' || !token) return { ok: false, error: LOGIN_ERRORS.noToken };
  return { ok: true, token };
}
