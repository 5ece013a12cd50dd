/**
 * Spec §2 "/login", §4 "Login form", §5 validation, §8 "Login" error catalogue.
 *
 * - the email field is shown first                                     → "email first"
 * - valid email → green 'Email valide', password with show/hide,
 *   'Se souvenir de moi', 'Mot de passe oublié ?', 'Se connecter'        → "progressive disclosure"
 * - basic pattern: no spaces, exactly one @, a dot in the domain        → "invalid emails"
 * - show/hide toggle                                                    → "password toggle"
 * - password cleared when the email becomes invalid                      → "password cleared"
 * - submit disabled while submitting or with an empty field            → "submit disabled"
 * - 'Connexion...' while submitting                                      → "submitting"
 * - link back to home                                                    → "back to home"
 * - success → /dashboard by default, replacing the history entry        → "success replaces history"
 * - server message shown                                                 → "server message"
 * - 'Erreur {status}: {statusText}' without message                      → "status fallback"
 * - 'Token non reçu du serveur'                                          → "no access token"
 * - 'Impossible de récupérer les informations utilisateur'               → "user fetch failure"
 * - 'Erreur de connexion. Vérifiez votre connexion internet.'            → "network failure"
 * (The remembered location after the access guard is in auth.spec.ts.)
 */
import type { Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { account, expect, loginThroughForm, test, TOKEN_KEY } from './support/fixtures';

const unknownEmail = () => `inconnu-${randomUUID()}@vigie.test`;
const emailField = (page: Page) => page.getByLabel('Adresse e-mail');
const passwordField = (page: Page) => page.getByLabel('Mot de passe', { exact: true });
const submit = (page: Page) => page.getByRole('button', { name: 'Se connecter' });

test.beforeEach(async ({ page }) => {
  await page.goto('/login');
  await expect(emailField(page)).toBeVisible();
});

test('email first', async ({ page }) => {
  await expect(page).toHaveTitle('Connexion · Vigie');
  await expect(emailField(page)).toBeFocused();
  await expect(passwordField(page)).toHaveCount(0);
  await expect(submit(page)).toHaveCount(0);
  await expect(page.getByText('Email valide')).toHaveCount(0);
});

test('progressive disclosure', async ({ page }) => {
  await emailField(page).fill('camille@boutique.fr');
  const hint = page.getByText('Email valide');
  await expect(hint).toBeVisible();
  // Green: an emerald text colour.
  const [r, g, b] = await hint.evaluate((element) => {
    // The computed colour may be oklch(): let a canvas turn it into RGB.
    const context = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
    context.fillStyle = getComputedStyle(element).color;
    context.fillRect(0, 0, 1, 1);
    return Array.from(context.getImageData(0, 0, 1, 1).data);
  });
  expect(g).toBeGreaterThan(Math.max(r ?? 0, b ?? 0) + 40);
  await expect(passwordField(page)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Afficher le mot de passe' })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Se souvenir de moi' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Mot de passe oublié ?' })).toBeVisible();
  await expect(submit(page)).toBeVisible();
});

test('invalid emails', async ({ page }) => {
  for (const value of ['camille', 'camille@boutique', 'cam ille@boutique.fr', 'cam@ille@boutique.fr', '@boutique.fr']) {
    await emailField(page).fill(value);
    await expect(page.getByText('Email valide')).toHaveCount(0);
    await expect(passwordField(page)).toHaveCount(0);
  }
});

test('password toggle', async ({ page }) => {
  await emailField(page).fill('camille@boutique.fr');
  await passwordField(page).fill('secret');
  await expect(passwordField(page)).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Afficher le mot de passe' }).click();
  await expect(passwordField(page)).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Masquer le mot de passe' }).click();
  await expect(passwordField(page)).toHaveAttribute('type', 'password');
});

test('password cleared', async ({ page }) => {
  await emailField(page).fill('camille@boutique.fr');
  await passwordField(page).fill('secret');
  await emailField(page).fill('camille@boutique');
  await expect(passwordField(page)).toHaveCount(0);
  await emailField(page).fill('camille@boutique.fr');
  await expect(passwordField(page)).toHaveValue('');
});

test('submit disabled', async ({ page }) => {
  await emailField(page).fill('camille@boutique.fr');
  await expect(submit(page)).toBeDisabled();
  await passwordField(page).fill('secret');
  await expect(submit(page)).toBeEnabled();
  await passwordField(page).fill('');
  await expect(submit(page)).toBeDisabled();
});

test('submitting', async ({ page }) => {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/auth/login', async (route) => {
    await held;
    await route.continue();
  });
  await emailField(page).fill(unknownEmail());
  await passwordField(page).fill('mauvais-mot-de-passe');
  await submit(page).click();
  const busy = page.getByRole('button', { name: 'Connexion...' });
  await expect(busy).toBeVisible();
  await expect(busy).toBeDisabled();
  release();
  await expect(page.getByRole('alert')).toHaveText('Identifiants invalides');
  await expect(submit(page)).toBeEnabled();
});

test('back to home', async ({ page }) => {
  await page.getByRole('link', { name: 'Retour à l’accueil' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('success replaces history', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'Commencer maintenant' }).click();
  await expect(page).toHaveURL(/\/login$/);
  const who = account('login');
  await loginThroughForm(page, who);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText(who.name ?? '')).toBeVisible();
  expect(await page.evaluate((key) => localStorage.getItem(key), TOKEN_KEY)).toBeTruthy();
  // /login was replaced: going back leads to the landing page.
  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
});

test('server message', async ({ page }) => {
  await emailField(page).fill(unknownEmail());
  await passwordField(page).fill('mauvais-mot-de-passe');
  await submit(page).click();
  await expect(page.getByRole('alert')).toHaveText('Identifiants invalides');
  await expect(page).toHaveURL(/\/login$/);
});

test('status fallback', async ({ page }) => {
  await page.route('**/api/auth/login', (route) => route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>Bad gateway</h1>' }));
  await emailField(page).fill('camille@boutique.fr');
  await passwordField(page).fill('secret');
  await submit(page).click();
  await expect(page.getByRole('alert')).toHaveText('Erreur 502: Bad Gateway');
});

test('no access token', async ({ page }) => {
  await page.route('**/api/auth/login', (route) => route.fulfill({ status: 200, json: { token: 'ailleurs' } }));
  await emailField(page).fill('camille@boutique.fr');
  await passwordField(page).fill('secret');
  await submit(page).click();
  await expect(page.getByRole('alert')).toHaveText('Token non reçu du serveur');
  expect(await page.evaluate((key) => localStorage.getItem(key), TOKEN_KEY)).toBeNull();
});

test('user fetch failure', async ({ page }) => {
  await page.route('**/api/user/me', (route) => route.fulfill({ status: 500, json: { message: 'Erreur interne' } }));
  await loginThroughForm(page, account('login'));
  await expect(page.getByRole('alert')).toHaveText('Impossible de récupérer les informations utilisateur');
  await expect(page).toHaveURL(/\/login$/);
});

test('network failure', async ({ page }) => {
  await page.route('**/api/auth/login', (route) => route.abort('internetdisconnected'));
  await emailField(page).fill('camille@boutique.fr');
  await passwordField(page).fill('secret');
  await submit(page).click();
  await expect(page.getByRole('alert')).toHaveText('Erreur de connexion. Vérifiez votre connexion internet.');
});
