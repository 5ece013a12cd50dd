import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { ProtectedRoute, redirectTarget } from './protected-route';

const page = (
  <ProtectedRoute>
    <p>Contenu protégé</p>
  </ProtectedRoute>
);

describe('ProtectedRoute', () => {
  it("shows 'Vérification de l'authentification...' while loading", () => {
    renderWithProviders(page, { path: '/dashboard', auth: fakeAuth({ loading: true, token: null, user: null }) });
    expect(screen.getByText("Vérification de l'authentification...")).toBeInTheDocument();
    expect(screen.queryByText('Contenu protégé')).not.toBeInTheDocument();
  });

  it('lets a signed-in user through', () => {
    renderWithProviders(page, { path: '/dashboard' });
    expect(screen.getByText('Contenu protégé')).toBeInTheDocument();
  });

  it.each([
    ['no token', { token: null }],
    ['no user', { user: null }],
  ])('sends to /login with %s', (_case, overrides) => {
    renderWithProviders(page, { path: '/dashboard', auth: fakeAuth(overrides) });
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
    expect(screen.queryByText('Contenu protégé')).not.toBeInTheDocument();
  });
});

describe('redirectTarget', () => {
  it('returns the remembered location with its query and hash', () => {
    expect(redirectTarget({ from: { pathname: '/dashboard', search: '?onglet=capteurs', hash: '#liste' } }, '/dashboard')).toBe(
      '/dashboard?onglet=capteurs#liste',
    );
  });

  it.each([
    null,
    undefined,
    {},
    { from: { pathname: 'https://ailleurs.example' } },
    { from: { pathname: '//ailleurs.example' } },
    { from: { pathname: '/login' } },
  ])('falls back to /dashboard for %j', (state) => {
    expect(redirectTarget(state, '/dashboard')).toBe('/dashboard');
  });
});
