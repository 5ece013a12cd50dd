/**
 * The dashboard's sensor cards against the real server: each says what it watches (a fridge, a
 * freezer, a door), the limit it is held to, its last 24 hours as a small curve named in words,
 * a pause going on, and flags a low battery and a weak signal; nothing wider than a phone.
 */
import type { APIRequestContext } from '@playwright/test';
import { checkAtBothSizes, expect, test, type Api } from './support/fixtures';
import { DeviceProtocol, sendHistory, sendTelemetry, uniqueSerial, type Reading } from './support/telemetry';

test.describe.configure({ timeout: 120_000 });

const NNBSP = '\u202F';

async function shop(request: APIRequestContext, api: Api) {
  const headers = { Authorization: `Bearer ${api.token}` };
  const rules = ((await (await request.get('/api/alert-rules', { headers })).json()) as { rules: { id: string }[] }).rules;
  for (const rule of rules) await request.delete(`/api/alert-rules/${rule.id}`, { headers });
  const protocol = new DeviceProtocol(request, api.token);
  const now = Date.now();
  const day = (value: (hour: number) => number) => {
    const readings: Reading[] = [];
    for (let ts = now - 23 * 3600_000; ts <= now - 60_000; ts += 15 * 60_000) readings.push({ ts, values: { temperature: value(ts) } });
    return readings;
  };

  const dairy = await protocol.provision({ serial: uniqueSerial('CARTE'), kind: 'sensor', name: 'Vitrine crèmerie' });
  await sendHistory(
    request,
    dairy.accessToken,
    day((ts) => (ts > now - 6 * 3600_000 ? 3.6 : 2.8)),
  );
  const freezer = await protocol.provision({ serial: uniqueSerial('CARTE'), kind: 'sensor', name: 'Congélateur glaces' });
  await sendHistory(
    request,
    freezer.accessToken,
    day(() => -19.5),
  );
  const door = await protocol.provision({ serial: uniqueSerial('CARTE'), kind: 'sensor', name: 'Porte de la réserve' });
  expect(await sendTelemetry(request, door.accessToken, { values: { open: 0, battery: 28, rssi: -118 } })).toBe(202);

  for (const [sensor, preset] of [
    [dairy, 'chilled_very_perishable'],
    [freezer, 'frozen'],
  ] as const) {
    const created = await request.post('/api/alert-rules', { headers, data: { name: preset, sensorId: sensor.deviceId, preset } });
    expect(created.status(), await created.text()).toBe(201);
  }
  const pause = await request.post('/api/pauses', { headers, data: { sensorId: dairy.deviceId, reason: 'Nettoyage', minutes: 120 } });
  expect(pause.status(), await pause.text()).toBe(201);
}

test('sensor cards say what they watch, their limit, their day, a pause, and a low battery or weak signal', async ({
  page,
  request,
  apiAs,
  login,
}) => {
  const api = await apiAs('cards');
  await api.clear();
  await shop(request, api);
  await login('cards');
  await page.getByRole('tab', { name: /Capteurs/ }).click();

  const dairy = page.getByTestId('device-card').filter({ hasText: 'Vitrine crèmerie' });
  await expect(dairy.locator('[data-use]')).toHaveAttribute('data-use', 'fridge');
  await expect(dairy).toContainText('Froid positif');
  await expect(dairy.getByTestId('device-limit')).toHaveText(`Limite${NNBSP}: ≤ +4,0${NNBSP}°C`);
  await expect(dairy.getByRole('img', { name: `Température sur 24${NNBSP}h${NNBSP}: de 2,8${NNBSP}°C à 3,6${NNBSP}°C` })).toBeVisible();
  await expect(dairy.getByTestId('device-pause')).toHaveText(new RegExp(`^En pause jusqu’à (demain )?\\d{1,2}${NNBSP}h`));

  const freezer = page.getByTestId('device-card').filter({ hasText: 'Congélateur glaces' });
  await expect(freezer.locator('[data-use]')).toHaveAttribute('data-use', 'freezer');
  await expect(freezer).toContainText('Surgelés');
  await expect(freezer.getByTestId('device-limit')).toHaveText(`Limite${NNBSP}: ≤ −18,0${NNBSP}°C`);
  await expect(freezer.getByTestId('device-sparkline')).toBeVisible();

  const door = page.getByTestId('device-card').filter({ hasText: 'Porte de la réserve' });
  await expect(door.locator('[data-use]')).toHaveAttribute('data-use', 'door');
  await expect(door.locator('[data-low-battery]')).toContainText(`28${NNBSP}%`);
  await expect(door.locator('[data-weak-signal]')).toHaveText(`Signal faible${NNBSP}: −118${NNBSP}dBm`);
  // A door's open or closed has no curve.
  await expect(door.getByTestId('device-sparkline')).toHaveCount(0);

  await checkAtBothSizes(page, 'device-cards');

  // On the sensor's page, its history chart shades the pause and names it under the curve, on a phone too.
  await page.getByRole('tabpanel').getByRole('link', { name: 'Vitrine crèmerie' }).click();
  const history = page.getByRole('figure', { name: /^Historique/ });
  await expect(history.getByTestId('readings-chart').locator('canvas').first()).toBeVisible();
  const pauses = history.getByRole('list', { name: 'Pauses sur la période' });
  const nameOfPause = new RegExp(
    `^Pause${NNBSP}: Nettoyage, en cours depuis \\d{1,2}${NNBSP}h(${NNBSP}\\d{2})?, jusqu’à (demain )?\\d{1,2}${NNBSP}h`,
  );
  await expect(pauses.getByRole('listitem')).toHaveText([nameOfPause]);
  await expect(history.getByTestId('chart-legend')).toContainText('Pause (notifications en attente)');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(pauses.getByRole('listitem')).toHaveText([nameOfPause]);
  await page.emulateMedia({ colorScheme: 'light' });
  await checkAtBothSizes(page, 'sensor-pause');
  await page.setViewportSize({ width: 375, height: 812 });
  await pauses.scrollIntoViewIfNeeded();
  await expect(pauses.getByRole('listitem')).toHaveText([nameOfPause]);
  await expect(pauses).toBeVisible();
});
