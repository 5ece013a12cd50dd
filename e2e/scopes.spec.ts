/**
 * A chain of shops: the quality director groups shops in a region and invites a store manager
 * scoped to one shop (through the API, by e-mail through the real SMTP server). Signed in, the
 * manager sees that shop only — on the dashboard, in « Réseau », in the alerts — and another
 * shop's sensor page answers as an unknown one. The director's « Réseau » lists every shop, the
 * one with an alert first; a shop's name opens its devices.
 */
import type { APIRequestContext } from '@playwright/test';
import type { Site } from '@vigie/contract';
import { account, Api, expect, loginThroughForm, saveScreenshot, seriousViolations, signInWithToken, test } from './support/fixtures';
import { invitationLink, lastMailTo } from './support/mail';
import { sideMenu } from './support/navigation';
import { DeviceProtocol, sendTelemetry, uniqueSerial } from './support/telemetry';

test.describe.configure({ timeout: 120_000 });

async function json<T>(response: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as T;
}

test('a store manager scoped to one shop sees it alone; the director sees every shop in « Réseau »', async ({ page, browser, request }) => {
  const director = await Api.login(request, account('chain'));
  const headers = { Authorization: `Bearer ${director.token}` };
  const run = Date.now().toString(36);
  const site = async (name: string) => (await json<{ site: Site }>(await request.post('/api/sites', { headers, data: { name } }))).site;
  const lyon = await site(`Lyon Part-Dieu ${run}`);
  const lille = await site(`Lille Centre ${run}`);
  const region = (await json<{ region: { id: string } }>(await request.post('/api/regions', { headers, data: { name: `Nord ${run}` } })))
    .region;
  await json(await request.put(`/api/sites/${lille.id}`, { headers, data: { regionId: region.id } }));

  // A sensor in each shop; Lille's fridge is too warm.
  const protocol = new DeviceProtocol(request, director.token);
  const sensors: Record<'lyon' | 'lille', { id: string; token: string; name: string }> = {} as never;
  for (const [key, shop] of [
    ['lyon', lyon],
    ['lille', lille],
  ] as const) {
    const name = `Vitrine ${key} ${run}`;
    const provisioned = await protocol.provision({ serial: uniqueSerial(key.toUpperCase()), kind: 'sensor', name });
    await json(await request.put(`/api/sensor/${provisioned.deviceId}`, { headers, data: { siteId: shop.id } }));
    await json(
      await request.post('/api/alert-rules', {
        headers,
        data: { name: `Froid ${key}`, sensorId: provisioned.deviceId, preset: 'chilled_very_perishable' },
      }),
    );
    sensors[key] = { id: provisioned.deviceId, token: provisioned.accessToken, name };
  }
  await sendTelemetry(request, sensors.lyon.token, { temperature: 3.4 });
  await sendTelemetry(request, sensors.lille.token, { temperature: 11.8 });

  // The director's « Réseau »: every shop, Lille (an active alert) before Lyon.
  await signInWithToken(page, director.token);
  await page.goto('/dashboard');
  await sideMenu(page).getByRole('link', { name: 'Réseau' }).click();
  await expect(page).toHaveURL(/\/dashboard\/reseau$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Réseau' })).toBeVisible();
  const rows = page.getByTestId('network-site');
  await expect(rows.filter({ hasText: lille.name })).toContainText('Nord');
  const names = await rows.getByRole('rowheader').allInnerTexts();
  expect(names.indexOf(lille.name)).toBeGreaterThanOrEqual(0);
  expect(names.indexOf(lille.name)).toBeLessThan(names.indexOf(lyon.name));
  await page.getByLabel('Région').selectOption({ label: `Nord ${run}` });
  await expect(rows).toHaveCount(1);
  expect(await seriousViolations(page)).toEqual([]);
  await saveScreenshot(page, 'reseau-directrice', true);
  // A shop's name opens its devices.
  await rows.getByRole('link', { name: lille.name }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard\\?site=${lille.id}$`));
  await page.getByRole('tab', { name: /Capteurs/ }).click();
  await expect(page.getByText(sensors.lille.name)).toBeVisible();
  await expect(page.getByText(sensors.lyon.name)).toHaveCount(0);

  // The store manager of Lyon, invited with that shop as their scope, joins from the e-mail.
  const email = `lyon-${run}@vigie.test`;
  await json(await request.post('/api/invitations', { headers, data: { email, role: 'manager', scope: { siteIds: [lyon.id] } } }));
  await expect.poll(() => invitationLink(lastMailTo(email)), { timeout: 15_000 }).not.toBeNull();
  const link = invitationLink(lastMailTo(email)) ?? '';
  const token = new URL(link).hash.slice(1);
  const password = `Mdp-${run}-magasin-lyon`;
  const joined = await json<{ accessToken: string }>(
    await request.post('/api/invitations/accept', { data: { token, name: 'Responsable Lyon', password } }),
  );

  const context = await browser.newContext();
  const manager = await context.newPage();
  await signInWithToken(manager, joined.accessToken);
  await manager.goto('/dashboard');
  await manager.getByRole('tab', { name: /Capteurs/ }).click();
  await expect(manager.getByText(sensors.lyon.name)).toBeVisible();
  await expect(manager.getByText(sensors.lille.name)).toHaveCount(0);
  await manager.goto('/dashboard/reseau');
  await expect(manager.getByTestId('network-site')).toHaveCount(1);
  await expect(manager.getByTestId('network-site')).toContainText(lyon.name);
  await saveScreenshot(manager, 'reseau-responsable-magasin', true);
  // Lille's alert is not theirs; Lille's sensor page is an unknown sensor's.
  await manager.goto('/dashboard/alertes');
  await expect(manager.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(manager.getByText(sensors.lille.name)).toHaveCount(0);
  await manager.goto(`/dashboard/capteurs/${sensors.lille.id}`);
  await expect(manager.getByText(sensors.lille.name)).toHaveCount(0);
  const direct = await request.get(`/api/sensor/${sensors.lille.id}`, { headers: { Authorization: `Bearer ${joined.accessToken}` } });
  expect(direct.status()).toBe(404);
  expect(await direct.json()).toEqual({ message: 'Capteur introuvable.' });
  await context.close();

  // A district manager, viewer of the « Nord » region, signs in and lands on « Réseau ».
  const viewerEmail = `nord-${run}@vigie.test`;
  await json(
    await request.post('/api/invitations', { headers, data: { email: viewerEmail, role: 'viewer', scope: { regionIds: [region.id] } } }),
  );
  await expect.poll(() => invitationLink(lastMailTo(viewerEmail)), { timeout: 15_000 }).not.toBeNull();
  const viewerPassword = `Mdp-${run}-secteur-nord`;
  await json(
    await request.post('/api/invitations/accept', {
      data: { token: new URL(invitationLink(lastMailTo(viewerEmail)) ?? '').hash.slice(1), name: 'Secteur Nord', password: viewerPassword },
    }),
  );
  const districtContext = await browser.newContext();
  const district = await districtContext.newPage();
  await district.goto('/login');
  await loginThroughForm(district, { email: viewerEmail, password: viewerPassword });
  await expect(district).toHaveURL(/\/dashboard\/reseau$/);
  await expect(district.getByTestId('network-site')).toHaveCount(1);
  await expect(district.getByTestId('network-site')).toContainText(lille.name);
  // Lyon joins the region: it is in the district manager's « Réseau » at the next reading, after Lille (its alert).
  await json(await request.put(`/api/sites/${lyon.id}`, { headers, data: { regionId: region.id } }));
  await district.reload();
  await expect(district.getByTestId('network-site')).toHaveCount(2);
  expect(await district.getByTestId('network-site').getByRole('rowheader').allInnerTexts()).toEqual([lille.name, lyon.name]);
  await districtContext.close();
});
