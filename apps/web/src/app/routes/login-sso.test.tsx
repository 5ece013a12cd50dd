import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeAuth, jsonResponse, renderWithProviders } from '@/testing/render';
import LoginSsoRoute from './login-sso';

let exchanged: unknown[];

beforeEach(() => {
  exchanged = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    if (url !== '/api/auth/sso/exchange') return jsonResponse(404, { message: 'Introuvable' });
    const body = JSON.parse(String(init?.body)) as { code: string };
    exchanged.push(body);
    return body.code === 'bon-code'
      ? jsonResponse(200, { accessToken: 'jeton-sso' })
      : jsonResponse(401, { message: 'Ce code de connexion n’est plus valable.' });
  });
});

afterEach(() => vi.unstubAllGlobals());

function renderAt(hash: string) {
  const startSession = vi.fn(async () => ({ success: true }));
  renderWithProviders(<LoginSsoRoute />, {
    path: '/login/sso',
    initialEntries: [`/login/sso${hash}`],
    auth: fakeAuth({ token: null, user: null, startSession }),
  });
  return startSession;
}

describe('LoginSsoRoute', () => {
  it('exchanges the code of the fragment once, keeps the session as a login does, and goes to the page first asked for', async () => {
    const startSession = renderAt(`#code=bon-code&next=${encodeURIComponent('/dashboard/alerts?site=1')}`);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard/alerts?site=1'));
    expect(exchanged).toEqual([{ code: 'bon-code' }]);
    expect(startSession).toHaveBeenCalledWith('jeton-sso');
  });

  it('never leaves for another site, and goes back to /login with the reason when the code is refused', async () => {
    const startSession = renderAt(`#code=vieux-code&next=${encodeURIComponent('//ailleurs.example')}`);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login?sso=code'));
    expect(startSession).not.toHaveBeenCalled();
  });
});
