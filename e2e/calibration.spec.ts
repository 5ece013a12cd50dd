/**
 * A sensor's verification register: a manager records a verification of +0,4 °C dated two hours
 * back, with its certificate; the sensor's value read since is shown corrected, the register
 * shows the verification and its next due date, and the certificate comes back as it was sent.
 */
import { account, Api, expect, signInWithToken, test } from './support/fixtures';
import { DeviceProtocol, sendTelemetry, uniqueSerial } from './support/telemetry';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

test('a verification recorded with its certificate corrects the values read since its date', async ({ page, request }) => {
  const api = await Api.login(request, account('calibration'));
  const protocol = new DeviceProtocol(request, api.token);
  const name = `Vitrine ${uniqueSerial('v')}`;
  const sensor = await protocol.provision({ serial: uniqueSerial('CAL'), kind: 'sensor', name });
  expect(await sendTelemetry(request, sensor.accessToken, { ts: Date.now() - 60 * 60_000, values: { temperature: 4.5 } })).toBe(202);

  await signInWithToken(page, api.token);
  await page.goto(`/dashboard/capteurs/${sensor.deviceId}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByTestId('latest-value').first()).toContainText('4,5');
  const register = page.getByRole('region', { name: 'Vérifications du capteur' });
  await expect(register).toContainText('Aucune vérification enregistrée.');

  // Two hours ago, in the browser's zone (the input's own format).
  const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
  const pad = (value: number) => String(value).padStart(2, '0');
  const local = `${twoHoursAgo.getFullYear()}-${pad(twoHoursAgo.getMonth() + 1)}-${pad(twoHoursAgo.getDate())}T${pad(twoHoursAgo.getHours())}:${pad(twoHoursAgo.getMinutes())}`;
  await register.getByLabel('Vérifié le').fill(local);
  await register.getByLabel(/Écart mesuré/).fill('0.4');
  await register.getByLabel('Méthode et instrument de référence').fill('Bain thermostaté, sonde étalon n° 4521');
  await register
    .getByLabel('Certificat (facultatif)')
    .setInputFiles({ name: 'certificat-4521.pdf', mimeType: 'application/pdf', buffer: PDF });
  await register.getByRole('button', { name: 'Enregistrer la vérification' }).click();
  await expect(register.getByText('Vérification enregistrée.')).toBeVisible();

  await expect(register).toContainText(/Dernière vérification\s:\s.*écart \+0,4\s°C/);
  await expect(register).toContainText('Prochaine');
  await expect(page.getByTestId('latest-value').first()).toContainText('4,1');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    register.getByRole('button', { name: /certificat-4521\.pdf/ }).click(),
  ]);
  const path = await download.path();
  expect(path).toBeTruthy();
  const { readFileSync } = await import('node:fs');
  expect(readFileSync(path ?? '').equals(PDF)).toBe(true);
});
