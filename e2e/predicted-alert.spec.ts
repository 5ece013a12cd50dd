/**
 * A « dépassement prévu » in the browser, against the real server: a fridge warming up, watched by
 * a rule on the forecast, opens its alert before it is out of limits. Everywhere it is shown (the
 * alerts page, its own page, the dashboard's banner and card, the sensor's page, the e-mail) the
 * value is what the sensor measured, and the forecast is labelled « prévu : +8 °C vers 14 h 10 »,
 * never in the reading's place. A fridge already past its limit is never told « Aucun dépassement
 * prévu ».
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, saveScreenshot, seriousViolations, signInWithToken, test, type Api } from './support/fixtures';
import { receivedMail } from './support/mail';
import { DeviceProtocol, sendHistory, sendTelemetry, uniqueSerial, type Reading } from './support/telemetry';

// One account, in order: the alert the first test opens is the dashboard's in the second.
test.describe.configure({ timeout: 120_000, mode: 'serial' });

const NNBSP = '\u202F';
/** « prévu : +8 °C vers 14 h 10 », « prévu : +8 °C demain vers 0 h 40 ». */
const FORECAST = new RegExp(`^prévu${NNBSP}: \\+8${NNBSP}°C (demain )?vers \\d{1,2}${NNBSP}h(${NNBSP}\\d{2})?$`);
/** The warming fridge of the first test, which the second finds on the dashboard. */
let fridgeName = '';
type ApiAlert = { id: string; sensorId: string; status: string; last: number | null; forecast?: { threshold: number; eta: string | null } };

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** Days of a fridge cycling around 4 °C, a reading every 5 min; `last` shapes the last hours. */
function fridgeHistory(now: number, last: (hoursAgo: number, normal: number) => number, days = 2): Reading[] {
  const readings: Reading[] = [];
  for (let ts = now - days * 86_400_000; ts <= now - 5 * 60_000; ts += 5 * 60_000) {
    const normal = 4 + 0.3 * Math.sin(ts / (45 * 60_000));
    readings.push({ ts, values: { temperature: Math.round(last((now - ts) / 3_600_000, normal) * 100) / 100 } });
  }
  return readings;
}

const oneDecimal = (value: number) => new Intl.NumberFormat('fr-FR', { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value);

/** A fridge warming by 1,5 °C an hour for two hours, now at 7,2 °C, watched by a « dépassement prévu » of +8 °C. */
async function warmingFridge(request: APIRequestContext, api: Api, name: string) {
  const sensor = await new DeviceProtocol(request, api.token).provision({ serial: uniqueSerial('PREVU'), kind: 'sensor', name });
  await sendHistory(
    request,
    sensor.accessToken,
    fridgeHistory(Date.now(), (hoursAgo, normal) => normal + (hoursAgo < 2 ? (2 - hoursAgo) * 1.5 : 0)),
  );
  expect(await sendTelemetry(request, sensor.accessToken, { temperature: 7.2 })).toBe(202);
  const rule = await request.post('/api/alert-rules', {
    headers: { Authorization: `Bearer ${api.token}` },
    data: {
      name: 'Vitrine : dépassement prévu de +8 °C',
      sensorId: sensor.deviceId,
      condition: { type: 'predicted_above', key: 'temperature', threshold: 8, withinMinutes: 240 },
      severity: 'warning',
    },
  });
  expect(rule.status(), await rule.text()).toBe(201);
  return sensor;
}

test('a « dépassement prévu » alert shows the measured value as its value and the forecast labelled as such', async ({
  page,
  request,
  apiAs,
}) => {
  const api = await apiAs('forecast');
  const headers = { Authorization: `Bearer ${api.token}` };
  // A fresh start on a retry: deleting the rules closes their alerts.
  const rules = ((await (await request.get('/api/alert-rules', { headers })).json()) as { rules: { id: string }[] }).rules;
  for (const rule of rules) await request.delete(`/api/alert-rules/${rule.id}`, { headers });
  await api.clear();
  const name = `Vitrine qui se réchauffe ${uniqueSerial('p')}`;
  fridgeName = name;
  const sensor = await warmingFridge(request, api, name);

  // The analysis of the sensor (asked here; the background pass would within seconds) opens the alert.
  const figures = await request.get(`/api/sensor/${sensor.deviceId}/insights?key=temperature`, { headers });
  expect(figures.status(), await figures.text()).toBe(200);
  let alert: ApiAlert | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get(`/api/alerts?status=active&sensorId=${sensor.deviceId}`, { headers });
        alert = ((await response.json()) as { alerts: ApiAlert[] }).alerts.find((candidate) => candidate.forecast);
        return alert?.forecast?.threshold;
      },
      { timeout: 60_000 },
    )
    .toBe(8);
  // The alert's own value is the forecast's, past +8 °C: what the screens must not give as the reading.
  const forecastValue = `${oneDecimal(alert?.last ?? Number.NaN)}${NNBSP}°C`;
  expect(alert?.last).toBeGreaterThan(8);

  await signInWithToken(page, api.token);
  await page.goto('/dashboard/alertes');
  const item = page.getByTestId('alert-item').filter({ hasText: name });
  await expect(item).toBeVisible();
  await expect(item.getByText('Dépassement prévu', { exact: true })).toBeVisible();
  await expect(item.getByTestId('alert-value')).toHaveText(`7,2${NNBSP}°C`);
  await expect(item).toContainText(`7,2${NNBSP}°C mesurés`);
  await expect(item.getByTestId('forecast-label')).toHaveText(FORECAST);
  await expect(item).not.toContainText(forecastValue);
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  await saveScreenshot(page, 'predicted-alert-list');
  expect(await seriousViolations(page)).toEqual([]);

  // Its page: the reading in large type, the forecast apart, named as one.
  await item.click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  await expect(page.getByTestId('alert-value')).toHaveText(`7,2${NNBSP}°C mesurés`);
  await expect(page.getByTestId('forecast-label')).toHaveText(FORECAST);
  await expect(page.getByText('une prévision, pas une mesure')).toBeVisible();
  await expect(page.getByText(`Prévision au plus haut${NNBSP}:`)).toBeVisible();
  await expect(page.getByText(`Prévision${NNBSP}: Température ≤ +8,0${NNBSP}°C sur 240${NNBSP}min`)).toBeVisible();
  await expect(page.getByTestId('alert-value')).not.toContainText(forecastValue);
  await saveScreenshot(page, 'predicted-alert-page', true);
  expect(await seriousViolations(page)).toEqual([]);

  // On a phone, the list says the same and fits.
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto('/dashboard/alertes');
  await expect(item.getByTestId('alert-value')).toHaveText(`7,2${NNBSP}°C`);
  await expect(item.getByTestId('forecast-label')).toHaveText(FORECAST);
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  await saveScreenshot(page, 'predicted-alert-list');

  // The e-mail to the team: the reading first, then the forecast, labelled.
  await expect
    .poll(() => receivedMail().find((mail) => mail.subject.includes(name))?.subject ?? '', { timeout: 30_000 })
    .toMatch(new RegExp(`: 7,2\\s°C mesurés\\s; prévu\\s: \\+8\\s°C (demain )?vers \\d{1,2}\\sh`));
  const mail = receivedMail().find((candidate) => candidate.subject.includes(name));
  expect(mail?.text).toMatch(/Mesuré\s: 7,2\s°C à \d{1,2}\sh/);
  expect(mail?.text).toMatch(/Prévu\s: \+8\s°C (demain )?vers \d{1,2}\sh.* \(une prévision, pas une mesure\)/);
  expect(mail?.text).not.toContain('Valeur');
});

test('the dashboard and the sensor page name the forecast; a fridge past its limit is never « Aucun dépassement prévu »', async ({
  page,
  request,
  apiAs,
}) => {
  const api = await apiAs('forecast');
  const headers = { Authorization: `Bearer ${api.token}` };
  await signInWithToken(page, api.token);
  await page.goto('/dashboard');
  await expect(page.getByRole('link', { name: /alerte en cours/ })).toContainText(`1 alerte en cours${NNBSP}: dépassement prévu`);
  await page.getByRole('tab', { name: /Capteurs/ }).click();
  const card = page.getByTestId('device-card').filter({ hasText: fridgeName });
  await expect(card.getByText('Dépassement prévu')).toBeVisible();
  await expect(card.getByText('En alerte')).toHaveCount(0);
  await expect(card.getByTestId('device-main-value')).toHaveText(`7,2${NNBSP}°C`);
  await expect(card.getByTestId('device-main-value')).not.toHaveClass(/text-red-300/);
  await expect(card.getByTestId('device-forecast')).toHaveText(FORECAST);
  await card.scrollIntoViewIfNeeded();
  await saveScreenshot(page, 'predicted-alert-dashboard');
  expect(await seriousViolations(page)).toEqual([]);

  // The sensor's page: the forecast panel and its alerts agree.
  await card.getByRole('link').first().click();
  const panel = page.getByRole('region', { name: 'Analyse prédictive' });
  // « Dépassement prévu » while the alert's forecast speaks, or its chance once the analysis agrees.
  await expect(panel.getByTestId('forecast-state')).toContainText(/Dépassement (prévu|très probable|probable|possible)/, {
    timeout: 30_000,
  });
  await expect(panel).not.toContainText('Aucun dépassement prévu');
  const sensorAlerts = page.getByRole('region', { name: 'Alertes de ce capteur' });
  await expect(sensorAlerts.getByTestId('forecast-label')).toHaveText(FORECAST);
  await expect(sensorAlerts).toContainText(`7,2${NNBSP}°C mesurés`);
  await panel.scrollIntoViewIfNeeded();
  await saveScreenshot(page, 'predicted-alert-sensor');

  // A fridge at 10,9 °C against +8 °C, its forecast back to its habits: the panel says what holds.
  const hot = await new DeviceProtocol(request, api.token).provision({
    serial: uniqueSerial('CHAUD'),
    kind: 'sensor',
    name: `Vitrine en panne ${uniqueSerial('h')}`,
  });
  await sendHistory(
    request,
    hot.accessToken,
    fridgeHistory(Date.now(), (_, normal) => normal, 1),
  );
  const rule = await request.post('/api/alert-rules', {
    headers,
    data: { name: 'Vitrine ≤ +8 °C', sensorId: hot.deviceId, preset: 'chilled_perishable' },
  });
  expect(rule.status(), await rule.text()).toBe(201);
  expect(await sendTelemetry(request, hot.accessToken, { temperature: 10.9 })).toBe(202);
  await page.goto(`/dashboard/capteurs/${hot.deviceId}`);
  const state = page.getByRole('region', { name: 'Analyse prédictive' }).getByTestId('forecast-state');
  await expect(state).toHaveText(`Seuil déjà dépassé10,9${NNBSP}°C mesurés (limite +8${NNBSP}°C)`, { timeout: 30_000 });
  await expect(page.getByRole('region', { name: 'Analyse prédictive' })).not.toContainText('Aucun dépassement prévu');
  await page.getByRole('region', { name: 'Analyse prédictive' }).scrollIntoViewIfNeeded();
  await saveScreenshot(page, 'predicted-alert-limit-passed');
  expect(await seriousViolations(page)).toEqual([]);
});
