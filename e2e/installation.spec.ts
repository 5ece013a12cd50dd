/** The installation page: masked key, commands filled with this server’s settings, QR code to the guided installation, regeneration. */
import { account, Api, expect, signInWithToken, test } from './support/fixtures';
import { sideMenu } from './support/navigation';
import { DeviceProtocol, uniqueSerial } from './support/telemetry';

test('shows the key, the commands and the QR code; regenerating revokes the old key', async ({ page, request }) => {
  const api = await Api.login(request, account('install'));
  const protocol = new DeviceProtocol(request, api.token);
  const key = await protocol.installationKey();
  const mqttPort = await protocol.mqttPort();

  await signInWithToken(page, api.token);
  await page.goto('/dashboard');
  await sideMenu(page).getByRole('link', { name: 'Installation' }).click();
  await expect(page).toHaveURL(/\/dashboard\/installation$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Installation' })).toBeVisible();
  await expect(page.getByText(/Un appareil configuré avec la clé de votre organisation apparaît tout seul/)).toBeVisible();

  const shownKey = page.getByTestId('installation-key');
  await expect(shownKey).not.toHaveText(key);
  // Masked on screen in the commands too.
  await expect(page.getByTestId('install-snippet')).not.toContainText(key);
  await page.getByRole('button', { name: 'Afficher la clé' }).click();
  await expect(shownKey).toHaveText(key);

  const snippet = page.getByTestId('install-snippet');
  await expect(snippet).toContainText('/api/devices/provision');
  await expect(snippet).toContainText(key);
  await expect(snippet).toContainText(new RegExp(`port\\s+: ${mqttPort}`));
  await expect(snippet).toContainText('hôte         : 127.0.0.1');
  await expect(snippet).toContainText('vigie/devices/<identifiant-appareil>/telemetry');

  const qr = page.getByRole('img', { name: /Code QR de l’installation guidée/ });
  await expect(qr).toBeVisible();
  expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);

  await page.getByRole('button', { name: 'Régénérer la clé' }).click();
  const dialog = page.getByRole('dialog', { name: /^Régénérer la clé d’installation.?\?$/ });
  await expect(dialog).toContainText('n’installera plus aucun nouvel appareil');
  await dialog.getByRole('button', { name: 'Annuler' }).click();
  await expect(dialog).toBeHidden();
  await expect(shownKey).toHaveText(key);

  await page.getByRole('button', { name: 'Régénérer la clé' }).click();
  await dialog.getByRole('button', { name: 'Régénérer', exact: true }).click();
  await expect(page.getByText('Nouvelle clé créée.')).toBeVisible();
  const newKey = await protocol.installationKey();
  expect(newKey).not.toBe(key);
  await expect(shownKey).toHaveText(newKey);
  await expect(snippet).toContainText(newKey);

  const refused = await request.post('/api/devices/provision', {
    data: { installationKey: key, serial: uniqueSerial('OLD'), kind: 'sensor' },
  });
  expect(refused.status()).toBe(401);
  await protocol.provision({ serial: uniqueSerial('NEW'), kind: 'sensor' }, newKey);
});
