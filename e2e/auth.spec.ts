/**
 * Spec §2 "/dashboard (protected)" access and header, §4 "Authentication", §8 start-up check.
 *
 * - 'Vérification de l'authentification...' while checking              → "verification screen"
 * - no token → /login, replacing history                                  → "guard redirects"
 * - the requested location is remembered and restored after login         → "remembered location"
 * - a stored token is checked at start-up (GET /api/user/me)              → "restores a stored session"
 * - a failed check signs out silently and forgets the token               → "stale token"
 * - header: product name linking to /                                      → "product name"
 * - header: user's name, or email, or 'Utilisateur'                        → "user label"
 * - 'Déconnexion' ends the session on the server and goes to /             → "logout"
 * - a token refused while the lists load signs out and returns after login → "expired session while on the dashboard"
 */
import type { Page } from '@playwright/test';
import { account, expect, loginThroughForm, signInWithToken, test, TOKEN_KEY } from './support/fixtures';

// Its tests share one account's data: in order, in one worker.
test.describe.configure({ mode: 'default' });

const storedToken = (page: Page) => page.evaluate((key) => localStorage.getItem(key), TOKEN_KEY);

test('verification screen', async ({ page, apiAs }) => {
  const api = await apiAs('guard');
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/user/me', async (route) => {
    await held;
    await route.continue();
  });
  await signInWithToken(page, api.token);
  await page.goto('/dashboard');
  await expect(page.getByText("Vérification de l'authentification...")).toBeVisible();
  release();
  await expect(page.getByRole('heading', { level: 1, name: 'Tableau de bord' })).toBeVisible();
  await expect(page.getByText("Vérification de l'authentification...")).toHaveCount(0);
});

test('guard redirects', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Navigation principale' }).getByRole('link', { name: 'Tableau de bord' }).click();
  await expect(page).toHaveURL(/\/login$/);
  // /dashboard was replaced by /login: back leads to the landing page.
  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
});

test('remembered location', async ({ page }) => {
  await page.goto('/dashboard?vue=grille#capteurs');
  await expect(page).toHaveURL(/\/login$/);
  await loginThroughForm(page, account('guard'));
  await expect(page).toHaveURL(/\/dashboard\?vue=grille#capteurs$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Tableau de bord' })).toBeVisible();
});

test('restores a stored session', async ({ page, login }) => {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/user/me')) seen.push(request.headers()['authorization'] ?? '');
  });
  const api = await login('guard');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText(account('guard').name ?? '')).toBeVisible();
  expect(seen).toEqual([`Bearer ${api.token}`]);
});

test('stale token', async ({ page }) => {
  await signInWithToken(page, 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJwZXJpbWUifQ.c2lnbmF0dXJl');
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByLabel('Adresse e-mail')).toBeVisible();
  // Silent: no error on screen, and the token is gone.
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(await storedToken(page)).toBeNull();
});

test('product name', async ({ page, login }) => {
  await login('guard');
  await page.getByRole('banner').getByRole('link', { name: 'Vigie', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
});

test.describe('user label', () => {
  test('shows the name', async ({ page, login }) => {
    await login('guard');
    await expect(page.getByRole('banner')).toContainText(account('guard').name ?? '');
  });

  test('shows the email without a name', async ({ page, login }) => {
    await login('noname');
    await expect(page.getByRole('banner')).toContainText(account('noname').email);
  });

  test("shows 'Utilisateur' without name nor email", async ({ page, login }) => {
    await page.route('**/api/user/me', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { user: Record<string, unknown> };
      await route.fulfill({ response, json: { user: { ...body.user, name: null, email: '' } } });
    });
    await login('guard');
    await expect(page.getByRole('banner')).toContainText('Utilisateur');
  });
});

test('logout', async ({ page, login, request }) => {
  const api = await login('guard');
  await expect(page.getByRole('heading', { level: 1, name: 'Tableau de bord' })).toBeVisible();
  await page.getByRole('button', { name: 'Déconnexion' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(await storedToken(page)).toBeNull();
  // The server ended the session: the token the page used is refused from now on.
  await expect
    .poll(async () => (await request.get('/api/user/me', { headers: { Authorization: `Bearer ${api.token}` } })).status())
    .toBe(401);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);
});

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('logout stays reachable by its name on a phone', async ({ page, login }) => {
    await login('guard');
    await page.getByRole('button', { name: 'Déconnexion' }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});

test('expired session while on the dashboard', async ({ page, login }) => {
  await page.route('**/api/sensor', (route) => route.fulfill({ status: 401, json: { message: 'Session expirée, reconnectez-vous.' } }));
  await login('guard');
  await expect(page).toHaveURL(/\/login$/);
  expect(await storedToken(page)).toBeNull();
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await loginThroughForm(page, account('guard'));
  await expect(page).toHaveURL(/\/dashboard$/);
});
