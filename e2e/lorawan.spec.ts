/**
 * « Capteurs LoRaWAN », against the real server: a Milesight EM300-TH heard by The Things Stack
 * shows under « Nouveaux appareils détectés », is adopted in two clicks with its codec proposed,
 * and its next frame reaches its page live, at 1280 and 375 px; an integration created on the page
 * shows its secret once, and a detected device is set aside; a pasted TS013 codec is tried on a
 * sample frame (one that loops is stopped), saved, and chosen to adopt a sensor nobody knows; a
 * LoRaWAN label (TR005) typed in the installer opens « Ajouter un capteur LoRaWAN » with its DevEUI.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { expect, saveScreenshot, seriousViolations, test, type Api } from './support/fixtures';
import { openFromNavigation } from './support/navigation';

// One organization's data, this spec's own: in order.
test.describe.configure({ mode: 'serial', timeout: 120_000 });

const ACCOUNT = 'lorawan';
const NNBSP = '\u202F';
const NBSP = '\u00A0';
const SIZES = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 375, height: 812 },
];
/** Milesight's EM300-TH example: 92 % battery, 30.8 °C, 50.5 %. */
const EM300_FRAME = Buffer.from('0175' + '5c' + '0367' + '3401' + '0468' + '65', 'hex');

type CreatedIntegration = { id: string; url: string; secret: string; name: string };

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

const newDevEui = () => randomBytes(8).toString('hex');
const formatDevEui = (eui: string) => (eui.toUpperCase().match(/.{4}/g) ?? []).join(' ');

/** A The Things Stack v3 uplink, as its webhook posts it (JSON format). */
function ttsUplink(eui: string, fCnt: number, versionIds?: { brand_id: string; model_id: string }) {
  const receivedAt = new Date().toISOString();
  return {
    end_device_ids: {
      device_id: `eui-${eui}`,
      application_ids: { application_id: 'magasin-e2e' },
      dev_eui: eui.toUpperCase(),
      join_eui: '24E124C0002A0001',
      dev_addr: '260B1A2F',
    },
    correlation_ids: [`as:up:${randomBytes(6).toString('hex')}`],
    received_at: receivedAt,
    uplink_message: {
      session_key_id: 'AYx1',
      f_port: 85,
      f_cnt: fCnt,
      frm_payload: EM300_FRAME.toString('base64'),
      rx_metadata: [
        { gateway_ids: { gateway_id: 'passerelle-lyon', eui: 'B827EBFFFE6C2A11' }, rssi: -97, channel_rssi: -97, snr: 6.2 },
        { gateway_ids: { gateway_id: 'passerelle-reserve', eui: 'B827EBFFFE6C2A12' }, rssi: -71, channel_rssi: -71, snr: 9.5 },
      ],
      settings: { data_rate: { lora: { bandwidth: 125000, spreading_factor: 7 } }, frequency: '868100000' },
      received_at: receivedAt,
      ...(versionIds ? { version_ids: versionIds } : {}),
    },
  };
}

/** A ChirpStack v4 uplink (HTTP integration, JSON encoding), sent with `?event=up`. */
function chirpstackUp(eui: string, fCnt: number) {
  return {
    deduplicationId: '3d5a4bd8-6a0b-4a73-9d1f-25c1a6b1f0d2',
    time: new Date().toISOString(),
    deviceInfo: { applicationName: 'Magasin', deviceName: 'Réserve', devEui: eui },
    devAddr: '01fa3b2c',
    fCnt,
    fPort: 85,
    data: EM300_FRAME.toString('base64'),
    rxInfo: [{ gatewayId: '0016c001f153a14c', rssi: -80, snr: 7.5 }],
  };
}

async function createIntegration(request: APIRequestContext, api: Api, type: 'tts' | 'chirpstack', name: string) {
  const response = await request.post('/api/integrations', {
    headers: { Authorization: `Bearer ${api.token}` },
    data: { type, name },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { integration: CreatedIntegration }).integration;
}

/** Posts to the integration's address as the network server does, with its secret. */
async function sendAsNetwork(request: APIRequestContext, url: string, secret: string, body: unknown, query = '') {
  const response = await request.post(`${new URL(url).pathname}${query}`, {
    headers: { Authorization: `Bearer ${secret}` },
    data: body,
  });
  return { status: response.status(), body: (await response.json()) as { status?: string; readings?: number } };
}

async function removeIntegration(request: APIRequestContext, api: Api, id: string) {
  const response = await request.delete(`/api/integrations/${id}`, { headers: { Authorization: `Bearer ${api.token}` } });
  expect([204, 404]).toContain(response.status());
}

/** No serious axe violation, nothing wider than the screen, and a full-page screenshot. */
async function checkPage(page: Page, label: string, screenshot: string) {
  expect(await seriousViolations(page), label).toEqual([]);
  expect(await horizontalOverflow(page), label).toBeLessThanOrEqual(0);
  await saveScreenshot(page, screenshot, true);
}

for (const size of SIZES) {
  test(`a detected EM300-TH is adopted in two clicks, and its next frame shows live (${size.name})`, async ({
    page,
    request,
    apiAs,
    login,
  }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    const api = await apiAs(ACCOUNT);
    const integration = await createIntegration(request, api, 'tts', `The Things Stack ${size.name} ${Date.now().toString(36)}`);
    try {
      const eui = newDevEui();
      const shown = formatDevEui(eui);
      const first = await sendAsNetwork(
        request,
        integration.url,
        integration.secret,
        ttsUplink(eui, 1, { brand_id: 'milesight-iot', model_id: 'em300-th' }),
      );
      expect(first).toEqual({ status: 200, body: { status: 'unknown_device', readings: 0 } });

      // Reached from the navigation (under « Intégrations »), at either width.
      await login(ACCOUNT);
      await openFromNavigation(page, 'Capteurs LoRaWAN');
      await expect(page).toHaveURL(/\/dashboard\/lorawan$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Capteurs LoRaWAN' })).toBeVisible();
      await expect(page.getByTestId('integration').filter({ hasText: integration.name })).toContainText('The Things Stack');

      const pending = page.getByTestId('pending-device').filter({ hasText: shown });
      await expect(pending).toBeVisible();
      await expect(pending).toContainText('Milesight EM300-TH');
      await expect(pending).toContainText(/Vu 1 fois, dernière trame (à l’instant|il\sy\sa\s)/);
      await expect(pending).toContainText(`via ${integration.name}`);
      await checkPage(page, `LoRaWAN page at ${size.width} px`, `lorawan-pending-${size.name}`);

      // Click 1: « Adopter » opens everything prefilled.
      await pending.getByRole('button', { name: `Adopter l’appareil ${shown}` }).click();
      const dialog = page.getByRole('dialog', { name: `Adopter l’appareil ${shown.replace(/ /g, NBSP)}` });
      await expect(dialog).toBeVisible();
      const codec = dialog.getByLabel('Décodeur');
      await expect(codec).toHaveValue('milesight-em300-th');
      await expect(codec.locator('option:checked')).toHaveText('Milesight EM300-TH');
      await expect(dialog.getByLabel('Nom du capteur')).toHaveValue(`EM300-TH ${eui.slice(-6).toUpperCase()}`);
      await expect(dialog.getByLabel('Magasin')).not.toHaveValue('');
      await expect(dialog.getByLabel('Ce qu’il surveille')).toHaveValue('chilled_very_perishable');
      await checkPage(page, `adoption dialog at ${size.width} px`, `lorawan-adopt-${size.name}`);

      // Click 2: « Ajouter le capteur ».
      await dialog.getByRole('button', { name: 'Ajouter le capteur' }).click();
      await expect(dialog).toBeHidden();
      await expect(pending).toHaveCount(0);
      const registered = page.getByTestId('lorawan-device').filter({ hasText: shown });
      await expect(registered).toContainText('Milesight EM300-TH');
      await expect(registered).toContainText(`EM300-TH ${eui.slice(-6).toUpperCase()}`);
      const toast = page.getByRole('status', { name: 'Notifications' });
      await expect(toast).toContainText(`Capteur «${NNBSP}EM300-TH ${eui.slice(-6).toUpperCase()}${NNBSP}» ajouté`);

      // « Voir » opens the sensor's page; its next frame shows there without a reload.
      await toast.getByRole('button', { name: 'Voir' }).click();
      await expect(page).toHaveURL(/\/dashboard\/capteurs\/[0-9a-f-]{36}$/);
      const sensorId = new URL(page.url()).pathname.split('/').pop() ?? '';
      await expect(page.getByRole('heading', { level: 1 })).toContainText(`EM300-TH ${eui.slice(-6).toUpperCase()}`);
      const second = await sendAsNetwork(request, integration.url, integration.secret, ttsUplink(eui, 2));
      expect(second.status).toBe(200);
      expect(second.body.status).toBe('stored');
      const temperature = page.getByTestId('latest-value').filter({ hasText: 'Température' });
      await expect(temperature).toContainText(`30,8${NNBSP}°C`, { timeout: 5_000 });
      await expect(page.getByTestId('latest-value').filter({ hasText: 'Humidité' })).toContainText(`51${NNBSP}%`);
      await saveScreenshot(page, `lorawan-sensor-${size.name}`, true);

      // Back on the page: the device's last signal, the best of the gateways that heard it.
      await page.goto('/dashboard/lorawan');
      const signal = page.getByTestId('lorawan-device').filter({ hasText: shown });
      await expect(signal.getByTestId('lorawan-signal')).toHaveText(`RSSI \u221271${NBSP}dBm · SNR 9,5${NBSP}dB`);
      await expect(signal.getByTestId('lorawan-gateway')).toHaveText('B827 EBFF FE6C 2A12');
      await expect(signal.getByRole('link', { name: `EM300-TH ${eui.slice(-6).toUpperCase()}` })).toHaveAttribute(
        'href',
        `/dashboard/capteurs/${sensorId}`,
      );
      await checkPage(page, `LoRaWAN page with its device at ${size.width} px`, `lorawan-devices-${size.name}`);
      await api.remove('sensor', sensorId);
    } finally {
      await removeIntegration(request, api, integration.id);
    }
  });
}

test('an integration created on the page shows its secret once; a detected device is set aside', async ({ page, request, login }) => {
  await login(ACCOUNT, '/dashboard/lorawan');
  const name = `ChirpStack ${Date.now().toString(36)}`;
  const form = page.getByRole('form', { name: 'Nouvelle intégration' });
  await form.getByLabel('Serveur de réseau').selectOption({ label: 'ChirpStack' });
  await form.getByLabel('Nom').fill(name);
  await form.getByRole('button', { name: 'Créer l’intégration' }).click();

  const box = page.getByTestId('created-integration');
  await expect(box).toContainText(`Copiez ce secret maintenant${NNBSP}: il ne sera plus affiché.`);
  await expect(box).toContainText('Integrations → HTTP → Add');
  const secret = (await box.getByTestId('created-integration-secret').textContent()) ?? '';
  const url = (await box.getByTestId('created-integration-url').textContent()) ?? '';
  expect(secret).toMatch(/^vlw_\S{20,}$/);
  expect(url).toMatch(/\/api\/integrations\/[0-9a-f-]{36}\/events$/);
  await expect(box.getByRole('button', { name: 'Copier le secret' })).toBeVisible();

  // In the list: the address, never the secret.
  const row = page.getByTestId('integration').filter({ hasText: name });
  await expect(row).toContainText('ChirpStack');
  await expect(row).toContainText(`Dernier message${NNBSP}: Jamais`);
  await expect(row).toContainText(url);
  await expect(row).not.toContainText(secret);
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await checkPage(page, `new integration at ${size.width} px`, `lorawan-secret-${size.name}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  await box.getByRole('button', { name: 'J’ai copié le secret' }).click();
  await expect(box).toBeHidden();
  await expect(page.locator('body')).not.toContainText(secret);
  await page.reload();
  await expect(row).toBeVisible();
  await expect(page.locator('body')).not.toContainText(secret);

  // The secret works: an unknown sensor heard by ChirpStack shows up, and is set aside.
  const eui = newDevEui();
  const heard = await sendAsNetwork(request, url, secret, chirpstackUp(eui, 7), '?event=up');
  expect(heard).toEqual({ status: 200, body: { status: 'unknown_device', readings: 0 } });
  const pending = page.getByTestId('pending-device').filter({ hasText: formatDevEui(eui) });
  await expect(pending).toBeVisible({ timeout: 15_000 });
  await expect(pending).toContainText('Modèle inconnu');
  await pending.getByRole('button', { name: `Écarter l’appareil ${formatDevEui(eui)}` }).click();
  await expect(pending).toHaveCount(0);
  await expect(page.getByRole('status', { name: 'Notifications' })).toContainText('il reviendra s’il émet encore');

  // Deleted after a confirmation: its network server is refused from then on.
  await row.getByRole('button', { name: `Supprimer l’intégration ${name}` }).click();
  const confirm = page.getByRole('dialog', { name: `Supprimer l’intégration «${NNBSP}${name}${NNBSP}»${NNBSP}?` });
  await confirm.getByRole('button', { name: 'Supprimer', exact: true }).click();
  await expect(row).toHaveCount(0);
  expect((await sendAsNetwork(request, url, secret, chirpstackUp(eui, 8), '?event=up')).status).toBe(401);
});

/** A codec as a maker publishes it (LoRa Alliance TS013), for the EM300-TH frame. */
const EM300_CODEC = `function decodeUplink(input) {
  var b = input.bytes, t = b[5] | (b[6] << 8);
  return { data: { battery: b[2], temperature: (t > 0x7fff ? t - 0x10000 : t) / 10, humidity: b[9] / 2 } };
}`;
const LOOPING_CODEC = 'function decodeUplink(input) { while (true) {} }';
const STOPPED = 'Le décodeur a dépassé 50 ms sur cette trame : il a été arrêté.';

test('a pasted codec is tried on a sample frame, a looping one is stopped, and the saved one is offered at adoption', async ({
  page,
  request,
  apiAs,
  login,
}) => {
  const api = await apiAs(ACCOUNT);
  // What the API says of a codec that never returns, as the page shows it.
  const looped = await request.post('/api/lorawan/codecs/test', {
    headers: { Authorization: `Bearer ${api.token}` },
    data: { source: LOOPING_CODEC, payloadHex: EM300_FRAME.toString('hex') },
  });
  // Stopped, and still named in the style its source is written in.
  expect(await looped.json()).toEqual({ result: { ok: false, error: STOPPED, style: 'ts013' } });

  const integration = await createIntegration(request, api, 'tts', `The Things Stack décodeur ${Date.now().toString(36)}`);
  let sensorId: string | null = null;
  try {
    // A sensor the network server knows nothing of: no codec is proposed for it.
    const eui = newDevEui();
    const shown = formatDevEui(eui);
    expect((await sendAsNetwork(request, integration.url, integration.secret, ttsUplink(eui, 1))).status).toBe(200);

    await login(ACCOUNT, '/dashboard/lorawan');
    const section = page.getByRole('region', { name: 'Décodeurs collés' });
    await expect(section).toContainText(`Pour un capteur sans décodeur intégré${NNBSP}: collez le décodeur que son fabricant publie`);
    const tryForm = section.getByRole('form', { name: 'Essayer un décodeur' });
    const code = tryForm.getByLabel('Code du décodeur');
    const frame = tryForm.getByLabel('Trame d’essai (hexadécimal)');
    await expect(frame).toHaveAttribute('placeholder', '01755c03673401046865');
    const result = tryForm.getByTestId('codec-result');
    const tryButton = tryForm.getByRole('button', { name: 'Essayer' });

    await code.fill(EM300_CODEC);
    await frame.fill('01 75 5c 03 67 34 01 04 68 65');
    await tryForm.getByLabel('Port (fPort)').fill('85');
    await tryButton.click();
    const values = result.getByRole('table');
    await expect(values.getByRole('row', { name: /Température/ })).toContainText(`30,8${NNBSP}°C`);
    await expect(values.getByRole('row', { name: /Batterie/ })).toContainText(`92${NNBSP}%`);
    await expect(values.getByRole('row', { name: /Humidité/ })).toContainText(`50,5${NNBSP}%`);
    // The console says which of the makers' styles it read the source in.
    await expect(result.getByTestId('codec-style')).toHaveText(`Style reconnu${NNBSP}: LoRa Alliance TS013, decodeUplink(input)`);
    for (const size of SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.evaluate(() => window.scrollTo(0, 0));
      await checkPage(page, `pasted codec tried at ${size.width} px`, `lorawan-codec-tried-${size.name}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    // A codec that never returns is stopped in its sandbox; the page and the server go on.
    await code.fill(LOOPING_CODEC);
    await expect(values).toHaveCount(0);
    await tryButton.click();
    await expect(result.getByRole('alert')).toHaveText(STOPPED);
    await expect(tryButton).toBeEnabled();
    await code.fill(EM300_CODEC);
    await tryButton.click();
    await expect(values.getByRole('row', { name: /Température/ })).toContainText(`30,8${NNBSP}°C`);

    // Saved under a name: listed with what it reads.
    const name = `EM300 maison ${Date.now().toString(36)}`;
    const saveForm = section.getByRole('form', { name: 'Enregistrer le décodeur' });
    await saveForm.getByLabel('Nom du décodeur').fill(name);
    await saveForm.getByRole('button', { name: 'Enregistrer le décodeur' }).click();
    await expect(page.getByRole('status', { name: 'Notifications' })).toContainText(`Décodeur «${NNBSP}${name}${NNBSP}» enregistré`);
    const listed = section.getByTestId('pasted-codec').filter({ hasText: name });
    await expect(listed).toContainText(`Mesures${NNBSP}: Batterie, température, humidité`);
    await expect(code).toHaveValue('');
    for (const size of SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.evaluate(() => window.scrollTo(0, 0));
      await checkPage(page, `pasted codec saved at ${size.width} px`, `lorawan-codec-saved-${size.name}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    // Offered at once when the unknown sensor is adopted (no reload), and chosen.
    const pending = page.getByTestId('pending-device').filter({ hasText: shown });
    await expect(pending).toContainText('Modèle inconnu');
    await pending.getByRole('button', { name: `Adopter l’appareil ${shown}` }).click();
    const dialog = page.getByRole('dialog', { name: `Adopter l’appareil ${shown.replace(/ /g, NBSP)}` });
    const select = dialog.getByLabel('Décodeur');
    await expect(select).toHaveValue('');
    const label = `${name} (décodeur de l’organisation)`;
    await select.selectOption({ label });
    await expect(dialog.getByLabel('Ce qu’il surveille')).toHaveValue('chilled_very_perishable');
    await dialog.getByRole('button', { name: 'Ajouter le capteur' }).click();
    await expect(dialog).toBeHidden();
    const registered = page.getByTestId('lorawan-device').filter({ hasText: shown });
    await expect(registered).toContainText(label);
    const stored = await sendAsNetwork(request, integration.url, integration.secret, ttsUplink(eui, 2));
    expect(stored).toEqual({ status: 200, body: { status: 'stored', readings: 1 } });
    sensorId = (await registered.getByRole('link').getAttribute('href'))?.split('/').pop() ?? null;

    // Still read by a device: its deletion is refused, and the page says why.
    await listed.getByRole('button', { name: `Supprimer le décodeur ${name}` }).click();
    const confirm = page.getByRole('dialog', { name: `Supprimer le décodeur «${NNBSP}${name}${NNBSP}»${NNBSP}?` });
    await confirm.getByRole('button', { name: 'Supprimer', exact: true }).click();
    await expect(section.getByRole('alert')).toContainText('Des appareils lisent encore leurs trames avec ce décodeur');
    await expect(listed).toBeVisible();
  } finally {
    if (sensorId) await api.remove('sensor', sensorId);
    await removeIntegration(request, api, integration.id);
  }
});

test('a LoRaWAN label (TR005) typed in the installer leads to « Ajouter un capteur LoRaWAN » with its DevEUI filled', async ({
  page,
  request,
  apiAs,
  login,
}) => {
  const api = await apiAs(ACCOUNT);
  const integration = await createIntegration(request, api, 'tts', `The Things Stack étiquette ${Date.now().toString(36)}`);
  let sensorId: string | null = null;
  try {
    const eui = newDevEui();
    const shown = formatDevEui(eui);
    await login(ACCOUNT, '/dashboard/installer');
    // A barcode reader types the QR code's text where the serial goes.
    await page.getByLabel('Numéro de série').fill(`LW:D0:24E124C0002A0001:${eui.toUpperCase()}:00010001:S6136D19835540007:CAF2C`);
    const notice = page.getByTestId('lorawan-label');
    await expect(notice).toContainText(`Capteur LoRaWAN détecté${NNBSP}: DevEUI ${shown}`);
    await page.getByRole('button', { name: 'Continuer' }).click();
    const add = notice.getByRole('link', { name: 'Ajouter ce capteur LoRaWAN' });
    await expect(add).toBeFocused();
    for (const size of SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.evaluate(() => window.scrollTo(0, 0));
      await checkPage(page, `LoRaWAN label in the installer at ${size.width} px`, `lorawan-installer-${size.name}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    await add.click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/lorawan\\?devEui=${eui}$`));
    const dialog = page.getByRole('dialog', { name: 'Ajouter un capteur LoRaWAN' });
    await expect(dialog.getByLabel('DevEUI')).toHaveValue(shown);
    const codec = dialog.getByLabel('Décodeur');
    await expect(codec).toHaveValue('');
    await codec.selectOption({ label: 'Milesight EM300-TH' });
    await expect(dialog.getByLabel('Nom du capteur')).toHaveValue(`Capteur LoRaWAN ${eui.slice(-6).toUpperCase()}`);
    await expect(dialog.getByLabel('Magasin')).not.toHaveValue('');
    for (const size of SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await checkPage(page, `« Ajouter un capteur LoRaWAN » at ${size.width} px`, `lorawan-add-by-label-${size.name}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await dialog.getByRole('button', { name: 'Ajouter le capteur' }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/dashboard\/lorawan$/);
    await expect(page.getByRole('status', { name: 'Notifications' })).toContainText(
      `Capteur «${NNBSP}Capteur LoRaWAN ${eui.slice(-6).toUpperCase()}${NNBSP}» ajouté`,
    );
    const registered = page.getByTestId('lorawan-device').filter({ hasText: shown });
    await expect(registered).toContainText('Milesight EM300-TH');
    sensorId = (await registered.getByRole('link').getAttribute('href'))?.split('/').pop() ?? null;

    // Registered: its first frame is stored, not kept for adoption.
    const heard = await sendAsNetwork(request, integration.url, integration.secret, ttsUplink(eui, 1));
    expect(heard).toEqual({ status: 200, body: { status: 'stored', readings: 1 } });
  } finally {
    if (sensorId) await api.remove('sensor', sensorId);
    await removeIntegration(request, api, integration.id);
  }
});
