/**
 * Alerts, end to end against the real server: a reading above a rule's limit turns the card red
 * and shows the banner and the bell; the alert is acknowledged and annotated, its timeline shown;
 * back in range, it resolves by itself. The same on a phone.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, saveScreenshot, seriousViolations, test, type Api } from './support/fixtures';
import { DeviceProtocol, sendTelemetry, uniqueSerial } from './support/telemetry';

// One account for the whole file: its tests run one after the other.
test.describe.configure({ timeout: 90_000, mode: 'serial' });

async function removeRules(request: APIRequestContext, api: Api) {
  const headers = { Authorization: `Bearer ${api.token}` };
  const rules = ((await (await request.get('/api/alert-rules', { headers })).json()) as { rules: { id: string }[] }).rules;
  for (const rule of rules) await request.delete(`/api/alert-rules/${rule.id}`, { headers });
}

/** A sensor watched by the ≤ +4 °C preset with no delay, reporting 3,1 °C. */
async function watchedFridge(request: APIRequestContext, api: Api, name: string) {
  const protocol = new DeviceProtocol(request, api.token);
  const sensor = await protocol.provision({ serial: uniqueSerial('FRIGO'), kind: 'sensor', name });
  expect(await sendTelemetry(request, sensor.accessToken, { temperature: 3.1 })).toBe(202);
  const created = await request.post('/api/alert-rules', {
    headers: { Authorization: `Bearer ${api.token}` },
    data: { name: 'Crèmerie ≤ +4 °C', sensorId: sensor.deviceId, preset: 'chilled_very_perishable' },
  });
  expect(created.status()).toBe(201);
  return sensor;
}

async function sensorsTab(page: Page) {
  await page.getByRole('tab', { name: /Capteurs/ }).click();
}

for (const viewport of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 375, height: 812 },
]) {
  test(`a fridge above its limit turns red, is acknowledged and annotated, then resolves by itself (${viewport.name})`, async ({
    page,
    request,
    login,
    apiAs,
  }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const api = await apiAs('alerts');
    await api.clear();
    await removeRules(request, api);
    const name = `Vitrine crèmerie ${Date.now().toString(36)}`;
    const sensor = await watchedFridge(request, api, name);

    await login('alerts');
    await sensorsTab(page);
    const card = page.getByTestId('device-card').filter({ hasText: name });
    await expect(card).toBeVisible();
    await expect(card).not.toHaveAttribute('data-alert');
    await expect(page.getByRole('link', { name: /Alertes : aucune à traiter/ })).toBeVisible();

    // 12,5 °C: within 2 s the card is red with its badge, the banner and the bell say so.
    expect(await sendTelemetry(request, sensor.accessToken, { temperature: 12.5 })).toBe(202);
    await expect(card).toHaveAttribute('data-alert', 'critical', { timeout: 2000 });
    await expect(card.getByText('En alerte')).toBeVisible({ timeout: 2000 });
    await expect(card.getByTestId('device-main-value')).toHaveText('12,5\u202F°C', { timeout: 2000 });
    await expect(card.getByTestId('device-main-value')).toHaveClass(/text-red-300/);
    await expect(page.getByText('1 alerte en cours')).toBeVisible({ timeout: 2000 });
    await expect(page.getByRole('link', { name: 'Alertes : 1 alerte à traiter' })).toBeVisible({ timeout: 2000 });
    await expect(page.getByRole('status').filter({ hasText: `Alerte : ${name}` })).toBeVisible({ timeout: 2000 });
    await saveScreenshot(page, `alerts-dashboard-${viewport.name}`);

    // The alerts page lists it first; its page shows the value, the limit and the forms.
    await page.getByRole('link', { name: 'Alertes : 1 alerte à traiter' }).click();
    await expect(page.getByRole('heading', { name: 'Alertes', level: 1 })).toBeVisible();
    const item = page.getByTestId('alert-item').filter({ hasText: name });
    await expect(item).toContainText('À traiter');
    await expect(item).toContainText('12,5\u202F°C');
    await saveScreenshot(page, `alerts-list-${viewport.name}`);
    expect(await seriousViolations(page)).toEqual([]);
    await item.click();
    await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
    await expect(page.getByText('Température ≤ +4,0\u202F°C')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Résoudre l’alerte' })).toBeDisabled();

    await page.getByLabel('Commentaire (facultatif)').fill('Je descends voir la vitrine.');
    await page.getByRole('button', { name: 'Acquitter' }).click();
    await expect(page.getByText('Acquittée', { exact: true }).first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Acquitter' })).toHaveCount(0);
    await page.getByLabel('Action corrective').fill('Produits déplacés en chambre froide, porte refermée.');
    await page.getByRole('button', { name: 'Enregistrer l’action' }).click();
    await expect(page.getByText('Action enregistrée.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Résoudre l’alerte' })).toBeEnabled();

    const timeline = page.getByRole('list', { name: 'Chronologie de l’alerte' });
    // Opened, e-mailed to the team (the e2e server has a real SMTP server), acknowledged, acted on.
    await expect(timeline.getByRole('listitem')).toHaveCount(4);
    await expect(timeline).toContainText('Alerte ouverte');
    await expect(timeline).toContainText('Alerte envoyée à');
    await expect(timeline).toContainText('Je descends voir la vitrine.');
    await expect(timeline).toContainText('Produits déplacés en chambre froide, porte refermée.');
    await saveScreenshot(page, `alert-page-${viewport.name}`, true);
    expect(await seriousViolations(page)).toEqual([]);

    // Back in range: it resolves by itself, live, and the timeline says so.
    expect(await sendTelemetry(request, sensor.accessToken, { temperature: 3.4 })).toBe(202);
    await expect(page.getByText('Résolue', { exact: true }).first()).toBeVisible({ timeout: 5000 });
    await expect(timeline).toContainText('Retour à la normale.');
    await expect(page.getByRole('link', { name: /Alertes : aucune à traiter/ })).toBeVisible();

    await page.goto('/dashboard');
    await sensorsTab(page);
    await expect(card).not.toHaveAttribute('data-alert');
    await expect(page.getByText(/alertes? en cours/)).toHaveCount(0);
  });
}

test('the sensor page adds a preset rule in one click and draws its limit', async ({ page, request, login, apiAs }) => {
  const api = await apiAs('alerts');
  await api.clear();
  await removeRules(request, api);
  const protocol = new DeviceProtocol(request, api.token);
  const sensor = await protocol.provision({ serial: uniqueSerial('CONGEL'), kind: 'sensor', name: 'Congélateur réserve' });
  expect(await sendTelemetry(request, sensor.accessToken, { temperature: -19.2 })).toBe(202);
  await login('alerts', `/dashboard/capteurs/${sensor.deviceId}`);
  await expect(page.getByText('Aucune règle\u202f: ce capteur n’est pas surveillé.')).toBeVisible();
  await page.getByRole('button', { name: 'Surgelés\u00a0: ≤ −18 °C' }).click();
  const rule = page.getByTestId('alert-rule');
  await expect(rule).toContainText('Température ≤ −18,0\u202F°C');
  await expect(rule).toContainText('Arrêté du 21 décembre 2009');
  await expect(page.getByTestId('readings-chart')).toBeVisible();
  await saveScreenshot(page, 'sensor-rules', true);
  expect(await seriousViolations(page)).toEqual([]);
});

test('the Sites page adds a shop, sets its hours and watches all its sensors with a preset', async ({ page, request, login, apiAs }) => {
  const api = await apiAs('alerts');
  await removeRules(request, api);
  const shop = `Boutique ${Date.now().toString(36)}`;
  await login('alerts', '/dashboard/sites');
  await page.getByLabel('Nouveau magasin').fill(shop);
  await page.getByRole('button', { name: 'Ajouter un magasin' }).click();
  await expect(page.getByText(`Magasin « ${shop} » ajouté.`)).toBeVisible();
  const section = page.getByRole('region', { name: shop });
  await section.getByLabel('Dimanche').fill('9h-12h');
  await section.getByRole('button', { name: 'Enregistrer le site' }).click();
  await expect(section.getByText('Dimanche : « 9h-12h » : écrivez une plage comme 09:00–19:00, ou « fermé ».')).toBeVisible();
  await section.getByLabel('Dimanche').fill('09:00–12:30');
  await section.getByRole('button', { name: 'Enregistrer le site' }).click();
  await expect(section.getByText('Site enregistré.')).toBeVisible();
  await section.getByRole('button', { name: 'Froid positif – denrées périssables\u00a0: ≤ +8 °C' }).click();
  await expect(section.getByTestId('alert-rule')).toContainText('Température ≤ +8,0\u202F°C');
  expect(await seriousViolations(page)).toEqual([]);

  const sites = (
    (await (await request.get('/api/sites', { headers: { Authorization: `Bearer ${api.token}` } })).json()) as {
      sites: { name: string; openingHours: { sun: string[][] } }[];
    }
  ).sites;
  expect(sites.find((site) => site.name === shop)?.openingHours.sun).toEqual([['09:00', '12:30']]);
  await saveScreenshot(page, 'sites', true);
});

test('the notification policy escalates to a named address after two hours', async ({ page, login }) => {
  await login('alerts', '/dashboard/alertes');
  const policy = page.getByRole('region', { name: 'Notifications' });
  // The e2e server sends e-mail through the global setup's SMTP server: no « désactivés » notice.
  await expect(policy.getByRole('button', { name: 'Enregistrer' })).toBeVisible();
  await expect(page.getByText('Les e-mails d’alerte sont désactivés', { exact: false })).toHaveCount(0);
  await policy.getByRole('button', { name: 'Ajouter une étape d’escalade' }).click();
  await policy.getByLabel('Adresses (vide : l’équipe)').nth(1).fill('responsable.region@enseigne.fr');
  await policy.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(policy.getByText('Politique enregistrée.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('region', { name: 'Notifications' }).getByLabel('Adresses (vide : l’équipe)').nth(1)).toHaveValue(
    'responsable.region@enseigne.fr',
  );
});
