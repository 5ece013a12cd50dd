/**
 * The installed app offline: the service worker every page registers keeps the app's shell and the
 * last answers of the dashboard's reads for the signed-in session; with the network gone, a reload
 * still shows the dashboard with the sensor's last value and « Hors connexion — dernières valeurs
 * de 14 h 02 ». What it keeps is never given to another account's token, nor to another session's,
 * and goes at sign-out.
 */
import type { Page } from '@playwright/test';
import { account, Api, expect, saveScreenshot, signInWithToken, test } from './support/fixtures';
import { DeviceProtocol, sendTelemetry, uniqueSerial } from './support/telemetry';

test.describe.configure({ mode: 'serial', timeout: 90_000 });
// The service worker is what is under test here.
test.use({ serviceWorkers: 'allow' });

/** The kept answers of the page's session: path → when each was stored (ISO). */
async function keptAnswers(page: Page): Promise<Record<string, string>> {
  return page.evaluate(async () => {
    const kept: Record<string, string> = {};
    for (const name of await caches.keys()) {
      if (!name.startsWith('vigie-api-')) continue;
      const cache = await caches.open(name);
      for (const request of await cache.keys()) {
        const answer = await cache.match(request);
        kept[new URL(request.url).pathname + new URL(request.url).search] = answer?.headers.get('x-vigie-stored-at') ?? '';
      }
    }
    return kept;
  });
}

/** « 14 h 02 », « 9 h », as the app writes a time in Paris. */
function clock(iso: string): string {
  const parts = new Intl.DateTimeFormat('fr-FR', { hour: 'numeric', minute: 'numeric', hourCycle: 'h23', timeZone: 'Europe/Paris' })
    .formatToParts(new Date(iso))
    .reduce<Record<string, number>>((found, part) => (part.type === 'literal' ? found : { ...found, [part.type]: Number(part.value) }), {});
  const hour = parts['hour'] ?? 0;
  const minute = parts['minute'] ?? 0;
  return minute === 0 ? `${hour}\u202Fh` : `${hour}\u202Fh\u202F${String(minute).padStart(2, '0')}`;
}

test('the dashboard opens offline with its last values, kept for its own session only', async ({ page, context, request }) => {
  const api = await Api.login(request, account('offline'));
  const name = `Vitrine hors connexion ${uniqueSerial('n')}`;
  const sensor = await new DeviceProtocol(request, api.token).provision({ serial: uniqueSerial('OFFLINE'), kind: 'sensor', name });
  expect(await sendTelemetry(request, sensor.accessToken, { values: { temperature: 3.4 } })).toBe(202);
  // Tokens of another account, and of another session of the same person, for later.
  const stranger = await Api.login(request, account('empty'));
  const otherSession = await Api.login(request, account('offline'));

  await signInWithToken(page, api.token);
  await page.goto('/dashboard');
  const card = page.getByTestId('device-card').filter({ hasText: name });
  const showSensors = () => page.getByRole('tab', { name: /Capteurs/ }).click();
  await showSensors();
  await expect(card.getByTestId('device-main-value')).toHaveText('3,4\u202F°C');

  // Registered on load, the worker takes the page over; the next visit's reads go through it and are kept.
  await page.waitForFunction(
    async () => Boolean((await navigator.serviceWorker.ready).active) && navigator.serviceWorker.controller !== null,
  );
  await page.reload();
  await showSensors();
  await expect(card.getByTestId('device-main-value')).toHaveText('3,4\u202F°C');
  await expect
    .poll(async () => Object.keys(await keptAnswers(page)).sort())
    .toEqual(expect.arrayContaining(['/api/sensor', '/api/user/me']));
  const kept = await keptAnswers(page);

  // The network goes: the page, its code and its values come from the worker.
  await context.setOffline(true);
  const sensorsRead = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/sensor');
  await page.reload();
  expect((await sensorsRead).headers()['x-vigie-offline']).toBeTruthy();
  await showSensors();
  await expect(card.getByTestId('device-main-value')).toHaveText('3,4\u202F°C');
  const banner = page.getByTestId('offline-banner');
  await expect(banner).toHaveAttribute('role', 'status');
  await expect(banner).toHaveText(/^Hors connexion — dernières valeurs de \d{1,2}\u202Fh(\u202F\d{2})?$/);
  const shown = (await banner.textContent()) ?? '';
  expect(Object.values(kept).map((iso) => `Hors connexion — dernières valeurs de ${clock(iso)}`)).toContain(shown);

  // Visible on a phone, without widening the page.
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(banner).toBeInViewport();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await saveScreenshot(page, 'offline-phone');
  await page.setViewportSize({ width: 1280, height: 800 });

  // What is kept answers this session's token only: another account's, or another session's, gets nothing.
  const answers = await page.evaluate(
    async (tokens) =>
      Promise.all(
        tokens.map(async (token) => {
          const response = await fetch('/api/sensor', { headers: { Authorization: `Bearer ${token}` } });
          return { status: response.status, offline: response.headers.get('x-vigie-offline'), body: await response.text() };
        }),
      ),
    [api.token, stranger.token, otherSession.token],
  );
  expect(answers[0]?.status).toBe(200);
  expect(answers[0]?.offline).toBeTruthy();
  expect(answers[0]?.body).toContain(name);
  for (const refused of answers.slice(1)) {
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.body)).toEqual({ message: 'Hors connexion.' });
    expect(refused.body).not.toContain(name);
  }

  // Back online: the banner goes, the values are read from the server again.
  const freshRead = page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/sensor' && !response.headers()['x-vigie-offline'],
  );
  await context.setOffline(false);
  await expect(banner).toBeEmpty();
  await freshRead;
  await expect(card.getByTestId('device-main-value')).toHaveText('3,4\u202F°C');

  // Signing out deletes what was kept for the session.
  await page.getByRole('button', { name: 'Déconnexion' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect.poll(async () => Object.keys(await keptAnswers(page))).toEqual([]);
});
