/**
 * A screenshot of every screen at 1280×800 and 375×812, saved to e2e/screenshots/ to be looked
 * at: landing (and its open mobile menu), login (empty, filled, error), the verification
 * screen, the dashboard (transmitters, sensors, loading, empty, action error), every error
 * page (and one during its glitch) and the unexpected-error page.
 */
import { account, expect, loginThroughForm, saveScreenshot, signInWithToken, test } from './support/fixtures';

// A dozen full-page screenshots per test: on a busy 2-core machine they took up to 46 s.
test.describe.configure({ timeout: 90_000 });

const sizes = [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
];

for (const size of sizes) {
  test.describe(`screens at ${size.width}×${size.height}`, () => {
    test.use({ viewport: size });

    test('public screens', async ({ page }) => {
      await page.goto('/');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await saveScreenshot(page, 'landing');
      await saveScreenshot(page, 'landing-full', true);
      if (size.width < 768) {
        await page.getByRole('button', { name: 'Menu' }).click();
        await saveScreenshot(page, 'landing-menu');
      }

      await page.goto('/login');
      await expect(page.getByLabel('Adresse e-mail')).toBeVisible();
      await saveScreenshot(page, 'login');
      await page.getByLabel('Adresse e-mail').fill('camille@boutique.fr');
      await page.getByLabel('Mot de passe', { exact: true }).fill('un mot de passe');
      await saveScreenshot(page, 'login-filled');
      // The server's refusal, without spending the address's allowance of failed logins.
      await page.route('**/api/auth/login', (route) => route.fulfill({ status: 401, json: { message: 'Identifiants invalides' } }));
      await page.getByRole('button', { name: 'Se connecter' }).click();
      await expect(page.getByRole('alert')).toBeVisible();
      await saveScreenshot(page, 'login-error');

      for (const code of ['404', '500', '403', '401', '503']) {
        await page.goto(`/error/${code}`);
        await expect(page.getByTestId('error-code')).toHaveText(code);
        await saveScreenshot(page, `error-${code}`);
      }
    });

    test('error page during a glitch', async ({ page }) => {
      await page.clock.install();
      await page.goto('/error/404');
      const code = page.getByTestId('error-code');
      await expect(code).toHaveText('404');
      await page.clock.pauseAt(await page.evaluate(() => Date.now() + 500));
      for (let step = 0; step < 400 && (await code.getAttribute('data-glitch')) !== 'true'; step += 1) await page.clock.runFor(10);
      await expect(code).toHaveAttribute('data-glitch', 'true');
      await saveScreenshot(page, 'error-404-glitch');
    });

    test('dashboard screens', async ({ page, apiAs }) => {
      const showcase = await apiAs('showcase');
      await page.route(
        '**/api/user/me',
        async (route) => {
          await new Promise((resolve) => setTimeout(resolve, 1500));
          await route.continue();
        },
        { times: 1 },
      );
      await signInWithToken(page, showcase.token);
      await page.goto('/dashboard');
      await expect(page.getByText("Vérification de l'authentification...")).toBeVisible();
      await saveScreenshot(page, 'verification');

      await expect(page.getByTestId('device-card').first()).toBeVisible();
      await saveScreenshot(page, 'dashboard-emitters');
      await saveScreenshot(page, 'dashboard-emitters-full', true);
      await page.getByRole('tab', { name: 'Capteurs' }).click();
      await expect(page.getByTestId('device-card').first()).toBeVisible();
      await saveScreenshot(page, 'dashboard-sensors-full', true);

      await page.route('**/api/sensor', (route) =>
        route.request().method() === 'POST'
          ? route.fulfill({ status: 503, json: { message: 'La base de données ne répond pas. Réessayez dans un instant.' } })
          : route.continue(),
      );
      await page.getByRole('button', { name: 'Ajouter un capteur' }).click();
      await expect(page.getByRole('alert')).toBeVisible();
      await saveScreenshot(page, 'dashboard-action-error');

      await page.route('**/api/emitter', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 2000));
        await route.continue();
      });
      await page.reload();
      await expect(page.getByTestId('skeleton-card').first()).toBeVisible();
      await saveScreenshot(page, 'dashboard-loading');
    });

    test('empty dashboard and unexpected error', async ({ page, apiAs }) => {
      const empty = await apiAs('empty');
      await signInWithToken(page, empty.token);
      await page.goto('/dashboard');
      await expect(page.getByText('Aucun émetteur pour l’instant')).toBeVisible();
      await saveScreenshot(page, 'dashboard-empty');

      await page.route('**/api/user/me', (route) =>
        route.fulfill({ json: { user: { id: 'x', name: { first: 'Camille' }, email: 'c@b.fr', organization: { id: 'o', name: 'O' } } } }),
      );
      await page.reload();
      await expect(page.getByRole('heading', { name: 'Erreur Inattendue' })).toBeVisible();
      await saveScreenshot(page, 'error-unexpected');
    });
  });
}

test('login form as a person fills it', async ({ page }) => {
  await page.goto('/login');
  await loginThroughForm(page, account('showcase'));
  await expect(page).toHaveURL(/\/dashboard$/);
});
