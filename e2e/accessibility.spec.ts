/**
 * Accessibility of every screen with axe: no serious or critical violation on the landing
 * page (desktop and open mobile menu), the login page (empty, revealed, with an error), the
 * dashboard with data (both tabs, with an action error), the empty dashboard and each error
 * page, plus keyboard use of the main paths.
 */
import { account, expect, seriousViolations, test } from './support/fixtures';

// An axe analysis takes seconds on a busy machine; several run per test.
test.describe.configure({ timeout: 90_000 });

test('landing', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await expect(page.getByRole('banner')).toHaveCount(1);
  await expect(page.getByRole('main')).toHaveCount(1);
  await expect(page.getByRole('contentinfo')).toHaveCount(1);
});

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('landing with the menu open', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Menu' }).click();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('dashboard', async ({ page, login }) => {
    await login('showcase');
    await expect(page.getByTestId('device-card').first()).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
});

test('login', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByLabel('Adresse e-mail')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByLabel('Adresse e-mail').fill('camille@boutique.fr');
  await page.getByLabel('Mot de passe', { exact: true }).fill('mauvais');
  expect(await seriousViolations(page)).toEqual([]);
  await page.route('**/api/auth/login', (route) => route.fulfill({ status: 401, json: { message: 'Identifiants invalides' } }));
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('login with the keyboard only', async ({ page }) => {
  const who = account('login');
  await page.goto('/login');
  await expect(page.getByLabel('Adresse e-mail')).toBeFocused();
  await page.keyboard.type(who.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(who.password);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('dashboard with data', async ({ page, login }) => {
  await login('showcase');
  await expect(page.getByTestId('device-card').first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('tab', { name: 'Capteurs' }).click();
  await expect(page.getByTestId('device-card').first()).toContainText('Sensor device');
  expect(await seriousViolations(page)).toEqual([]);

  await page.route('**/api/sensor', (route) =>
    route.request().method() === 'POST' ? route.fulfill({ status: 500, json: { message: 'Échec côté serveur.' } }) : route.continue(),
  );
  await page.getByRole('button', { name: 'Ajouter un capteur' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('dashboard while loading', async ({ page, login }) => {
  await page.route('**/api/emitter', () => undefined);
  await login('showcase');
  await expect(page.getByTestId('skeleton-card')).toHaveCount(8);
  expect(await seriousViolations(page)).toEqual([]);
});

test('empty dashboard', async ({ page, login }) => {
  await login('empty');
  await expect(page.getByRole('heading', { name: 'Aucun émetteur pour l’instant' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

for (const code of ['404', '500', '403', '401', '503']) {
  test(`error page ${code}`, async ({ page }) => {
    await page.goto(`/error/${code}`);
    await expect(page.getByTestId('error-code')).toHaveText(code);
    expect(await seriousViolations(page)).toEqual([]);
  });
}

test('visible focus', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Adresse e-mail').fill('camille@boutique.fr');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  const toggle = page.getByRole('button', { name: 'Afficher le mot de passe' });
  await expect(toggle).toBeFocused();
  const outline = await toggle.evaluate((element) => getComputedStyle(element).outlineStyle);
  expect(outline).not.toBe('none');
});
