/**
 * A sensor's detail page: history chart and its ranges, rename with validation, a new token
 * shown once (the old one revoked), CSV export, and 404 for an unknown or foreign device.
 */
import { readFileSync } from 'node:fs';
import { account, Api, expect, signInWithToken, test } from './support/fixtures';
import { DeviceProtocol, sendHistory, sendTelemetry, uniqueSerial, type Reading } from './support/telemetry';

// Its tests share one account's data: in order, in one worker.
test.describe.configure({ timeout: 90_000, mode: 'default' });

test('history chart, rename, token rotation and CSV export of a sensor', async ({ page, request }) => {
  const api = await Api.login(request, account('detail'));
  const protocol = new DeviceProtocol(request, api.token);
  const name = `Vitrine ${uniqueSerial('n')}`;
  const sensor = await protocol.provision({ serial: uniqueSerial('DETAIL'), kind: 'sensor', name, model: 'Vigie TH-1' });
  const now = Date.now();
  const readings: Reading[] = [];
  for (let i = 1; i <= 2000; i += 1)
    readings.push({ ts: now - i * 5 * 60_000, values: { temperature: 4 + Math.sin(i / 20), humidity: 60 + (i % 7) } });
  await sendHistory(request, sensor.accessToken, readings);

  await signInWithToken(page, api.token);
  await page.goto('/dashboard');
  await page.getByRole('tab', { name: /Capteurs/ }).click();
  // In the sensors' tab: « À surveiller » above it may name the same sensor.
  await page.getByRole('tabpanel').getByRole('link', { name }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/capteurs/${sensor.deviceId}$`));
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByText('Vigie TH-1')).toBeVisible();

  // The chart draws on a canvas; each range asks the server for buckets again.
  const chart = page.getByTestId('readings-chart');
  await expect(chart.locator('canvas')).toBeVisible();
  const week = page.waitForResponse((response) => response.url().includes('/readings?') && response.status() === 200);
  await page.getByRole('button', { name: '7\u00A0j' }).click();
  await expect(page.getByRole('button', { name: '7\u00A0j' })).toHaveAttribute('aria-pressed', 'true');
  const body = (await (await week).json()) as { readings: unknown[]; keys: string[] };
  expect(body.readings.length).toBeGreaterThan(100);
  expect(body.readings.length).toBeLessThanOrEqual(2000);
  expect(body.keys.sort()).toEqual(['humidity', 'temperature']);
  await expect(page.getByRole('figure')).toContainText('mesures');
  await page.getByLabel('Mesure', { exact: true }).selectOption('humidity');
  await expect(page.getByRole('figure')).toContainText('Humidité');
  await page.getByRole('button', { name: '1\u00A0h' }).click();
  await expect(page.getByRole('button', { name: '1\u00A0h' })).toHaveAttribute('aria-pressed', 'true');
  await expect(chart.locator('canvas')).toBeVisible();

  // Rename: refused when empty, then saved and shown everywhere.
  const nameInput = page.getByLabel('Nom de l’appareil');
  await nameInput.fill('   ');
  await page.getByRole('button', { name: 'Renommer' }).click();
  await expect(page.getByText('Le nom est obligatoire.')).toBeVisible();
  await expect(nameInput).toHaveAttribute('aria-invalid', 'true');
  const renamed = `${name} (caisse)`;
  await nameInput.fill(renamed);
  await page.getByRole('button', { name: 'Renommer' }).click();
  await expect(page.getByRole('heading', { level: 1, name: renamed })).toBeVisible();
  expect((await api.list('sensor')).find((device) => device.id === sensor.deviceId)?.name).toBe(renamed);

  // A new token, after a warning; the previous one stops working.
  await page.getByRole('button', { name: 'Générer un nouveau jeton' }).click();
  const dialog = page.getByRole('dialog', { name: /^Générer un nouveau jeton.?\?$/ });
  await expect(dialog).toContainText('cessera aussitôt de fonctionner');
  await dialog.getByRole('button', { name: 'Générer', exact: true }).click();
  const shown = page.getByTestId('device-token');
  await expect(shown).toBeVisible();
  const newToken = (await shown.textContent()) ?? '';
  expect(newToken.length).toBeGreaterThan(10);
  await expect(page.getByLabel('Commandes de l’appareil')).toContainText(newToken);
  await expect(page.getByLabel('Commandes de l’appareil')).toContainText(`vigie/devices/${sensor.deviceId}/telemetry`);
  expect(await sendTelemetry(request, sensor.accessToken, { values: { temperature: 5 } })).toBe(401);
  expect(await sendTelemetry(request, newToken, { values: { temperature: 5 } })).toBe(202);
  // Shown once: gone after a reload.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: renamed })).toBeVisible();
  await expect(page.getByTestId('device-token')).toHaveCount(0);

  // CSV export of the last 7 days (the default period).
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Exporter en CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.csv$/);
  const text = readFileSync(await file.path(), 'utf8').replace(/^\uFEFF/, '');
  const [header, ...rows] = text.trim().split(/\r?\n/);
  expect(header).toBe('Date et heure (locale);Horodatage UTC;Mesure;Valeur;Unité');
  expect(rows.length).toBeGreaterThan(1000);
  await expect(page.getByText(/Fichier téléchargé/)).toBeVisible();
});

test('the offline delay is saved from the detail page', async ({ page, request }) => {
  const api = await Api.login(request, account('detail'));
  const sensor = await new DeviceProtocol(request, api.token).provision({
    serial: uniqueSerial('DELAY'),
    kind: 'emitter',
    name: `Passerelle ${uniqueSerial('n')}`,
  });
  await signInWithToken(page, api.token);
  await page.goto(`/dashboard/emetteurs/${sensor.deviceId}`);
  await page.getByLabel('Délai', { exact: true }).fill('10');
  await page.getByLabel('Unité').selectOption('seconds');
  await page.getByRole('button', { name: 'Enregistrer le délai' }).click();
  await expect(page.getByText('Choisissez un délai entre 30')).toBeVisible();
  await page.getByLabel('Délai', { exact: true }).fill('2');
  await page.getByLabel('Unité').selectOption('minutes');
  await page.getByRole('button', { name: 'Enregistrer le délai' }).click();
  await expect(page.getByText('Délai enregistré.')).toBeVisible();
  const response = await request.get(`/api/emitter/${sensor.deviceId}`, { headers: { Authorization: `Bearer ${api.token}` } });
  expect(((await response.json()) as { emitter: { inactivityTimeoutSeconds: number } }).emitter.inactivityTimeoutSeconds).toBe(120);
});

test('an unknown device, or a malformed id, shows the 404 page', async ({ page, login }) => {
  await login('detail', '/dashboard/capteurs/8d1f6c2e-4b7a-4c1d-9e3f-2a5b6c7d8e9f');
  await expect(page.getByTestId('error-code')).toHaveText('404');
  await expect(page.getByRole('heading', { name: 'Erreur 404' })).toBeVisible();
  await page.goto('/dashboard/emetteurs/pas-un-identifiant');
  await expect(page.getByTestId('error-code')).toHaveText('404');
});
