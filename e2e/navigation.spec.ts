/**
 * The navigation of the signed-in pages: from 1024 px a side menu that marks the page shown; on a
 * phone a bar of five entries at the foot of the screen, « Plus » opening a sheet with the other
 * pages (Échap or a choice closes it, the focus back on « Plus »), nothing of the page under the
 * bar. The breadcrumb leads back where the person came from: a sensor opened from an alert leads
 * back to the alert. A viewer is offered neither the installation of a device nor the integrations.
 * Axe at 1280 and 375 px, nothing wider than the screen.
 */
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { checkAtBothSizes, expect, saveScreenshot, seriousViolations, signInWithToken, test, type Api } from './support/fixtures';
import { invitationLink, lastMailTo } from './support/mail';
import { bottomBar, moreSheet, sideMenu } from './support/navigation';
import { DeviceProtocol, sendTelemetry, uniqueSerial } from './support/telemetry';

// Several axe analyses per test, on a busy 2-core machine.
test.describe.configure({ timeout: 120_000 });

const PHONE = { width: 375, height: 812 };

const breadcrumb = (page: Page): Locator => page.getByRole('navigation', { name: 'Fil d’Ariane' });

async function json<T>(response: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as T;
}

/** A fridge too warm for its rule: its alert, open. */
async function openAlert(request: APIRequestContext, api: Api) {
  const headers = { Authorization: `Bearer ${api.token}` };
  const name = `Vitrine ${uniqueSerial('nav')}`;
  const sensor = await new DeviceProtocol(request, api.token).provision({ serial: uniqueSerial('NAV'), kind: 'sensor', name });
  await json(
    await request.post('/api/alert-rules', {
      headers,
      data: { name: 'Froid', sensorId: sensor.deviceId, preset: 'chilled_very_perishable' },
    }),
  );
  expect(await sendTelemetry(request, sensor.accessToken, { temperature: 11.5 })).toBe(202);
  let alertId = '';
  await expect
    .poll(async () => {
      const { alerts } = await json<{ alerts: { id: string; status: string }[] }>(
        await request.get(`/api/alerts?sensorId=${sensor.deviceId}`, { headers }),
      );
      alertId = alerts.find((alert) => alert.status === 'open')?.id ?? '';
      return alertId;
    })
    .not.toBe('');
  return { sensorId: sensor.deviceId, alertId, name };
}

test('at 1280 px the side menu leads to « Alertes » and marks it as the page shown', async ({ page, login }) => {
  await login('showcase');
  const menu = sideMenu(page);
  await expect(menu).toBeVisible();
  // One navigation at a time: the phone's bar is out of the accessibility tree.
  await expect(bottomBar(page)).toHaveCount(0);
  await expect(menu.getByRole('link', { name: 'Tableau de bord' })).toHaveAttribute('aria-current', 'page');
  // The developer's page and the LoRaWAN sensors, apart under « Intégrations ».
  await expect(menu.getByRole('list', { name: 'Intégrations' }).getByRole('link')).toHaveText(['Installation', 'Capteurs LoRaWAN']);

  await menu.getByRole('link', { name: 'Alertes' }).click();
  await expect(page).toHaveURL(/\/dashboard\/alertes$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Alertes' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Alertes' })).toHaveAttribute('aria-current', 'page');
  await expect(menu.getByRole('link', { name: 'Tableau de bord' })).not.toHaveAttribute('aria-current');
  await expect(breadcrumb(page).getByRole('listitem')).toHaveText(['Tableau de bord', 'Alertes']);
  await expect(breadcrumb(page).locator('[aria-current="page"]')).toHaveText('Alertes');

  // The menu stays beside the page as it scrolls.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(menu.getByRole('link', { name: 'Alertes' })).toBeInViewport();
  await page.evaluate(() => window.scrollTo(0, 0));
  await checkAtBothSizes(page, 'navigation-alertes');
});

test('at 375 px the bar has five entries; « Plus » opens the other pages, closes on Échap and once one is chosen', async ({
  page,
  login,
}) => {
  await page.setViewportSize(PHONE);
  await login('showcase');
  const bar = bottomBar(page);
  await expect(bar).toBeVisible();
  await expect(sideMenu(page)).toHaveCount(0);
  await expect(bar.getByRole('listitem')).toHaveText(['Tableau de bord', 'Alertes', /^Rapports/, 'Magasins', 'Plus']);
  await expect(bar.getByRole('link', { name: 'Tableau de bord' })).toHaveAttribute('aria-current', 'page');
  // Targets a thumb can hit.
  for (const entry of await bar.getByRole('listitem').all()) {
    expect((await entry.locator('a, button').boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
  }

  const more = bar.getByRole('button', { name: 'Plus' });
  await expect(more).toHaveAttribute('aria-expanded', 'false');
  await more.click();
  const sheet = moreSheet(page);
  await expect(sheet).toBeVisible();
  await expect(more).toHaveAttribute('aria-expanded', 'true');
  await expect(sheet.getByRole('link', { name: 'Installer un appareil' })).toBeVisible();
  await expect(sheet.getByRole('list', { name: 'Intégrations' }).getByRole('link')).toHaveText(['Installation', 'Capteurs LoRaWAN']);
  expect(await seriousViolations(page)).toEqual([]);
  await saveScreenshot(page, 'navigation-plus-phone');

  await page.keyboard.press('Escape');
  await expect(sheet).toBeHidden();
  await expect(more).toHaveAttribute('aria-expanded', 'false');
  await expect(more).toBeFocused();

  await more.click();
  await sheet.getByRole('link', { name: 'Corbeille' }).click();
  await expect(page).toHaveURL(/\/dashboard\/corbeille$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Corbeille' })).toBeVisible();
  await expect(sheet).toBeHidden();
  await expect(more).toHaveAttribute('aria-expanded', 'false');
  await expect(more).toBeFocused();
  await expect(breadcrumb(page).getByRole('listitem')).toHaveText(['Tableau de bord', 'Corbeille']);

  // Scrolled to its foot, the page ends above the bar; a toast would show above it too.
  const clearance = await page.evaluate(() => {
    window.scrollTo(0, document.documentElement.scrollHeight);
    const barTop = document.querySelector('nav[aria-label="Navigation principale"]')?.getBoundingClientRect().top ?? 0;
    const pageEnd = document.querySelector('main')?.lastElementChild?.getBoundingClientRect().bottom ?? Infinity;
    const toasts = document.querySelector('[aria-label="Notifications"]');
    const toastsEnd = toasts ? toasts.getBoundingClientRect().bottom - parseFloat(getComputedStyle(toasts).paddingBottom) : Infinity;
    return { page: barTop - pageEnd, toasts: barTop - toastsEnd };
  });
  expect(clearance.page).toBeGreaterThanOrEqual(0);
  expect(clearance.toasts).toBeGreaterThanOrEqual(0);
});

test('a sensor opened from an alert leads back to the alert by the breadcrumb', async ({ page, request, login, apiAs }) => {
  const api = await apiAs('navigation');
  const { sensorId, alertId, name } = await openAlert(request, api);

  await login('navigation', '/dashboard/alertes');
  await page.getByTestId('alert-item').filter({ hasText: name }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/alertes/${alertId}$`));
  // The alert's page keeps its own way back to the list; the frame adds no breadcrumb there.
  await expect(page.getByRole('navigation', { name: 'Retour' }).getByRole('link', { name: 'Alertes' })).toBeVisible();
  await expect(breadcrumb(page)).toHaveCount(0);

  await page.getByRole('link', { name: 'Voir le capteur' }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/capteurs/${sensorId}$`));
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(breadcrumb(page).getByRole('listitem')).toHaveText(['Tableau de bord', 'Alertes', 'Alerte', 'Capteur']);
  await expect(breadcrumb(page).locator('[aria-current="page"]')).toHaveText('Capteur');
  await checkAtBothSizes(page, 'navigation-capteur-depuis-alerte');

  await breadcrumb(page).getByRole('link', { name: 'Alerte', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/alertes/${alertId}$`));
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

  // Opened from the dashboard, the same page leads back to the dashboard.
  await sideMenu(page).getByRole('link', { name: 'Tableau de bord' }).click();
  await page.getByRole('tab', { name: /Capteurs/ }).click();
  await page.getByTestId('device-card').getByRole('link', { name }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/capteurs/${sensorId}$`));
  await expect(breadcrumb(page).getByRole('listitem')).toHaveText(['Tableau de bord', 'Capteur']);
  await breadcrumb(page).getByRole('link', { name: 'Tableau de bord' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(breadcrumb(page)).toHaveCount(0);
});

test('a viewer is offered neither « Installer un appareil » nor « Intégrations »', async ({ browser, request, apiAs }) => {
  const admin = await apiAs('navigation');
  const headers = { Authorization: `Bearer ${admin.token}` };
  const email = `lecteur-${Date.now().toString(36)}@vigie.test`;
  await json(await request.post('/api/invitations', { headers, data: { email, role: 'viewer' } }));
  await expect.poll(() => invitationLink(lastMailTo(email)), { timeout: 15_000 }).not.toBeNull();
  const token = new URL(invitationLink(lastMailTo(email)) ?? '').hash.slice(1);
  const joined = await json<{ accessToken: string }>(
    await request.post('/api/invitations/accept', { data: { token, name: 'Lou Lectrice', password: `Mdp-${email}` } }),
  );

  const context = await browser.newContext();
  try {
    const viewer = await context.newPage();
    await signInWithToken(viewer, joined.accessToken);
    await viewer.goto('/dashboard');
    const menu = sideMenu(viewer);
    await expect(menu.getByRole('link', { name: 'Tableau de bord' })).toHaveAttribute('aria-current', 'page');
    await expect(menu.getByRole('link', { name: 'Corbeille' })).toBeVisible();
    await expect(viewer.getByRole('link', { name: 'Installer un appareil' })).toHaveCount(0);
    await expect(viewer.getByRole('list', { name: 'Intégrations' })).toHaveCount(0);
    await expect(viewer.getByText('Intégrations')).toHaveCount(0);
    await expect(menu.getByRole('link', { name: /^(Équipe|Journal|Installation|Capteurs LoRaWAN)$/ })).toHaveCount(0);

    // Nor on a phone, under « Plus ».
    await viewer.setViewportSize(PHONE);
    await bottomBar(viewer).getByRole('button', { name: 'Plus' }).click();
    const sheet = moreSheet(viewer);
    await expect(sheet.getByRole('link')).toHaveText(['Tâches du jour', 'Réseau', 'Contrôles', 'Corbeille', 'Mon compte']);
    await expect(sheet.getByText('Intégrations')).toHaveCount(0);
  } finally {
    await context.close();
  }
});
