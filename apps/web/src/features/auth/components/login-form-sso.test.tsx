import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeAuth, jsonResponse, renderWithProviders } from '@/testing/render';
import { LoginForm } from './login-form';
import { ssoNavigation } from './use-login';

let asked: string[];

beforeEach(() => {
  asked = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const { email } = JSON.parse(String(init?.body ?? '{}')) as { email?: string };
    asked.push(`${url} ${email ?? ''}`);
    if (url === '/api/auth/sso/discover' && email?.endsWith('@chaine.fr')) {
      return jsonResponse(200, { sso: { url: `/api/auth/sso/start?email=${encodeURIComponent(email)}` } });
    }
    if (url === '/api/auth/sso/discover') return jsonResponse(200, { sso: null });
    return jsonResponse(404, { message: 'Introuvable' });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function setup(props: { initialError?: string } = {}) {
  const goTo = vi.spyOn(ssoNavigation, 'goTo').mockImplementation(() => undefined);
  renderWithProviders(<LoginForm onSuccess={vi.fn()} next="/dashboard/alerts" {...props} />, {
    auth: fakeAuth({ token: null, user: null }),
  });
  return { user: userEvent.setup(), goTo };
}

describe('LoginForm with single sign-on', () => {
  it('offers « Se connecter avec l’authentification unique » instead of the password when the domain has it, and goes there with the page asked for', async () => {
    const { user, goTo } = setup();
    await user.type(screen.getByLabelText('Adresse e-mail'), 'camille@chaine.fr');
    const button = await screen.findByRole('button', { name: 'Se connecter avec l’authentification unique' });
    expect(screen.queryByLabelText('Mot de passe', { selector: 'input' })).not.toBeInTheDocument();
    await user.click(button);
    expect(goTo).toHaveBeenCalledWith('/api/auth/sso/start?email=camille%40chaine.fr&next=%2Fdashboard%2Falerts');
  });

  it('keeps the password for a domain without it, and lets a person of an SSO domain use their password instead', async () => {
    const { user } = setup();
    await user.type(screen.getByLabelText('Adresse e-mail'), 'lea@boutique.fr');
    await waitFor(() => expect(asked).toContain('/api/auth/sso/discover lea@boutique.fr'));
    expect(screen.getByLabelText('Mot de passe', { selector: 'input' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Se connecter avec l’authentification unique' })).not.toBeInTheDocument();

    await user.clear(screen.getByLabelText('Adresse e-mail'));
    await user.type(screen.getByLabelText('Adresse e-mail'), 'lea@chaine.fr');
    await user.click(await screen.findByRole('button', { name: 'Utiliser plutôt mon mot de passe' }));
    expect(screen.getByLabelText('Mot de passe', { selector: 'input' })).toBeInTheDocument();
  });

  it('shows why the previous sign-in through single sign-on did not finish', () => {
    setup({ initialError: 'Cette connexion par authentification unique a expiré ou a déjà servi : recommencez.' });
    expect(screen.getByRole('alert')).toHaveTextContent('Cette connexion par authentification unique a expiré');
  });
});
