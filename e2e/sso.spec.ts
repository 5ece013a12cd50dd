/**
 * Single sign-on through the browser (docs/api.md, Authentification unique), at 1280 and 375 px: an
 * admin's organization has a real OpenID Connect provider (the certified `oidc-provider`, on a free
 * loopback port of this worker) for a domain of its own; a person new to Vigie types their address
 * on the login page, is offered « Se connecter avec l’authentification unique » instead of the
 * password, signs in at the provider's own pages, and lands on the page first asked for, signed in
 * with the default role. The login page passes axe with the offer shown.
 */
import { randomBytes } from 'node:crypto';
import { startOidcProvider, type TestOidcProvider } from '../apps/server/src/test/oidc-provider';
import { expect, saveScreenshot, seriousViolations, test } from './support/fixtures';

const runId = randomBytes(4).toString('hex');
const domain = `sso-${runId}.test`;
let idp: TestOidcProvider;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ baseURL }) => {
  idp = await startOidcProvider(`${baseURL ?? ''}/api/auth/sso/callback`);
});

test.afterAll(async () => {
  await idp?.close();
});

test('an admin sets the provider, and a person of its domain signs in through it at 1280 and 375 px', async ({ page, apiAs, request }) => {
  const admin = await apiAs('sso');
  const saved = await request.put('/api/organization/sso', {
    headers: { Authorization: `Bearer ${admin.token}` },
    data: {
      issuer: idp.issuer,
      clientId: idp.clientId,
      clientSecret: idp.clientSecret,
      domains: [domain],
      defaultRole: 'viewer',
      enforced: false,
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);

  for (const size of [
    { width: 1280, height: 800 },
    { width: 375, height: 812 },
  ]) {
    await page.setViewportSize(size);
    const email = `personne-${size.width}@${domain}`;
    idp.addPerson({ email, name: `Personne ${size.width}` });
    await page.context().clearCookies();
    await page.goto('/dashboard/alertes');
    await expect(page).toHaveURL(/\/login$/);
    await page.getByLabel('Adresse e-mail').fill(email);
    const offer = page.getByRole('button', { name: 'Se connecter avec l’authentification unique' });
    await expect(offer).toBeVisible();
    await expect(page.getByLabel('Mot de passe', { exact: true })).toHaveCount(0);
    expect(await seriousViolations(page)).toEqual([]);
    await saveScreenshot(page, 'sso-login');
    await offer.click();

    // The provider's own pages: its sign-in form, then its consent.
    await expect(page).toHaveURL(new RegExp(`^${idp.issuer}/interaction/`));
    await page.locator('input[name="login"]').fill(email);
    await page.locator('input[name="password"]').fill('peu importe');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();

    await expect(page).toHaveURL(/\/dashboard\/alertes$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const token = await page.evaluate(() => window.localStorage.getItem('vigie_token'));
    const me = await request.get('/api/user/me', { headers: { Authorization: `Bearer ${token ?? ''}` } });
    expect(await me.json()).toMatchObject({ user: { email, role: 'viewer' } });
    await saveScreenshot(page, 'sso-signed-in');
    await page.evaluate(() => window.localStorage.clear());
  }
});

test('a refused return is said on the login page', async ({ page }) => {
  await page.goto('/api/auth/sso/callback?code=x&state=inconnu');
  await expect(page).toHaveURL(/\/login\?sso=state$/);
  await expect(page.getByRole('alert')).toHaveText('Cette connexion par authentification unique a expiré ou a déjà servi : recommencez.');
});
