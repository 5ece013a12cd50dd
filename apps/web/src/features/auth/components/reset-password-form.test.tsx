import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeAuth, jsonResponse, renderWithProviders } from '@/testing/render';
import { RESET_PASSWORD_TEXT, ResetPasswordForm, tokenFromHash } from './reset-password-form';

const TOKEN = 'Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eHF1dXg';
const UNUSABLE = 'Ce lien n’est plus valable\u202F: demandez-en un nouveau.';
const EXPIRED = 'Ce lien a expiré\u202F: demandez-en un nouveau.';

let requests: { method: string; url: string; body: unknown }[];
let answer: () => Response;

beforeEach(() => {
  requests = [];
  answer = () => new Response(null, { status: 204 });
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    requests.push({ method: init?.method ?? 'GET', url, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
    return answer();
  });
});

afterEach(() => vi.unstubAllGlobals());

const setup = (token: string | null = TOKEN) => {
  renderWithProviders(<ResetPasswordForm token={token} />, { auth: fakeAuth({ token: null, user: null }) });
  return userEvent.setup();
};

const password = () => screen.getByLabelText('Nouveau mot de passe');
const confirmation = () => screen.getByLabelText('Confirmez le nouveau mot de passe');
/** jest-dom reads every space as a plain one, the narrow no-break space included. */
const plain = (text: string) => text.replace(/\s+/g, ' ');
const submit = () => screen.getByRole('button', { name: 'Changer le mot de passe' });

describe('tokenFromHash', () => {
  it('reads the secret after #, and nothing else', () => {
    expect(tokenFromHash(`#${TOKEN}`)).toBe(TOKEN);
    expect(tokenFromHash('')).toBeNull();
    expect(tokenFromHash('#court')).toBeNull();
    expect(tokenFromHash(`#${TOKEN}<script>`)).toBeNull();
  });
});

describe('ResetPasswordForm', () => {
  it('sends the new password with the link’s secret, then says so with a link to sign in', async () => {
    const user = setup();
    expect(password()).toHaveFocus();
    expect(screen.getByText('8 caractères minimum.')).toBeInTheDocument();
    expect(password()).toHaveAccessibleDescription('8 caractères minimum.');
    await user.type(password(), 'un nouveau mot de passe');
    await user.type(confirmation(), 'un nouveau mot de passe');
    await user.click(submit());

    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent(RESET_PASSWORD_TEXT.done);
    expect(status).toHaveFocus();
    expect(screen.getByRole('link', { name: 'Se connecter' })).toHaveAttribute('href', '/login');
    expect(requests).toEqual([
      { method: 'POST', url: '/api/auth/password-reset/confirm', body: { token: TOKEN, password: 'un nouveau mot de passe' } },
    ]);
  });

  it('shows and hides both passwords', async () => {
    const user = setup();
    expect(password()).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Afficher les mots de passe' }));
    expect(password()).toHaveAttribute('type', 'text');
    expect(confirmation()).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Masquer les mots de passe' }));
    expect(password()).toHaveAttribute('type', 'password');
    expect(confirmation()).toHaveAttribute('type', 'password');
  });

  it('refuses a short password or two different ones before sending anything', async () => {
    const user = setup();
    await user.type(password(), 'court');
    await user.type(confirmation(), 'court');
    await user.click(submit());
    expect(screen.getByRole('alert')).toHaveTextContent(RESET_PASSWORD_TEXT.tooShort);
    expect(password()).toHaveFocus();
    expect(password()).toHaveAttribute('aria-invalid', 'true');

    await user.type(password(), ' mais plus long');
    await user.clear(confirmation());
    await user.type(confirmation(), 'autre chose encore');
    await user.click(submit());
    expect(screen.getByRole('alert')).toHaveTextContent(RESET_PASSWORD_TEXT.mismatch);
    expect(confirmation()).toHaveFocus();
    expect(requests).toEqual([]);
  });

  it.each([
    [404, UNUSABLE],
    [410, EXPIRED],
  ])('shows the server’s %i message with a link to ask for a new one', async (status, message) => {
    answer = () => jsonResponse(status, { message });
    const user = setup();
    await user.type(password(), 'un nouveau mot de passe');
    await user.type(confirmation(), 'un nouveau mot de passe');
    await user.click(submit());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(plain(message));
    expect(alert.parentElement).toHaveFocus();
    expect(screen.getByRole('link', { name: 'Demander un nouveau lien' })).toHaveAttribute('href', '/mot-de-passe-oublie');
    expect(screen.queryByLabelText('Nouveau mot de passe')).not.toBeInTheDocument();
  });

  it('says a link without its secret is incomplete', () => {
    setup(null);
    expect(screen.getByRole('alert')).toHaveTextContent(plain(RESET_PASSWORD_TEXT.missingToken));
    expect(screen.getByRole('link', { name: 'Demander un nouveau lien' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Nouveau mot de passe')).not.toBeInTheDocument();
  });
});
