import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeAuth, jsonResponse, renderWithProviders } from '@/testing/render';
import InvitationRoute from './invitation';

const token = 'Zm9vYmFyYmF6cXV4LWludml0YXRpb24tdG9rZW4';
const preview = {
  invitation: {
    email: 'lea@boutique.fr',
    role: 'viewer',
    organization: { name: 'Démo Boutique' },
    expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
  },
};

type Call = { url: string; body: unknown };
let calls: Call[];
let answer: (url: string) => Response;

beforeEach(() => {
  calls = [];
  answer = (url) => (url === '/api/invitations/preview' ? jsonResponse(200, preview) : jsonResponse(201, { accessToken: 'invited' }));
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    calls.push({ url, body: init?.body ? (JSON.parse(String(init.body)) as unknown) : undefined });
    return answer(url);
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderPage(hash = `#${token}`, startSession = vi.fn(async () => ({ success: true as const }))) {
  renderWithProviders(<InvitationRoute />, {
    path: '/invitation',
    initialEntries: [`/invitation${hash}`],
    auth: fakeAuth({ token: null, user: null, startSession }),
  });
  return startSession;
}

describe('InvitationRoute', () => {
  it('shows whom the invitation is for, then creates the account, starts its session and opens the dashboard', async () => {
    const user = userEvent.setup();
    const startSession = renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: 'Rejoindre Démo Boutique' })).toBeInTheDocument();
    expect(calls[0]).toEqual({ url: '/api/invitations/preview', body: { token } });
    expect(screen.getByText('lea@boutique.fr')).toBeInTheDocument();
    expect(screen.getByText('Lecteur')).toBeInTheDocument();
    expect(screen.getByText(/Au moins 8 caractères/)).toBeInTheDocument();

    await user.type(screen.getByLabelText('Nom'), 'Léa Durand');
    await user.type(screen.getByLabelText('Mot de passe'), 'court');
    await user.click(screen.getByRole('button', { name: 'Rejoindre l’équipe' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Le mot de passe doit contenir au moins 8 caractères.');
    expect(screen.getByLabelText('Mot de passe')).toHaveFocus();
    expect(screen.getByLabelText('Mot de passe')).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Afficher le mot de passe' }));
    expect(screen.getByLabelText('Mot de passe')).toHaveAttribute('type', 'text');

    await user.type(screen.getByLabelText('Mot de passe'), '-et-long');
    await user.click(screen.getByRole('button', { name: 'Rejoindre l’équipe' }));
    expect(await screen.findByTestId('location')).toHaveTextContent('/dashboard');
    expect(calls[1]).toEqual({ url: '/api/invitations/accept', body: { token, name: 'Léa Durand', password: 'court-et-long' } });
    expect(startSession).toHaveBeenCalledWith('invited');
  });

  it('asks for a name first, with the focus on it', async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Rejoindre l’équipe' }));
    expect(screen.getByText('Indiquez votre nom.')).toHaveAttribute('role', 'alert');
    expect(screen.getByLabelText('Nom')).toHaveFocus();
    expect(calls).toHaveLength(1);
  });

  it.each([
    [404, 'Cette invitation n’existe pas ou a été révoquée.'],
    [410, 'Cette invitation a expiré : demandez-en une nouvelle.'],
  ])('shows the %i message with a way back home', async (status, message) => {
    answer = () => jsonResponse(status, { message });
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('link', { name: 'Retourner à l’accueil' })).toHaveAttribute('href', '/');
    expect(screen.queryByLabelText('Nom')).not.toBeInTheDocument();
  });

  it('says a link without its token is invalid, without asking the server', async () => {
    renderPage('');
    expect(await screen.findByRole('alert')).toHaveTextContent('Le lien d’invitation est invalide');
    expect(calls).toHaveLength(0);
  });

  it('shows the message of a refused acceptance and moves the focus to it', async () => {
    const user = userEvent.setup();
    answer = (url) =>
      url === '/api/invitations/preview' ? jsonResponse(200, preview) : jsonResponse(410, { message: 'Cette invitation a expiré.' });
    renderPage();
    await user.type(await screen.findByLabelText('Nom'), 'Léa');
    await user.type(screen.getByLabelText('Mot de passe'), 'assez-long');
    await user.click(screen.getByRole('button', { name: 'Rejoindre l’équipe' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Cette invitation a expiré.');
    await vi.waitFor(() => expect(alert.parentElement).toHaveFocus());
  });
});
