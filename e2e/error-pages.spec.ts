/**
 * Spec §2 routes "/error/{errorCode}" and "*", the application-wide safety net, §8 "Error
 * pages" table, §9 glitch timing.
 *
 * - 404 'Erreur 404', 'Retourner à l'accueil' → /                        → "404"
 * - 500 'Erreur Serveur', button → /                                       → "500"
 * - 403 'Accès Interdit', 'Retourner au tableau de bord' → /dashboard      → "403"
 * - 401 'Non Autorisé', 'Se connecter' → /login                            → "401"
 * - 503 'Maintenance', 'Vérifier le statut' → /, no code rain              → "503"
 * - each page has a description and the large code text                    → every code
 * - unknown code → 404 content                                             → "unknown code"
 * - unknown route → 404 page                                               → "unknown route"
 * - glitch every 3000 ms for 150 ms                                        → "glitch timing"
 * - uncaught rendering error → 500 page 'Erreur Inattendue' + technical message → "unexpected error"
 */
import { expect, signInWithToken, test } from './support/fixtures';

const pages = [
  { code: '404', title: 'Erreur 404', button: "Retourner à l'accueil", target: /\/$/, rain: true },
  { code: '500', title: 'Erreur Serveur', button: "Retourner à l'accueil", target: /\/$/, rain: true },
  { code: '403', title: 'Accès Interdit', button: 'Retourner au tableau de bord', target: /\/(dashboard|login)$/, rain: true },
  { code: '401', title: 'Non Autorisé', button: 'Se connecter', target: /\/login$/, rain: true },
  { code: '503', title: 'Maintenance', button: 'Vérifier le statut', target: /\/$/, rain: false },
];

for (const { code, title, button, target, rain } of pages) {
  test(code, async ({ page }) => {
    await page.goto(`/error/${code}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await expect(page).toHaveTitle(`${title} · Vigie`);
    await expect(page.getByTestId('error-code')).toHaveText(code);
    const description = page.getByRole('main').locator('p').filter({ hasNotText: code }).first();
    await expect(description).toBeVisible();
    expect(((await description.textContent()) ?? '').length).toBeGreaterThan(30);
    if (rain) await expect(page.locator('canvas, [data-testid="code-rain"]')).not.toHaveCount(0);
    else await expect(page.locator('canvas, [data-testid="code-rain"]')).toHaveCount(0);

    const link = page.getByRole('link', { name: button });
    await expect(link).toBeVisible();
    await link.click();
    await expect(page).toHaveURL(target);
  });
}

test('403 button leads to the dashboard', async ({ page, login }) => {
  await login('guard', '/error/403');
  await page.getByRole('link', { name: 'Retourner au tableau de bord' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Tableau de bord' })).toBeVisible();
});

test('unknown code', async ({ page }) => {
  for (const code of ['418', 'abc', '']) {
    await page.goto(`/error/${code}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Erreur 404');
    await expect(page.getByTestId('error-code')).toHaveText('404');
  }
});

test('unknown route', async ({ page }) => {
  await page.goto('/une/page/qui/nexiste/pas');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Erreur 404');
  await page.getByRole('link', { name: "Retourner à l'accueil" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('glitch timing', async ({ page }) => {
  await page.clock.install();
  await page.goto('/error/404');
  const code = page.getByTestId('error-code');
  await expect(code).toHaveText('404');
  // From here on only runFor() moves time. The pause is set well ahead of the page's clock, which
  // keeps running until then: on a loaded machine half a second could already be past.
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 5000));
  const glitching = async () => (await code.getAttribute('data-glitch')) === 'true';

  // Out of any glitch first, then find the start of the next one to within 10 ms.
  for (let step = 0; step < 30 && (await glitching()); step += 1) await page.clock.runFor(10);
  expect(await glitching()).toBe(false);
  let waited = 0;
  while (!(await glitching())) {
    expect(waited).toBeLessThanOrEqual(3000);
    await page.clock.runFor(10);
    waited += 10;
  }
  // It lasts 150 ms: still on at 140–150 ms, off at 160–170 ms.
  await page.clock.runFor(140);
  expect(await glitching()).toBe(true);
  await page.clock.runFor(20);
  expect(await glitching()).toBe(false);
  // The next one starts 3000 ms after the previous start: not yet at 2970–2980 ms, on at 3010–3020 ms.
  await page.clock.runFor(2810);
  expect(await glitching()).toBe(false);
  await page.clock.runFor(40);
  expect(await glitching()).toBe(true);
  await page.clock.runFor(150);
  expect(await glitching()).toBe(false);
});

test('unexpected error', async ({ page, apiAs }) => {
  const api = await apiAs('guard');
  // A malformed user (a name that is not text) breaks the dashboard's rendering.
  await page.route('**/api/user/me', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { user: Record<string, unknown> };
    await route.fulfill({ response, json: { user: { ...body.user, name: { prénom: 'Camille' } } } });
  });
  await signInWithToken(page, api.token);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Erreur Inattendue');
  await expect(page.getByTestId('error-code')).toHaveText('500');
  await expect(page.getByText(/is not a function/)).toBeVisible();
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await page.getByRole('link', { name: "Retourner à l'accueil" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Commencer maintenant' })).toBeVisible();
});
