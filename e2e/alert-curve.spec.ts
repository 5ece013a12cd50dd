/**
 * An alert's page once resolved, against the real server: its worst value in large type, how long
 * it lasted and the limit allowed first; the sensor's curve around it, said in words; the timeline
 * beside them on a wide screen, under them on a phone, nothing wider than the screen; the way back
 * leads to the alerts.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, saveScreenshot, seriousViolations, test, type Api } from './support/fixtures';
import { DeviceProtocol, sendHistory, sendTelemetry, uniqueSerial, type Reading } from './support/telemetry';

test.describe.configure({ timeout: 90_000 });

const NNBSP = '\u202F';
/** « 14 h 55 », « 9 h », as the page writes times. */
const CLOCK = `\\d{1,2}${NNBSP}h(${NNBSP}\\d{2})?`;

type ApiAlert = { id: string; status: string; peak: number | null };

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

async function removeRules(request: APIRequestContext, api: Api) {
  const headers = { Authorization: `Bearer ${api.token}` };
  const rules = ((await (await request.get('/api/alert-rules', { headers })).json()) as { rules: { id: string }[] }).rules;
  for (const rule of rules) await request.delete(`/api/alert-rules/${rule.id}`, { headers });
}

/** A fridge at 3 °C for two hours, watched by the ≤ +4 °C preset, that warms to 13,1 °C and comes back. */
async function resolvedAlert(request: APIRequestContext, api: Api, name: string): Promise<ApiAlert> {
  const headers = { Authorization: `Bearer ${api.token}` };
  const sensor = await new DeviceProtocol(request, api.token).provision({ serial: uniqueSerial('COURBE'), kind: 'sensor', name });
  const now = Date.now();
  const history: Reading[] = [];
  for (let ts = now - 2 * 3600_000; ts <= now - 60_000; ts += 5 * 60_000) history.push({ ts, values: { temperature: 3 } });
  await sendHistory(request, sensor.accessToken, history);
  const rule = await request.post('/api/alert-rules', {
    headers,
    data: { name: 'Crèmerie ≤ +4 °C', sensorId: sensor.deviceId, preset: 'chilled_very_perishable' },
  });
  expect(rule.status(), await rule.text()).toBe(201);
  for (const temperature of [12.5, 13.1, 3.4]) expect(await sendTelemetry(request, sensor.accessToken, { temperature })).toBe(202);
  let alert: ApiAlert | undefined;
  await expect
    .poll(async () => {
      const response = await request.get(`/api/alerts?sensorId=${sensor.deviceId}`, { headers });
      alert = ((await response.json()) as { alerts: ApiAlert[] }).alerts[0];
      return alert?.status;
    })
    .toBe('resolved');
  if (!alert) throw new Error('No alert');
  return alert;
}

test('a resolved alert shows its peak, its duration and its limit first, its curve, and the timeline beside', async ({
  page,
  request,
  login,
  apiAs,
}) => {
  const api = await apiAs('alert-curve');
  await api.clear();
  await removeRules(request, api);
  const name = `Vitrine crèmerie ${uniqueSerial('c')}`;
  const alert = await resolvedAlert(request, api, name);
  expect(alert.peak).toBe(13.1);

  await login('alert-curve', `/dashboard/alertes/${alert.id}`);
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  // The peak is the big figure, the closing value apart.
  await expect(page.getByTestId('alert-value')).toHaveText(`13,1${NNBSP}°C`);
  await expect(page.getByTestId('alert-summary')).toContainText('Au plus haut');
  await expect(page.getByTestId('alert-duration')).toHaveText(new RegExp(`^a duré \\d+${NNBSP}min$`));
  await expect(page.getByTestId('alert-limit')).toHaveText(`Limite autorisée${NNBSP}: Température ≤ +4,0${NNBSP}°C`);
  await expect(page.getByText(`Dernière valeur${NNBSP}:`)).toBeVisible();

  // The curve, drawn and said in words: the figure is named by its sentence.
  await expect(page.getByTestId('readings-chart').locator('canvas')).toBeVisible();
  // Across midnight in Paris, the sentence names the days: « du 28 novembre à 23 h 16 au 29 novembre à 0 h 16 », « du 1er décembre… ».
  const DATED = `\\d{1,2}(er)?\\s\\p{L}+\\sà\\s${CLOCK}`;
  const sentence = new RegExp(
    `^Courbe (de ${CLOCK} à ${CLOCK}|du\\s${DATED}\\sau\\s${DATED})${NNBSP}: pic \\+13,1${NNBSP}°C (à ${CLOCK}|le\\s${DATED}), limite ≤ \\+4,0${NNBSP}°C$`,
    'u',
  );
  await expect(page.getByTestId('alert-curve-text')).toHaveText(sentence);
  // Accessible names are compared with their spaces made plain.
  await expect(page.getByRole('figure', { name: new RegExp(sentence.source.replaceAll(NNBSP, '\\s'), 'u') })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Légende' })).toContainText(`Au plus haut (+13,1${NNBSP}°C)`);

  // On a wide screen, the timeline stands beside the curve.
  const curve = page.getByRole('region', { name: 'Courbe' });
  const timeline = page.getByRole('region', { name: 'Chronologie' });
  const [curveBox, timelineBox] = [await curve.boundingBox(), await timeline.boundingBox()];
  expect(timelineBox?.x ?? 0).toBeGreaterThan((curveBox?.x ?? 0) + (curveBox?.width ?? 0) - 1);
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  await saveScreenshot(page, 'alert-curve-page', true);
  expect(await seriousViolations(page)).toEqual([]);

  // On a phone, one column: the curve first, then the timeline; nothing wider than the screen.
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(page.getByTestId('alert-curve-text')).toHaveText(sentence);
  const [phoneCurve, phoneTimeline] = [await curve.boundingBox(), await timeline.boundingBox()];
  expect(phoneTimeline?.y ?? 0).toBeGreaterThan((phoneCurve?.y ?? 0) + (phoneCurve?.height ?? 0) - 1);
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  await saveScreenshot(page, 'alert-curve-page', true);
  expect(await seriousViolations(page)).toEqual([]);

  // The way back leads to the alerts, though the page was opened directly.
  await page.getByRole('navigation', { name: 'Retour' }).getByRole('link', { name: 'Alertes' }).click();
  await expect(page).toHaveURL(/\/dashboard\/alertes$/);
  await expect(page.getByRole('heading', { name: 'Alertes', level: 1 })).toBeVisible();
});
