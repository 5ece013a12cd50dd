import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import type { LoginResult } from '@/lib/auth';
import { LoginForm } from './login-form';

function setup(login: (email: string, password: string, rememberMe?: boolean) => Promise<LoginResult> = async () => ({ success: true })) {
  const onSuccess = vi.fn();
  const loginSpy = vi.fn(login);
  renderWithProviders(<LoginForm onSuccess={onSuccess} />, { auth: fakeAuth({ login: loginSpy, token: null, user: null }) });
  return { user: userEvent.setup(), onSuccess, login: loginSpy };
}

const email = () => screen.getByLabelText('Adresse e-mail');
const password = () => screen.getByLabelText('Mot de passe', { selector: 'input' });

describe('LoginForm', () => {
  it('shows only the email field at first', () => {
    setup();
    expect(email()).toBeInTheDocument();
    expect(screen.queryByLabelText('Mot de passe', { selector: 'input' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Se connecter' })).not.toBeInTheDocument();
    expect(screen.queryByText('Email valide')).not.toBeInTheDocument();
  });

  it.each(['camille', 'camille@boutique', 'cam ille@boutique.fr', 'cam@ille@boutique.fr'])(
    'keeps the rest hidden for "%s"',
    async (value) => {
      const { user } = setup();
      await user.type(email(), value);
      expect(screen.queryByText('Email valide')).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Se connecter' })).not.toBeInTheDocument();
    },
  );

  it('reveals the hint, password, remember-me, forgotten-password link and submit once the email is valid', async () => {
    const { user } = setup();
    await user.type(email(), 'camille@boutique.fr');
    expect(screen.getByText('Email valide')).toBeVisible();
    expect(password()).toHaveAttribute('type', 'password');
    expect(screen.getByRole('checkbox', { name: 'Se souvenir de moi' })).not.toBeChecked();
    expect(screen.getByRole('link', { name: /^Mot de passe oublié\s\?$/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Se connecter' })).toBeDisabled();
  });

  it('leads « Mot de passe oublié ? » to the page that e-mails a reset link', async () => {
    const { user } = setup();
    await user.type(email(), 'camille@boutique.fr');
    const link = screen.getByRole('link', { name: /^Mot de passe oublié\s\?$/ });
    expect(link).toHaveAttribute('href', '/mot-de-passe-oublie');
    await user.click(link);
    expect(screen.getByTestId('location')).toHaveTextContent('/mot-de-passe-oublie');
  });

  it('shows and hides the password', async () => {
    const { user } = setup();
    await user.type(email(), 'camille@boutique.fr');
    await user.type(password(), 'secret');
    await user.click(screen.getByRole('button', { name: 'Afficher le mot de passe' }));
    expect(password()).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Masquer le mot de passe' }));
    expect(password()).toHaveAttribute('type', 'password');
  });

  it('clears the password when the email becomes invalid', async () => {
    const { user } = setup();
    await user.type(email(), 'camille@boutique.fr');
    await user.type(password(), 'secret');
    await user.type(email(), '{Backspace}{Backspace}{Backspace}');
    expect(screen.queryByLabelText('Mot de passe', { selector: 'input' })).not.toBeInTheDocument();
    await user.type(email(), '.fr');
    expect(password()).toHaveValue('');
  });

  it("sends the credentials, reads 'Connexion...' meanwhile, then calls onSuccess", async () => {
    let finish: (result: LoginResult) => void = () => undefined;
    const { user, login, onSuccess } = setup(() => new Promise((resolve) => (finish = resolve)));
    await user.type(email(), 'camille@boutique.fr');
    await user.type(password(), 'secret');
    await user.click(screen.getByRole('button', { name: 'Se connecter' }));

    expect(login).toHaveBeenCalledWith('camille@boutique.fr', 'secret', false);
    expect(screen.getByRole('button', { name: 'Connexion...' })).toBeDisabled();
    finish({ success: true });
    await vi.waitFor(() => expect(onSuccess).toHaveBeenCalledOnce());
  });

  it('asks for a long session when « Se souvenir de moi » is ticked', async () => {
    const { user, login } = setup();
    await user.type(email(), 'camille@boutique.fr');
    await user.type(password(), 'secret');
    await user.click(screen.getByRole('checkbox', { name: 'Se souvenir de moi' }));
    await user.click(screen.getByRole('button', { name: 'Se connecter' }));
    expect(login).toHaveBeenCalledWith('camille@boutique.fr', 'secret', true);
  });

  it("shows the error text of a failed login, or 'Erreur de connexion' without one", async () => {
    const results: LoginResult[] = [{ success: false, error: 'Identifiants invalides' }, { success: false }];
    const { user, onSuccess } = setup(async () => results.shift() ?? { success: false });
    await user.type(email(), 'camille@boutique.fr');
    await user.type(password(), 'secret');

    await user.click(screen.getByRole('button', { name: 'Se connecter' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Identifiants invalides');

    await user.click(screen.getByRole('button', { name: 'Se connecter' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Erreur de connexion$/);
    expect(onSuccess).not.toHaveBeenCalled();
  });

  it("shows 'Une erreur inattendue s'est produite' when login throws", async () => {
    const { user } = setup(async () => {
      throw new Error('boom');
    });
    await user.type(email(), 'camille@boutique.fr');
    await user.type(password(), 'secret');
    await user.click(screen.getByRole('button', { name: 'Se connecter' }));
    expect(await screen.findByRole('alert')).toHaveTextContent("Une erreur inattendue s'est produite");
  });

  it('asks for the authenticator code after a right password on an account with two-factor authentication', async () => {
    const onSuccess = vi.fn();
    const login = vi.fn(async (): Promise<LoginResult> => ({ success: false, challenge: 'défi' }));
    const results: LoginResult[] = [{ success: false, error: 'Code incorrect, expiré ou déjà utilisé.' }, { success: true }];
    const loginWithCode = vi.fn(async (): Promise<LoginResult> => results.shift() ?? { success: false });
    renderWithProviders(<LoginForm onSuccess={onSuccess} />, { auth: fakeAuth({ login, loginWithCode, token: null, user: null }) });
    const user = userEvent.setup();
    await user.type(email(), 'camille@boutique.fr');
    await user.type(password(), 'un mot de passe');
    await user.click(screen.getByRole('button', { name: 'Se connecter' }));

    const code = await screen.findByLabelText('Code de vérification');
    expect(code).toHaveFocus();
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(onSuccess).not.toHaveBeenCalled();
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Vérifier le code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Code incorrect, expiré ou déjà utilisé.');
    expect(code).toHaveValue('');

    await user.type(code, 'abcd-efgh');
    await user.click(screen.getByRole('button', { name: 'Vérifier le code' }));
    expect(loginWithCode.mock.calls).toEqual([
      ['défi', '123456'],
      ['défi', 'abcd-efgh'],
    ]);
    expect(onSuccess).toHaveBeenCalledTimes(1);
  });

  it('goes back to the password from the code step', async () => {
    const login = vi.fn(async (): Promise<LoginResult> => ({ success: false, challenge: 'défi' }));
    renderWithProviders(<LoginForm onSuccess={vi.fn()} />, { auth: fakeAuth({ login, token: null, user: null }) });
    const user = userEvent.setup();
    await user.type(email(), 'camille@boutique.fr');
    await user.type(password(), 'un mot de passe');
    await user.click(screen.getByRole('button', { name: 'Se connecter' }));
    await user.click(await screen.findByRole('button', { name: 'Revenir au mot de passe' }));
    expect(password()).toHaveValue('');
    expect(email()).toHaveValue('camille@boutique.fr');
  });
});
