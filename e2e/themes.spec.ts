/**
 * Every signed-in screen in both themes, on the realistic shop of the gallery account: the theme
 * the device asks for (light unless it prefers dark), no serious or critical axe violation and
 * nothing wider than the screen at 1280 and 375 px, and a full-page screenshot of each
 * (e2e/screenshots/theme-<light|dark>-<screen>-<desktop|phone>.png). The choice made in « Mon
 * compte » wins over the device's and stays; the public pages keep the specification's dark look.
 *
 * Tagged @apparence: what it checks does not depend on the database (it is not among the specs run
 * again on PostgreSQL, DATABASE_SPECS in playwright.config.ts).
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { checkAtBothSizes, expect, test, type Api } from './support/fixtures';
import { GALLERY_DAIRY, GALLERY_FRIDGE, GALLERY_GATEWAY } from './support/gallery';

// Axe twice and two full-page screenshots per test, on a busy 2-core machine. The screens only
// read the gallery shop, and the choice of theme is another account's: the tests spread over the
// workers instead of keeping one busy for minutes at the end of the suite.
test.describe.configure({ mode: 'parallel', timeout: 120_000 });

type Screen = { name: string; path: (ids: Ids) => string; heading: string | RegExp; then?: (page: Page) => Promise<void> };
type Ids = { fridge: string; gateway: string; alert: string };

const SCREENS: Screen[] = [
  { name: 'tableau-de-bord', path: () => '/dashboard', heading: 'Tableau de bord' },
  {
    name: 'tableau-de-bord-capteurs',
    path: () => '/dashboard',
    heading: 'Tableau de bord',
    // The sensors' cards with their curves drawn.
    then: async (page) => {
      await page.getByRole('tab', { name: /Capteurs/ }).click();
      await expect(page.getByTestId('device-sparkline').first()).toBeVisible();
    },
  },
  { name: 'capteur', path: (ids) => `/dashboard/capteurs/${ids.fridge}`, heading: GALLERY_FRIDGE },
  { name: 'emetteur', path: (ids) => `/dashboard/emetteurs/${ids.gateway}`, heading: GALLERY_GATEWAY },
  { name: 'alertes', path: () => '/dashboard/alertes', heading: 'Alertes' },
  { name: 'alerte', path: (ids) => `/dashboard/alertes/${ids.alert}`, heading: GALLERY_DAIRY },
  { name: 'magasins', path: () => '/dashboard/sites', heading: /^(Magasins|Sites)$/ },
  { name: 'rapports', path: () => '/dashboard/rapports', heading: 'Rapports' },
  { name: 'controles', path: () => '/dashboard/controles', heading: /Contrôles/ },
  { name: 'taches', path: () => '/dashboard/taches', heading: 'Tâches du jour' },
  { name: 'plan', path: () => '/dashboard/plan', heading: 'Plan de maîtrise sanitaire' },
  { name: 'compte', path: () => '/dashboard/compte', heading: 'Mon compte' },
  { name: 'equipe', path: () => '/dashboard/equipe', heading: 'Équipe' },
  { name: 'journal', path: () => '/dashboard/journal', heading: 'Journal' },
  { name: 'reseau', path: () => '/dashboard/reseau', heading: 'Réseau' },
  { name: 'lorawan', path: () => '/dashboard/lorawan', heading: 'Capteurs LoRaWAN' },
  { name: 'installation', path: () => '/dashboard/installation', heading: 'Installation' },
  { name: 'installer', path: () => '/dashboard/installer', heading: /Installer/ },
  { name: 'corbeille', path: () => '/dashboard/corbeille', heading: 'Corbeille' },
];

async function galleryIds(request: APIRequestContext, api: Api): Promise<Ids> {
  const fridge = (await api.list('sensor')).find((device) => device.name === GALLERY_FRIDGE);
  const dairy = (await api.list('sensor')).find((device) => device.name === GALLERY_DAIRY);
  const gateway = (await api.list('emitter')).find((device) => device.name === GALLERY_GATEWAY);
  if (!fridge || !dairy || !gateway) throw new Error('The gallery shop is not seeded');
  let alert: string | undefined;
  // The dairy cabinet's alert is opened by the readings the global setup sent last.
  await expect
    .poll(async () => {
      const response = await request.get(`/api/alerts?sensorId=${dairy.id}`, { headers: { Authorization: `Bearer ${api.token}` } });
      alert = ((await response.json()) as { alerts: { id: string }[] }).alerts[0]?.id;
      return alert;
    })
    .toBeTruthy();
  return { fridge: fridge.id, gateway: gateway.id, alert: alert ?? '' };
}

async function settled(page: Page, screen: Screen) {
  await expect(page.getByRole('heading', { level: 1, name: screen.heading })).toBeVisible();
  // Loading lines and skeletons gone: the screen as a person reads it.
  await expect(page.getByText('Chargement…', { exact: true })).toHaveCount(0);
  await expect(page.getByTestId('skeleton-card')).toHaveCount(0);
}

for (const theme of ['light', 'dark'] as const) {
  test.describe(`${theme === 'light' ? 'light' : 'dark'} theme`, { tag: '@apparence' }, () => {
    test.use({ colorScheme: theme });

    for (const screen of SCREENS) {
      test(screen.name, async ({ page, request, login, apiAs }) => {
        const ids = await galleryIds(request, await apiAs('gallery'));
        await login('gallery', screen.path(ids));
        await settled(page, screen);
        await screen.then?.(page);
        await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
        await checkAtBothSizes(page, `theme-${theme}-${screen.name}`);
      });
    }
  });
}

test(
  'the choice made in « Mon compte » wins over the device’s, stays, and never reaches the public pages',
  { tag: '@apparence' },
  async ({ page, login }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await login('theme', '/dashboard/compte');
    const html = page.locator('html');
    await expect(html).toHaveAttribute('data-theme', 'light');
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await background();

    await page.getByRole('radio', { name: 'Sombre' }).check();
    await expect(html).toHaveAttribute('data-theme', 'dark');
    expect(await background()).not.toBe(light);
    await page.reload();
    await expect(page.getByRole('radio', { name: 'Sombre' })).toBeChecked();
    await expect(html).toHaveAttribute('data-theme', 'dark');

    // « Automatique » follows the device again, and its changes.
    await page.getByRole('radio', { name: 'Automatique' }).check();
    await expect(html).toHaveAttribute('data-theme', 'light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(html).toHaveAttribute('data-theme', 'dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // The landing page and the error pages keep the specification's dark look in a light session.
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(html).not.toHaveAttribute('data-theme');
    await page.goto('/dashboard/capteurs/00000000-0000-4000-8000-000000000000');
    await expect(page.getByTestId('error-code')).toHaveText('404');
    const errorPage = await page.evaluate(
      () => getComputedStyle(document.querySelector('[data-theme="dark"]') ?? document.body).backgroundColor,
    );
    expect(errorPage).toBe('oklch(0.129 0.042 264.695)');
  },
);
