/**
 * Pushed alerts in Chromium: the app's service worker shows what the server pushes as a system
 * notification naming the fridge, with « Prendre en compte »; a click on it runs the worker's own
 * `notificationclick`, which opens the alert's page in the app's window, and the action takes the
 * alert into account there. The push itself is delivered through the DevTools protocol, as a
 * browser vendor's push service would deliver it.
 */
import type { APIRequestContext } from '@playwright/test';
import { expect, saveScreenshot, test, type Api } from './support/fixtures';
import { activeServiceWorker, clickNotification, deliverPush, shownNotifications } from './support/service-worker';
import { DeviceProtocol, sendTelemetry, uniqueSerial } from './support/telemetry';

// This spec is about the service worker itself.
test.use({ serviceWorkers: 'allow' });

test.describe.configure({ timeout: 90_000, mode: 'serial' });

/** The id of the worker's « Prendre en compte » action (apps/web/public/sw.js), which the alert's page reads back. */
const ACKNOWLEDGE_ACTION = 'prendre-en-compte';

type AlertState = { status: string; events: { type: string; text?: string }[] };

async function alertState(request: APIRequestContext, api: Api, alertId: string): Promise<AlertState> {
  const answer = await request.get(`/api/alerts/${alertId}`, { headers: { Authorization: `Bearer ${api.token}` } });
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { alert: AlertState }).alert;
}

/** A fridge watched at ≤ +4 °C that reports 9,2 °C: its alert's id. */
async function breach(request: APIRequestContext, api: Api, name: string): Promise<string> {
  const headers = { Authorization: `Bearer ${api.token}` };
  const sensor = await new DeviceProtocol(request, api.token).provision({ serial: uniqueSerial('PUSH'), kind: 'sensor', name });
  const rule = await request.post('/api/alert-rules', {
    headers,
    data: { name: 'Crèmerie ≤ +4 °C', sensorId: sensor.deviceId, preset: 'chilled_very_perishable' },
  });
  expect(rule.status()).toBe(201);
  expect(await sendTelemetry(request, sensor.accessToken, { temperature: 9.2 })).toBe(202);
  let alertId: string | null = null;
  await expect
    .poll(async () => {
      const answer = await request.get(`/api/alerts?sensorId=${sensor.deviceId}`, { headers });
      alertId = ((await answer.json()) as { alerts: { id: string }[] }).alerts[0]?.id ?? null;
      return alertId;
    })
    .not.toBeNull();
  return alertId ?? '';
}

for (const viewport of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 375, height: 812 },
]) {
  test(`a pushed alert names the fridge and is taken into account from its notification (${viewport.name})`, async ({
    page,
    context,
    request,
    login,
    apiAs,
    baseURL,
  }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const origin = new URL(baseURL ?? '').origin;
    await context.grantPermissions(['notifications'], { origin });
    const api = await apiAs('push');
    const name = `Vitrine crèmerie ${Date.now().toString(36)}`;
    const alertId = await breach(request, api, name);
    const alertPath = `/dashboard/alertes/${alertId}`;

    await login('push');
    await page.goto('/dashboard/compte');
    const panel = page.getByTestId('push-panel');
    await expect(panel.getByRole('button', { name: 'Recevoir les alertes sur cet appareil' })).toBeVisible();
    await saveScreenshot(page, `push-account-${viewport.name}`);

    // The app's worker, once it controls this page; then a push, as the server sends it.
    const worker = await activeServiceWorker(page, origin);
    const tag = `alerte-${alertId}`;
    const message = {
      title: `Alerte critique – ${name} : 9,2 °C (limite ≤ +4,0 °C)`,
      body: `Alerte critique sur « ${name} » (Magasin principal). Valeur : 9,2 °C`,
      url: `${origin}${alertPath}`,
      alertId,
      tag,
    };
    const pushed = async () => {
      await deliverPush(page, worker, origin, message);
      await expect
        .poll(async () => (await shownNotifications(worker)).map((shown) => shown.tag), { message: 'the pushed notification is shown' })
        .toEqual([tag]);
      const [notification] = await shownNotifications(worker);
      expect(notification?.title).toContain(name);
      expect(notification?.body).toContain(`« ${name} »`);
      expect(notification?.actions).toEqual([{ action: ACKNOWLEDGE_ACTION, title: 'Prendre en compte' }]);
      expect(notification?.data).toEqual({ url: `${origin}${alertPath}`, alertId });
    };

    // Where the worker sends the app's window: every address the page goes to, from the click on.
    const visited: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.push(frame.url());
    });
    const closed = () =>
      expect.poll(async () => (await shownNotifications(worker)).length, { message: 'the clicked notification is closed' }).toBe(0);

    // A click on the notification itself: the app's window goes to the alert, which stays to be dealt with.
    await pushed();
    visited.length = 0;
    expect(await clickNotification(worker, tag), 'work handed to event.waitUntil').toBeGreaterThan(0);
    await expect.poll(() => visited[0]).toBe(`${origin}${alertPath}`);
    await expect(page).toHaveURL(`${origin}${alertPath}`);
    await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
    await expect(page.getByText('À traiter', { exact: true }).first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Acquitter' })).toBeVisible();
    await closed();
    expect((await alertState(request, api, alertId)).status).toBe('open');

    // The same alert pushed again, and « Prendre en compte »: taken into account once, from the notification.
    await pushed();
    visited.length = 0;
    expect(await clickNotification(worker, tag, ACKNOWLEDGE_ACTION), 'work handed to event.waitUntil').toBeGreaterThan(0);
    await expect.poll(() => visited[0]).toBe(`${origin}${alertPath}?${ACKNOWLEDGE_ACTION}=1`);
    await expect(page.getByTestId('acknowledged-from-notification')).toHaveText('Alerte prise en compte depuis la notification.');
    // The query leaves the address once used: a reload takes nothing more into account.
    await expect(page).toHaveURL(`${origin}${alertPath}`);
    await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
    await expect(page.getByText('Acquittée', { exact: true }).first()).toBeVisible();
    await closed();
    await saveScreenshot(page, `push-acknowledged-${viewport.name}`);
    const alert = await alertState(request, api, alertId);
    expect(alert.status).toBe('acknowledged');
    expect(alert.events.filter((event) => event.type === 'acknowledged')).toEqual([
      expect.objectContaining({ text: 'Depuis la notification' }),
    ]);
  });
}
