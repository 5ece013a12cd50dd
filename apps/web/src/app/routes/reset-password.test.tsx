import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import ResetPasswordRoute from './reset-password';

const TOKEN = 'Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eHF1dXg';
const PATH = '/reinitialiser-mot-de-passe';

describe('ResetPasswordRoute', () => {
  it('reads the link’s secret from the fragment and asks for the new password', () => {
    renderWithProviders(<ResetPasswordRoute />, {
      auth: fakeAuth({ token: null, user: null }),
      path: PATH,
      initialEntries: [`${PATH}#${TOKEN}`],
    });
    expect(screen.getByRole('heading', { level: 1, name: 'Nouveau mot de passe' })).toBeInTheDocument();
    expect(screen.getByLabelText('Nouveau mot de passe')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says the link is incomplete without a secret', () => {
    renderWithProviders(<ResetPasswordRoute />, { auth: fakeAuth({ token: null, user: null }), path: PATH });
    expect(screen.getByRole('alert')).toHaveTextContent(/Ce lien est incomplet/);
    expect(screen.getByRole('link', { name: 'Demander un nouveau lien' })).toHaveAttribute('href', '/mot-de-passe-oublie');
  });
});
