import { PASSWORD_RESET_REQUESTED } from '@vigie/contract/values';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeAuth, jsonResponse, renderWithProviders } from '@/testing/render';
import { ForgotPasswordForm } from './forgot-password-form';

let requests: { method: string; url: string; body: unknown }[];
let answer: () => Response;

beforeEach(() => {
  requests = [];
  answer = () => jsonResponse(202, { message: PASSWORD_RESET_REQUESTED });
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    requests.push({ method: init?.method ?? 'GET', url, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
    return answer();
  });
});

afterEach(() => vi.unstubAllGlobals());

const setup = () => {
  renderWithProviders(<ForgotPasswordForm />, { auth: fakeAuth({ token: null, user: null }) });
  return userEvent.setup();
};

describe('ForgotPasswordForm', () => {
  it('sends the address and shows the server’s answer as a status, focused', async () => {
    const user = setup();
    await user.type(screen.getByLabelText('Adresse e-mail'), ' camille@boutique.fr ');
    await user.click(screen.getByRole('button', { name: 'Recevoir un lien' }));

    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent(PASSWORD_RESET_REQUESTED);
    expect(status).toHaveFocus();
    expect(requests).toEqual([{ method: 'POST', url: '/api/auth/password-reset', body: { email: 'camille@boutique.fr' } }]);
    expect(screen.queryByLabelText('Adresse e-mail')).not.toBeInTheDocument();
  });

  it('asks for a valid address before sending anything', async () => {
    const user = setup();
    await user.type(screen.getByLabelText('Adresse e-mail'), 'camille@boutique');
    await user.click(screen.getByRole('button', { name: 'Recevoir un lien' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Saisissez une adresse e-mail valide');
    expect(screen.getByLabelText('Adresse e-mail')).toHaveFocus();
    expect(screen.getByLabelText('Adresse e-mail')).toHaveAttribute('aria-invalid', 'true');
    expect(requests).toEqual([]);
  });

  it('shows the server’s refusal (429) as an alert and keeps the form', async () => {
    answer = () => jsonResponse(429, { message: 'Trop de demandes de réinitialisation du mot de passe. Réessayez dans 15\u202Fmin.' });
    const user = setup();
    await user.type(screen.getByLabelText('Adresse e-mail'), 'camille@boutique.fr');
    await user.click(screen.getByRole('button', { name: 'Recevoir un lien' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Trop de demandes');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Adresse e-mail')).toHaveValue('camille@boutique.fr');
  });
});
