import type { LoginChallengeResponse, LoginRequest, LoginResponse, Route } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { apiFetch, endpointPath } from '@/lib/api-client';

/** A token; or, with two-factor authentication on, the challenge to send back with a code; or the text of a failure. */
export type LoginAttempt = { ok: true; token: string } | { ok: true; challenge: string } | { ok: false; error: string };

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

async function post(endpoint: Route<'POST'>, body: unknown): Promise<Response | null> {
  try {
    return await apiFetch(endpointPath(endpoint), { method: 'POST', headers: { Accept: 'application/json' }, body });
  } catch {
    return null;
  }
}

async function readAttempt(response: Response | null): Promise<LoginAttempt> {
  if (!response) return { ok: false, error: LOGIN_ERRORS.network };
  if (!response.ok) {
    const message = await readServerMessage(response);
    return { ok: false, error: message ?? `Erreur ${response.status}: ${response.statusText}`.trim() };
  }

  const data = (await response.json().catch(() => null)) as Partial<LoginResponse & LoginChallengeResponse> | null;
  if (data?.totpRequired === true && typeof data.challenge === 'string' && data.challenge) {
    return { ok: true, challenge: data.challenge };
  }
  const token = data?.accessToken;
  if (typeof token !== 'string' || !token) return { ok: false, error: LOGIN_ERRORS.noToken };
  return { ok: true, token };
}

/**
 * endpoints.auth.login. Failures come back as the text to show: the server's message, else
 * `Erreur {status}: {statusText}`, `Token non reçu du serveur` without an access token, and
 * the connection message when the server cannot be reached.
 */
export async function requestAccessToken(credentials: LoginRequest): Promise<LoginAttempt> {
  return readAttempt(await post(endpoints.auth.login, credentials));
}

/** endpoints.auth.loginWithCode: the second step, with the code of the authenticator app or a recovery code. */
export async function requestAccessTokenWithCode(challenge: string, code: string): Promise<LoginAttempt> {
  return readAttempt(await post(endpoints.auth.loginWithCode, { challenge, code }));
}

/** endpoints.sso.exchange: the one-time code of a sign-in through single sign-on, for the same answer as a login. */
export async function requestAccessTokenWithSsoCode(code: string): Promise<LoginAttempt> {
  return readAttempt(await post(endpoints.sso.exchange, { code }));
}
