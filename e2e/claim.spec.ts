/**
 * Plug-and-play for a shop employee (docs/guide-utilisateur.md, Installer un appareil étiqueté): on a phone, the label's QR code is read by the
 * camera (Chromium's fake camera plays a video of the label), the shop and the use are chosen, and
 * the first reading of the device, sent over MQTT, shows within seconds.
 */
import { chromium } from '@playwright/test';
import { factoryDevices } from './support/accounts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/chromium';
import { account, Api, expect, saveScreenshot, seriousViolations, signInWithToken, test } from './support/fixtures';
import { writeQrVideo } from './support/qr-video';
import { connectDevice, DeviceProtocol, type Provisioned } from './support/telemetry';

const PHONE = { width: 375, height: 812 };

function labelText(serial: string, claimCode: string): string {
  return `vigie:claim?${new URLSearchParams({ serial, code: claimCode }).toString()}`;
}

// A browser of its own with a fake camera, a QR code read from video and two accessibility scans:
// more than the default 45 s on a loaded 2-core machine.
// Its tests share one account's data: in order, in one worker.
test.describe.configure({ timeout: 120_000, mode: 'default' });

test('a labelled sensor is installed from a phone: scan, choose the shop and the use, see its first reading', async ({
  request,
  baseURL,
}, testInfo) => {
  const api = await Api.login(request, account('claim'));
  const device = factoryDevices()[0];
  if (!device) throw new Error('No factory device in the batch.');
  const video = testInfo.outputPath('label.y4m');
  writeQrVideo(video, labelText(device.serial, device.claimCode));

  // Before anyone claims it, the device is told to wait.
  const early = await request.post('/api/devices/provision', { data: { serial: device.serial, claimCode: device.claimCode } });
  expect(early.status()).toBe(202);
  expect(await early.json()).toEqual({ status: 'waiting' });

  // A browser of its own: the fake camera is a launch option.
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      ...CHROMIUM_ARGS,
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ],
  });
  try {
    const context = await browser.newContext({
      baseURL,
      viewport: PHONE,
      locale: 'fr-FR',
      timezoneId: 'Europe/Paris',
      hasTouch: true,
      permissions: ['camera'],
    });
    const page = await context.newPage();
    await signInWithToken(page, api.token);
    await page.goto('/dashboard');
    await page.getByRole('main').getByRole('link', { name: 'Installer un appareil' }).click();
    await expect(page.getByRole('heading', { name: 'Installer un appareil' })).toBeVisible();

    await page.getByRole('button', { name: 'Scanner l’étiquette' }).click();
    // The label is read from the camera and checked: the serial and the device found show, and the choices follow.
    await expect(page.getByText(device.serial)).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText(/^(Capteur|Émetteur).* reconnu$/)).toBeVisible();
    await page.getByLabel('Nom de l’appareil').fill('Vitrine crèmerie');
    await page.getByRole('radio', { name: /Vitrine réfrigérée – denrées très périssables/ }).check();
    expect(await seriousViolations(page)).toEqual([]);
    await saveScreenshot(page, 'claim-choices', true);
    await page.getByRole('button', { name: 'Installer l’appareil' }).click();

    await expect(page.getByRole('status').filter({ hasText: 'En attente du premier signal…' })).toBeVisible();
    await saveScreenshot(page, 'claim-waiting');

    // Claimed: the device now receives its token, connects over MQTT and sends its first reading.
    const provision = await request.post('/api/devices/provision', { data: { serial: device.serial, claimCode: device.claimCode } });
    expect(provision.status()).toBe(201);
    const provisioned = (await provision.json()) as Provisioned;
    expect(provisioned.kind).toBe('sensor');
    const port = await new DeviceProtocol(request, api.token).mqttPort();
    const mqtt = await connectDevice('127.0.0.1', port, provisioned.deviceId, provisioned.accessToken);
    try {
      await mqtt.publish({ values: { temperature: 3.6 } });
      await expect(page.getByText(/Reçu\s*:\s*3,6\s*°C — l’appareil est en place/)).toBeVisible({ timeout: 5_000 });
    } finally {
      await mqtt.close();
    }
    await saveScreenshot(page, 'claim-received');

    // The use chosen created its rule: above +4 °C on this sensor.
    const rules = await request.get(`/api/alert-rules?sensorId=${provisioned.deviceId}`, {
      headers: { Authorization: `Bearer ${api.token}` },
    });
    expect(rules.status()).toBe(200);
    const { rules: list } = (await rules.json()) as { rules: { condition: { type: string; threshold?: number } }[] };
    expect(list.map((rule) => rule.condition)).toEqual([{ type: 'above', key: 'temperature', threshold: 4 }]);

    await page.getByRole('link', { name: 'Voir l’appareil' }).click();
    await expect(page.getByRole('heading', { name: 'Vitrine crèmerie' })).toBeVisible();
    await context.close();
  } finally {
    await browser.close();
  }
});

test.describe('at 375 px', () => {
  test.use({ viewport: PHONE });

  test('a wrong code typed by hand and a missing camera each get a plain French answer', async ({ page, request }) => {
    const api = await Api.login(request, account('claim'));
    const device = factoryDevices()[1];
    if (!device) throw new Error('No second factory device in the batch.');
    await signInWithToken(page, api.token);
    await page.goto('/dashboard/installer');

    // This browser has no camera at all.
    await page.getByRole('button', { name: 'Scanner l’étiquette' }).click();
    await expect(page.getByRole('alert').filter({ hasText: /caméra/ })).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: /saisissez le numéro de série et le code/ })).toBeVisible();

    await page.getByLabel('Numéro de série').fill(device.serial);
    await page.getByLabel('Code de l’étiquette').fill('AAAA-BBBB-CCCC');
    await page.getByRole('button', { name: 'Continuer' }).click();
    // Checked at once: the answer is on the code's field, at step 1, and the serial stays.
    await expect(page.getByRole('alert').filter({ hasText: 'Appareil introuvable' })).toBeVisible();
    const code = page.getByLabel('Code de l’étiquette');
    await expect(code).toHaveAttribute('aria-invalid', 'true');
    await expect(code).toBeFocused();
    await expect(page.getByLabel('Numéro de série')).toHaveValue(device.serial);
    await expect(page.getByLabel('Nom de l’appareil')).toHaveCount(0);
    await saveScreenshot(page, 'claim-wrong-code');

    // Nothing was installed: the device still waits for its claim.
    const still = await request.post('/api/devices/provision', { data: { serial: device.serial, claimCode: device.claimCode } });
    expect(still.status()).toBe(202);
  });
});
