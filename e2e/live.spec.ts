/**
 * Real-time dashboard: devices installed with the organization's key and reporting over MQTT
 * or HTTP show up, and their values change, within a second and without a reload; another
 * organization's devices never show; a silent device goes « Hors ligne ».
 */
import type { Page } from '@playwright/test';
import { account, Api, expect, signInWithToken, test } from './support/fixtures';
import { sideMenu } from './support/navigation';
import { connectDevice, DeviceProtocol, sendTelemetry, uniqueSerial } from './support/telemetry';

// Its tests share one account's data: in order, in one worker.
test.describe.configure({ mode: 'default' });

const LIVE = { timeout: 1000 };

/** Opens the dashboard signed in and waits until the live stream answers. */
async function openLiveDashboard(page: Page, token: string): Promise<void> {
  await signInWithToken(page, token);
  const streamOpen = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/stream');
  await page.goto('/dashboard');
  expect((await streamOpen).status()).toBe(200);
}

test('a sensor installed over HTTP appears live, then its MQTT readings change its value within 1 s', async ({ page, request }) => {
  const api = await Api.login(request, account('live'));
  const protocol = new DeviceProtocol(request, api.token);
  const before = (await api.list('sensor')).length;
  await openLiveDashboard(page, api.token);
  await page.getByRole('tab', { name: /Capteurs/ }).click();
  await expect(page.getByRole('heading', { name: `Capteurs (${before})` })).toBeVisible();

  const name = `Frigo live ${uniqueSerial('n')}`;
  const sensor = await protocol.provision({ serial: uniqueSerial('LIVE'), kind: 'sensor', name, model: 'TH-1' });
  const card = page.getByTestId('device-card').filter({ hasText: name });
  await expect(card).toBeVisible(LIVE);
  await expect(page.getByRole('heading', { name: `Capteurs (${before + 1})` })).toBeVisible(LIVE);
  await expect(card).toContainText('Jamais connecté');

  const device = await connectDevice('127.0.0.1', await protocol.mqttPort(), sensor.deviceId, sensor.accessToken);
  try {
    await device.publish({ values: { temperature: 3.7, battery: 15 } });
    await expect(card.getByTestId('device-main-value')).toHaveText('3,7\u202F°C', LIVE);
    await expect(card).toContainText('En ligne', LIVE);
    await expect(card.locator('[data-low-battery]')).toContainText('15\u202F%', LIVE);
    await device.publish({ values: { temperature: -1.25 } });
    await expect(card.getByTestId('device-main-value')).toHaveText(/^[-−]1,3\u202F°C$/, LIVE);
  } finally {
    await device.close();
  }
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('a transmitter reporting over HTTP appears and updates live; deleted elsewhere, it disappears', async ({ page, request }) => {
  const api = await Api.login(request, account('live'));
  const protocol = new DeviceProtocol(request, api.token);
  await openLiveDashboard(page, api.token);
  await expect(page.getByRole('tab', { name: /Émetteurs/ })).toHaveAttribute('aria-selected', 'true');

  const name = `Passerelle ${uniqueSerial('n')}`;
  const emitter = await protocol.provision({ serial: uniqueSerial('GW'), kind: 'emitter', name });
  const card = page.getByTestId('device-card').filter({ hasText: name });
  await expect(card).toBeVisible(LIVE);

  expect(await sendTelemetry(request, emitter.accessToken, { values: { rssi: -67 } })).toBe(202);
  await expect(card.getByTestId('device-main-value')).toHaveText('\u221267\u202FdBm', LIVE);
  expect(await sendTelemetry(request, emitter.accessToken, { rssi: -58 })).toBe(202);
  await expect(card.getByTestId('device-main-value')).toHaveText('\u221258\u202FdBm', LIVE);

  // Deleted by someone else of the organization: gone from this screen too.
  await api.remove('emitter', emitter.deviceId);
  await expect(card).toHaveCount(0, LIVE);
});

test("another organization's devices never appear", async ({ page, request }) => {
  const api = await Api.login(request, account('live'));
  const stranger = await Api.login(request, account('stranger'));
  await openLiveDashboard(page, api.token);
  await page.getByRole('tab', { name: /Capteurs/ }).click();

  const foreignName = `Capteur étranger ${uniqueSerial('n')}`;
  const foreign = await new DeviceProtocol(request, stranger.token).provision({
    serial: uniqueSerial('FOREIGN'),
    kind: 'sensor',
    name: foreignName,
  });
  expect(await sendTelemetry(request, foreign.accessToken, { values: { temperature: 9 } })).toBe(202);
  // Events arrive in order: once our own device shows, the foreign one would have too.
  const ownName = `Capteur maison ${uniqueSerial('n')}`;
  await new DeviceProtocol(request, api.token).provision({ serial: uniqueSerial('OWN'), kind: 'sensor', name: ownName });
  await expect(page.getByTestId('device-card').filter({ hasText: ownName })).toBeVisible(LIVE);
  await expect(page.getByText(foreignName)).toHaveCount(0);

  await page.goto(`/dashboard/capteurs/${foreign.deviceId}`);
  await expect(page.getByTestId('error-code')).toHaveText('404');
});

test('a device installed while the list is still loading is not lost when the older answer arrives', async ({ page, request }) => {
  const api = await Api.login(request, account('live'));
  const protocol = new DeviceProtocol(request, api.token);
  const name = `Installé pendant le chargement ${uniqueSerial('n')}`;
  let installed: Promise<void> | null = null;
  let answered!: () => void;
  const staleAnswerDelivered = new Promise<void>((resolve) => (answered = resolve));
  // The sensors' list is read from the server, then, before the page receives it, a device is
  // installed: the answer the page gets predates the device, as on a busy server.
  await page.route('**/api/sensor', async (route) => {
    if (route.request().method() !== 'GET') return route.fallback();
    const stale = await route.fetch();
    installed ??= protocol.provision({ serial: uniqueSerial('RACE'), kind: 'sensor', name }).then(() => undefined);
    await installed;
    await page.waitForTimeout(300);
    await route.fulfill({ response: stale });
    answered();
  });
  await openLiveDashboard(page, api.token);
  // The 1 s counts from the moment the device is installed and the older list has landed.
  await staleAnswerDelivered;
  await page.getByRole('tab', { name: /Capteurs/ }).click();
  await expect(page.getByTestId('device-card').filter({ hasText: name })).toBeVisible(LIVE);
});

test('the dashboard says whether its values are live', async ({ page, request }) => {
  const api = await Api.login(request, account('live'));
  await page.route('**/api/stream', (route) => route.abort());
  await signInWithToken(page, api.token);
  await page.goto('/dashboard');
  await expect(page.getByRole('status').filter({ hasText: 'Connexion au direct…' })).toBeVisible();

  await page.unrouteAll({ behavior: 'ignoreErrors' });
  // The client retries by itself, after its back-off (1 s, 2 s, 4 s, 8 s… with jitter).
  await expect(page.getByRole('status').filter({ hasText: 'En direct' })).toBeVisible({ timeout: 20_000 });
  await sideMenu(page).getByRole('link', { name: 'Installation' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'En direct' })).toBeVisible();
});

test('a dashboard left open stops animating once live: nothing keeps redrawing it', async ({ page, request }) => {
  // With motion, as most people have it (the configuration asks for reduced motion).
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  const api = await Api.login(request, account('live'));
  await signInWithToken(page, api.token);
  await page.goto('/dashboard');
  await expect(page.getByRole('status').filter({ hasText: 'En direct' })).toBeVisible();
  // The live dot pings three times, then rests; the background does not drift on signed-in pages.
  await expect
    .poll(
      () =>
        page.evaluate(() =>
          document
            .getAnimations()
            .filter((animation) => animation.playState === 'running')
            .map((animation) => (animation instanceof CSSAnimation ? animation.animationName : 'script')),
        ),
      { timeout: 10_000 },
    )
    .toEqual([]);
});

test('a device that falls silent shows « Hors ligne » once its delay has passed', async ({ page, request }) => {
  const api = await Api.login(request, account('live'));
  const protocol = new DeviceProtocol(request, api.token);
  const name = `Silencieux ${uniqueSerial('n')}`;
  const sensor = await protocol.provision({ serial: uniqueSerial('QUIET'), kind: 'sensor', name });
  await protocol.update('sensor', sensor.deviceId, { inactivityTimeoutSeconds: 30 });
  expect(await sendTelemetry(request, sensor.accessToken, { values: { humidity: 48 } })).toBe(202);

  await page.clock.install();
  await openLiveDashboard(page, api.token);
  await page.getByRole('tab', { name: /Capteurs/ }).click();
  const card = page.getByTestId('device-card').filter({ hasText: name });
  await expect(card).toContainText('En ligne');
  await expect(card.getByTestId('device-main-value')).toHaveText('48\u202F%');

  await page.clock.fastForward(31_000);
  await expect(card).toContainText('Hors ligne', LIVE);
  await expect(card.locator('[data-status="offline"]')).toBeVisible();
});

test('moving between signed-in pages keeps one stream connection and the same header', async ({ page, request }) => {
  const who = account('live');
  const api = await Api.login(request, who);
  const streams: string[] = [];
  page.on('request', (sent) => {
    if (new URL(sent.url()).pathname === '/api/stream') streams.push(sent.url());
  });
  await openLiveDashboard(page, api.token);
  await expect(page.getByRole('status').filter({ hasText: 'En direct' })).toBeVisible();

  await sideMenu(page).getByRole('link', { name: 'Installation' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Installation' })).toBeVisible();
  await expect(page.getByRole('banner')).toContainText(who.name ?? who.email);
  await sideMenu(page).getByRole('link', { name: 'Tableau de bord' }).click();
  await sideMenu(page).getByRole('link', { name: 'Corbeille' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Corbeille' })).toBeVisible();
  await expect(page.getByRole('banner')).toContainText(who.name ?? who.email);
  await expect(page.getByRole('status').filter({ hasText: 'En direct' })).toBeVisible();
  expect(streams).toHaveLength(1);
});
