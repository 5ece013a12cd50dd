import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestQueryClient, jsonResponse } from '@/testing/render';
import type { AuthContextValue, LoginResult } from '@/lib/auth';
import { useAuth } from '@/lib/auth';
import { discardEarlyFetches } from '@/lib/early-fetch';
import { startCurrentUserRead } from '../api/get-current-user';
import { AuthProvider } from './auth-provider';

const user = {
  id: '9f0c6b1e-5d8a-4f6b-9a34-2b1f0e7c1d11',
  name: 'Camille Martin',
  email: 'camille@boutique.fr',
  organization: { id: '1b7e2c3d-4a5b-4c6d-8e9f-0a1b2c3d4e5f', name: 'Démo Boutique' },
};

type Call = { url: string; init: RequestInit | undefined };
let calls: Call[];
let answer: (url: string, init?: RequestInit) => Promise<Response>;

beforeEach(() => {
  calls = [];
  vi.stubGlobal('fetch', (url: string, init?: RequestInit) => {
    calls.push({ url, init });
    return answer(url, init);
  });
});

afterEach(() => {
  discardEarlyFetches();
  vi.unstubAllGlobals();
});

const latest: { auth: AuthContextValue | null } = { auth: null };
function Probe() {
  const value = useAuth();
  useEffect(() => {
    latest.auth = value;
  });
  return (
    <output data-testid="state">{JSON.stringify({ token: value.token, user: value.user?.email ?? null, loading: value.loading })}</output>
  );
}

function auth(): AuthContextValue {
  if (!latest.auth) throw new Error('AuthProvider not rendered');
  return latest.auth;
}

function renderProvider() {
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <AuthProvider>
        <Probe />
      </AuthProvider>
    </QueryClientProvider>,
  );
}

const state = () =>
  JSON.parse(screen.getByTestId('state').textContent ?? '{}') as { token: string | null; user: string | null; loading: boolean };

async function login(email = 'camille@boutique.fr', password = 'secret'): Promise<LoginResult> {
  let result: LoginResult = { success: false };
  await act(async () => {
    result = await auth().login(email, password);
  });
  return result;
}

describe('AuthProvider start-up', () => {
  it('starts loading, then is signed out without a stored token', async () => {
    answer = async () => jsonResponse(500, {});
    renderProvider();
    expect(state().loading).toBe(true);
    await waitFor(() => expect(state()).toEqual({ token: null, user: null, loading: false }));
    expect(calls).toHaveLength(0);
  });

  it('restores the session of a stored token through GET /api/user/me', async () => {
    window.localStorage.setItem('vigie_token', 'stored');
    answer = async () => jsonResponse(200, { user });
    renderProvider();
    await waitFor(() => expect(state()).toEqual({ token: 'stored', user: user.email, loading: false }));
    expect(calls[0]?.url).toBe('/api/user/me');
    expect(new Headers(calls[0]?.init?.headers).get('Authorization')).toBe('Bearer stored');
  });

  it('takes the session check started at page load rather than asking again', async () => {
    window.localStorage.setItem('vigie_token', 'stored');
    answer = async () => jsonResponse(200, { user });
    startCurrentUserRead('stored');
    renderProvider();
    await waitFor(() => expect(state()).toEqual({ token: 'stored', user: user.email, loading: false }));
    expect(calls.map((call) => call.url)).toEqual(['/api/user/me']);
  });

  it('signs out, as without it, when the session check started at page load is refused', async () => {
    window.localStorage.setItem('vigie_token', 'stale');
    answer = async () => jsonResponse(401, { message: 'Session expirée' });
    startCurrentUserRead('stale');
    renderProvider();
    await waitFor(() => expect(state()).toEqual({ token: null, user: null, loading: false }));
    expect(window.localStorage.getItem('vigie_token')).toBeNull();
  });

  it('silently signs out and forgets a token the server refuses', async () => {
    window.localStorage.setItem('vigie_token', 'stale');
    answer = async () => jsonResponse(401, { message: 'Session expirée' });
    renderProvider();
    await waitFor(() => expect(state()).toEqual({ token: null, user: null, loading: false }));
    expect(window.localStorage.getItem('vigie_token')).toBeNull();
  });

  it('keeps the stored token when the server cannot answer at start-up', async () => {
    window.localStorage.setItem('vigie_token', 'stored');
    answer = async () => {
      throw new TypeError('Failed to fetch');
    };
    renderProvider();
    await waitFor(() => expect(state()).toEqual({ token: null, user: null, loading: false }));
    expect(window.localStorage.getItem('vigie_token')).toBe('stored');
  });
});

describe('AuthProvider login', () => {
  async function ready() {
    renderProvider();
    await waitFor(() => expect(state().loading).toBe(false));
  }

  it('posts the credentials, stores the token, then loads the user', async () => {
    answer = async (url) => (url === '/api/auth/login' ? jsonResponse(200, { accessToken: 'fresh' }) : jsonResponse(200, { user }));
    await ready();
    await expect(login()).resolves.toEqual({ success: true });

    expect(calls[0]?.url).toBe('/api/auth/login');
    expect(calls[0]?.init?.method).toBe('POST');
    expect(calls[0]?.init?.body).toBe(JSON.stringify({ email: 'camille@boutique.fr', password: 'secret' }));
    const headers = new Headers(calls[0]?.init?.headers);
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(headers.get('Accept')).toBe('application/json');
    expect(new Headers(calls[1]?.init?.headers).get('Authorization')).toBe('Bearer fresh');
    expect(state()).toEqual({ token: 'fresh', user: user.email, loading: false });
    expect(window.localStorage.getItem('vigie_token')).toBe('fresh');
  });

  it('returns the server message of a refused login', async () => {
    answer = async () => jsonResponse(401, { message: 'Identifiants invalides' }, 'Unauthorized');
    await ready();
    await expect(login()).resolves.toEqual({ success: false, error: 'Identifiants invalides' });
    expect(state()).toEqual({ token: null, user: null, loading: false });
  });

  it("falls back to 'Erreur {status}: {statusText}' without a message", async () => {
    answer = async () => new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' });
    await ready();
    await expect(login()).resolves.toEqual({ success: false, error: 'Erreur 502: Bad Gateway' });
  });

  it("reports 'Token non reçu du serveur' when the answer has no accessToken", async () => {
    answer = async () => jsonResponse(200, {});
    await ready();
    await expect(login()).resolves.toEqual({ success: false, error: 'Token non reçu du serveur' });
    expect(window.localStorage.getItem('vigie_token')).toBeNull();
  });

  it("reports 'Impossible de récupérer les informations utilisateur' when the user cannot be loaded", async () => {
    answer = async (url) =>
      url === '/api/auth/login' ? jsonResponse(200, { accessToken: 'fresh' }) : jsonResponse(500, { message: 'Panne' });
    await ready();
    await expect(login()).resolves.toEqual({ success: false, error: 'Impossible de récupérer les informations utilisateur' });
    expect(state()).toEqual({ token: null, user: null, loading: false });
    expect(window.localStorage.getItem('vigie_token')).toBeNull();
  });

  it('reports the connection message when the network fails', async () => {
    answer = async () => {
      throw new TypeError('Failed to fetch');
    };
    await ready();
    await expect(login()).resolves.toEqual({ success: false, error: 'Erreur de connexion. Vérifiez votre connexion internet.' });
  });

  it('logout clears the user, the token and the stored token', async () => {
    answer = async (url) => (url === '/api/auth/login' ? jsonResponse(200, { accessToken: 'fresh' }) : jsonResponse(200, { user }));
    await ready();
    await login();
    act(() => auth().logout());
    expect(state()).toEqual({ token: null, user: null, loading: false });
    expect(window.localStorage.getItem('vigie_token')).toBeNull();
  });

  it('starts a session from a token obtained otherwise (an accepted invitation), as a login does', async () => {
    answer = async () => jsonResponse(200, { user });
    await ready();
    let result: LoginResult = { success: false };
    await act(async () => {
      result = await auth().startSession('invited');
    });
    expect(result).toEqual({ success: true });
    expect(calls.map((call) => call.url)).toEqual(['/api/user/me']);
    expect(new Headers(calls[0]?.init?.headers).get('Authorization')).toBe('Bearer invited');
    expect(state()).toEqual({ token: 'invited', user: user.email, loading: false });
    expect(window.localStorage.getItem('vigie_token')).toBe('invited');
  });
});
