/**
 * Pushed alerts in Chromium: the app's service worker shows what the server pushes as a system
 * notification naming the fridge, with « Prendre en compte »; the page that action opens takes
 * the alert into account. The push itself is delivered through the DevTools protocol, as a
 * browser vendor's push service would deliver it.
 */
import type { APIRequestContext } from '@playwright/test';
import { expect, saveScreenshot, test, type Api } from './support/fixtures';
import { DeviceProtocol, sendTelemetry, uniqueSerial } from './support/telemetry';

// This spec is about the service worker itself.
test.use({ serviceWorkers: 'allow' });

test.describe.configure({ timeout: 90_000, mode: 'serial' });

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
  await expect
    .poll(async () => {
      const answer = await request.get(`/api/alerts?sensorId=${sensor.deviceId}`, { headers });
      return ((await answer.json()) as { alerts: { id: string }[] }).alerts[0]?.id ?? null;
    })
    .not.toBeNull();
  const answer = await request.get(`/api/alerts?sensorId=${sensor.deviceId}`, { headers });
  return ((await answer.json()) as { alerts: { id: string }[] }).alerts[0]?.id ?? '';
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

    await login('push');
    await page.goto('/dashboard/compte');
    const panel = page.getByTestId('push-panel');
    await expect(panel.getByRole('button', { name: 'Recevoir les alertes sur cet appareil' })).toBeVisible();
    await saveScreenshot(page, `push-account-${viewport.name}`);

    // The app's service worker, as « Recevoir les alertes » registers it; then a push, as the server sends it.
    const scope = await page.evaluate(async () => {
      await navigator.serviceWorker.register('/sw.js', { scope: '/' });
      return (await navigator.serviceWorker.ready).scope;
    });
    const cdp = await context.newCDPSession(page);
    const registrations = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: list }) => {
        const found = list.find((entry) => entry.scopeURL === scope && !entry.isDeleted);
        if (found) resolve(found.registrationId);
      });
    });
    await cdp.send('ServiceWorker.enable');
    const registrationId = await registrations;
    const message = {
      title: `Alerte critique – ${name} : 9,2 °C (limite ≤ +4,0 °C)`,
      body: `Alerte critique sur « ${name} » (Magasin principal). Valeur : 9,2 °C`,
      url: `${origin}/dashboard/alertes/${alertId}`,
      alertId,
      tag: `alerte-${alertId}`,
    };
    await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId, data: JSON.stringify(message) });

    const shown = async () =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((notification) => ({
          title: notification.title,
          body: notification.body,
          tag: notification.tag,
          // Chromium keeps a notification's actions; TypeScript's DOM types do not list them yet.
          actions: ((notification as Notification & { actions?: { title: string }[] }).actions ?? []).map((action) => action.title),
          url: (notification.data as { url?: string } | null)?.url ?? null,
        })),
      );
    await expect.poll(shown).toHaveLength(1);
    const [notification] = await shown();
    expect(notification?.title).toContain(name);
    expect(notification?.body).toContain(`« ${name} »`);
    expect(notification?.tag).toBe(`alerte-${alertId}`);
    expect(notification?.actions).toEqual(['Prendre en compte']);

    // What « Prendre en compte » opens: the alert's page, which takes it into account once.
    await page.goto(`${new URL(notification?.url ?? '').pathname}?prendre-en-compte=1`);
    await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
    await expect(page.getByTestId('acknowledged-from-notification')).toHaveText('Alerte prise en compte depuis la notification.');
    await expect(page).toHaveURL(new RegExp(`/dashboard/alertes/${alertId}$`));
    await expect(page.getByText('Acquittée').first()).toBeVisible();
    await saveScreenshot(page, `push-acknowledged-${viewport.name}`);
    const headers = { Authorization: `Bearer ${api.token}` };
    const alert = (await (await request.get(`/api/alerts/${alertId}`, { headers })).json()) as {
      alert: { status: string; events: { type: string; text?: string }[] };
    };
    expect(alert.alert.status).toBe('acknowledged');
    expect(alert.alert.events.filter((event) => event.type === 'acknowledged')).toEqual([
      expect.objectContaining({ text: 'Depuis la notification' }),
    ]);
  });
}
