/**
 * Predictive analysis in the browser, against the real server, at 1280 and 375 px: the « Analyse
 * prédictive » panel of a display fridge with three days of history, its forecast band drawn after
 * the last reading; a new sensor with « Pas assez de relevés pour prévoir »; a fridge warming up,
 * how likely it passes its limit, when, between which hours and on which readings; « À surveiller »
 * on the dashboard and the Sites page. Then a « Dépassement prévu » rule made from a new sensor's
 * page, and a stuck sensor's anomaly and its « Pourquoi ? ».
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, saveScreenshot, seriousViolations, signInWithToken, test, type Api } from './support/fixtures';
import { DeviceProtocol, sendHistory, sendTelemetry, uniqueSerial, type Reading } from './support/telemetry';

// Its tests share one account's data: in order, in one worker.
test.describe.configure({ timeout: 90_000, mode: 'default' });

const NNBSP = '\u202F';
/** A predicted breach's title: how likely it is, with its percentage. */
const BREACH_TITLE = `Dépassement (très probable|probable|possible) \\((plus de |moins de )?\\d{1,3}${NNBSP}%\\)`;
const sizes = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 375, height: 812 },
];

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/**
 * Pixels of the forecast's violet painted on the chart's canvas, in its left half (history only)
 * and in its right fifth (where the next four hours are drawn on the 24 h view).
 */
async function forecastPixels(page: Page): Promise<{ left: number; right: number }> {
  return page
    .getByTestId('readings-chart')
    .locator('canvas')
    .evaluate((canvas: HTMLCanvasElement) => {
      const context = canvas.getContext('2d');
      if (!context) return { left: 0, right: 0 };
      const { width, height } = canvas;
      const pixels = context.getImageData(0, 0, width, height).data;
      let left = 0;
      let right = 0;
      for (let y = 0; y < height; y += 1) {
        for (let x = 0; x < width; x += 1) {
          const i = (y * width + x) * 4;
          const [r = 0, g = 0, b = 0, a = 0] = [pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]];
          // Violet (the band and the dashed line), never the cyan history, red limits or amber shading.
          if (a < 20 || !(b > g + 40 && r > g + 15)) continue;
          if (x < width / 2) left += 1;
          else if (x > width * 0.8) right += 1;
        }
      }
      return { left, right };
    });
}

/** Days of a fridge cycling around 4 °C every 45 min, a reading every 5 min; `last` shapes the last hours. */
function fridgeHistory(now: number, last: (hoursAgo: number, normal: number) => number, days = 2): Reading[] {
  const readings: Reading[] = [];
  for (let ts = now - days * 86_400_000; ts <= now; ts += 5 * 60_000) {
    const normal = 4 + 0.3 * Math.sin(ts / (45 * 60_000));
    readings.push({ ts, values: { temperature: Math.round(last((now - ts) / 3_600_000, normal) * 100) / 100 } });
  }
  return readings;
}

/**
 * A display fridge as a shop has one: three days of compressor cycles, its door left open for a few
 * minutes now and then (up to about +9 °C), watched at +8 °C like the demo shop's.
 */
async function displayFridge(request: APIRequestContext, api: Api, name: string) {
  const sensor = await new DeviceProtocol(request, api.token).provision({
    serial: uniqueSerial('VITRINE'),
    kind: 'sensor',
    name,
    model: 'Vigie Froid T1',
  });
  // The door is left open every 2 h 40 for 8 min, the last time an hour ago: it warms, then cools back.
  const doorEvery = 160 * 60_000;
  const history = fridgeHistory(
    Date.now(),
    (hoursAgo, normal) => {
      const delta = 3_600_000 - hoursAgo * 3_600_000;
      const since = ((delta % doorEvery) + doorEvery) % doorEvery;
      if (since < 8 * 60_000) return normal + 5 * (1 - Math.exp(-since / (3 * 60_000)));
      return normal + 5 * (1 - Math.exp(-8 / 3)) * Math.exp(-(since - 8 * 60_000) / (2 * 60_000));
    },
    3,
  );
  await sendHistory(request, sensor.accessToken, history);
  const rule = await request.post('/api/alert-rules', {
    headers: { Authorization: `Bearer ${api.token}` },
    data: { name: 'Vitrine ≤ +8 °C', sensorId: sensor.deviceId, preset: 'chilled_perishable' },
  });
  expect(rule.status(), await rule.text()).toBe(201);
  return sensor;
}

/** A sensor of `api`'s organization warming up by 1,5 °C an hour for two hours, watched at +8 °C. */
async function warmingFridge(request: APIRequestContext, api: Api, name: string) {
  const sensor = await new DeviceProtocol(request, api.token).provision({ serial: uniqueSerial('CHAUD'), kind: 'sensor', name });
  await sendHistory(
    request,
    sensor.accessToken,
    fridgeHistory(Date.now(), (hoursAgo, normal) => normal + (hoursAgo < 2 ? (2 - hoursAgo) * 1.5 : 0)),
  );
  const rule = await request.post('/api/alert-rules', {
    headers: { Authorization: `Bearer ${api.token}` },
    data: { name: 'Vitrine ≤ +8 °C', sensorId: sensor.deviceId, preset: 'chilled_perishable' },
  });
  expect(rule.status(), await rule.text()).toBe(201);
  return sensor;
}

for (const size of sizes) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test('a display fridge’s predictive analysis, with its forecast drawn after the last reading', async ({ page, request, apiAs }) => {
      const api = await apiAs('insights');
      const fridge = await displayFridge(request, api, `Vitrine réfrigérée ${uniqueSerial('d')}`);
      await signInWithToken(page, api.token);
      const answer = page.waitForResponse((response) => response.url().includes(`/api/sensor/${fridge.deviceId}/insights?key=temperature`));
      await page.goto(`/dashboard/capteurs/${fridge.deviceId}`);

      // The server forecasts the next four hours in 5-minute steps from days of history.
      const response = await answer;
      expect(response.status()).toBe(200);
      const { insights } = (await response.json()) as { insights: { forecast: unknown[] } };
      expect(insights.forecast).toHaveLength(48);

      const panel = page.getByRole('region', { name: 'Analyse prédictive' });
      await expect(panel).toBeVisible();
      await expect(panel).toContainText(`Température${NNBSP}: les 4 prochaines heures`);
      // Its rule watches +8 °C: either the time it is expected, or none within the horizon.
      await expect(panel.getByTestId('forecast-state')).toHaveText(
        new RegExp(
          `^(${BREACH_TITLE}\\+8${NNBSP}°C atteint (demain )?vers .+ \\((dans .+|imminent)\\)|Aucun dépassement prévu dans les 4 prochaines heures$)`,
        ),
      );
      await expect(panel).toContainText(`(intervalle à 80${NNBSP}%)`);
      await expect(panel.getByRole('heading', { name: 'Anomalies', level: 3 })).toBeVisible();
      await expect(panel.getByRole('heading', { name: 'Dépassements', level: 3 })).toBeVisible();

      // On the chart: the band and the dashed line after the last reading, named in the legend.
      const chart = page.getByTestId('readings-chart');
      await expect(chart.locator('canvas')).toBeVisible();
      await expect(page.getByTestId('chart-legend')).toContainText(`Prévision (pointillés) et son intervalle à 80${NNBSP}%`);
      // The chart's own legend names the series; it shows the values under the pointer, so only then.
      await expect(chart.getByText('Prévision', { exact: true })).toBeHidden();
      await expect(page.getByRole('figure')).not.toHaveAttribute('aria-busy', 'true');
      await expect.poll(async () => (await forecastPixels(page)).right).toBeGreaterThan(200);
      const pixels = await forecastPixels(page);
      expect(pixels.left).toBeLessThan(pixels.right / 20);
      await chart.locator('.u-over').hover();
      await expect(chart.getByText('Prévision', { exact: true })).toBeVisible();

      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await page.getByRole('heading', { name: 'Historique' }).scrollIntoViewIfNeeded();
      await saveScreenshot(page, 'insights-chart');
      await panel.scrollIntoViewIfNeeded();
      await saveScreenshot(page, 'insights-panel');
      await saveScreenshot(page, 'insights-sensor-full', true);
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('a new sensor: « Pas assez de relevés pour prévoir »', async ({ page, request, apiAs }) => {
      const api = await apiAs('insights');
      const name = `Vitrine neuve ${uniqueSerial('n')}`;
      const sensor = await new DeviceProtocol(request, api.token).provision({ serial: uniqueSerial('NEUF'), kind: 'sensor', name });
      expect(await sendTelemetry(request, sensor.accessToken, { temperature: 3.6 })).toBe(202);
      await signInWithToken(page, api.token);
      const answer = page.waitForResponse((response) => response.url().includes(`/api/sensor/${sensor.deviceId}/insights?key=temperature`));
      await page.goto(`/dashboard/capteurs/${sensor.deviceId}`);
      const { insights } = (await (await answer).json()) as { insights: { forecast: unknown[]; forecastUnavailable?: string | null } };
      expect(insights.forecast).toEqual([]);
      expect(insights.forecastUnavailable).toBe('not_enough_readings');

      const panel = page.getByRole('region', { name: 'Analyse prédictive' });
      await expect(panel.getByTestId('forecast-state')).toContainText(
        `Pas assez de relevés pour prévoir${NNBSP}: l’historique de ce capteur est encore trop court`,
      );
      await expect(page.getByTestId('chart-legend')).toHaveCount(0);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await panel.scrollIntoViewIfNeeded();
      await saveScreenshot(page, 'insights-not-enough');
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('a fridge warming up: how likely it passes +8 °C, when, and between which hours', async ({ page, request, apiAs }) => {
      const api = await apiAs('insights');
      const name = `Vitrine en hausse ${uniqueSerial('b')}`;
      const sensor = await warmingFridge(request, api, name);
      await signInWithToken(page, api.token);
      await page.goto(`/dashboard/capteurs/${sensor.deviceId}`);
      const panel = page.getByRole('region', { name: 'Analyse prédictive' });
      const state = panel.getByTestId('forecast-state');
      // The first computation of a sensor's figures is real work on a thread of its own: on a machine
      // busy with two browsers it can take more than the default 10 s.
      await expect(state).toHaveText(new RegExp(`^${BREACH_TITLE}`), { timeout: 30_000 });
      await expect(state).toHaveText(
        new RegExp(
          `\\+8${NNBSP}°C atteint (demain )?vers \\d{1,2}${NNBSP}h(${NNBSP}\\d{2})? \\((dans ~.+|dans quelques minutes|imminent)\\)`,
        ),
      );
      // The hours the forecast's interval allows, and the readings it rests on.
      const hour = `\\d{1,2}${NNBSP}h(${NNBSP}\\d{2})?`;
      await expect(panel.getByTestId('breach-window')).toHaveText(
        new RegExp(`^Selon l’intervalle à 80${NNBSP}%, (entre ${hour} et ${hour}\\.|à partir de ${hour}, s’il se produit\\.)$`),
      );
      await expect(panel.getByTestId('forecast-basis')).toHaveText(new RegExp(`^D’après \\d+ relevés depuis (hier |le .+ )?${hour}\\.$`));
      await expect(page.getByTestId('chart-legend')).toContainText(`Prévision (pointillés) et son intervalle à 80${NNBSP}%`);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await panel.scrollIntoViewIfNeeded();
      await saveScreenshot(page, 'insights-breach');
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('« À surveiller » lists a fridge about to pass its limit, on the dashboard and on its site', async ({ page, request, apiAs }) => {
      const api = await apiAs('insights');
      const headers = { Authorization: `Bearer ${api.token}` };
      // The list comes from the server's background analysis (every 5 s in these tests), read by the page every minute.
      expect((await request.get('/api/insights/watch', { headers })).status()).toBe(200);

      const name = `Vitrine qui chauffe ${uniqueSerial('w')}`;
      const sensor = await warmingFridge(request, api, name);
      // The background pass picks up a sensor that has just reported within seconds.
      await expect
        .poll(
          async () => {
            const { watch } = (await (await request.get('/api/insights/watch', { headers })).json()) as { watch: { sensorId: string }[] };
            return watch.some((entry) => entry.sensorId === sensor.deviceId);
          },
          { timeout: 60_000 },
        )
        .toBe(true);
      await signInWithToken(page, api.token);
      await page.goto('/dashboard');
      const watch = page.getByRole('region', { name: /^À surveiller/ });
      const item = watch.getByTestId('watch-item').filter({ hasText: name });
      await expect(item).toBeVisible();
      await expect(item).toContainText(`Dépassement prévu${NNBSP}: +8${NNBSP}°C atteint`);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await watch.scrollIntoViewIfNeeded();
      await saveScreenshot(page, 'insights-watch-dashboard');
      expect(await seriousViolations(page)).toEqual([]);

      await page.goto('/dashboard/sites');
      const siteWatch = page.getByRole('region', { name: /^À surveiller/ }).first();
      await expect(siteWatch.getByTestId('watch-item').filter({ hasText: name })).toBeVisible();
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page)).toEqual([]);

      await siteWatch.getByRole('link', { name }).click();
      await expect(page).toHaveURL(new RegExp(`/dashboard/capteurs/${sensor.deviceId}$`));
    });
  });
}

test('a « Dépassement prévu » rule is made from a new sensor’s page', async ({ page, request, apiAs }) => {
  const api = await apiAs('insights');
  const name = `Vitrine neuve ${uniqueSerial('n')}`;
  const sensor = await new DeviceProtocol(request, api.token).provision({ serial: uniqueSerial('NEUF'), kind: 'sensor', name });
  expect(await sendTelemetry(request, sensor.accessToken, { temperature: 3.6 })).toBe(202);
  await signInWithToken(page, api.token);
  await page.goto(`/dashboard/capteurs/${sensor.deviceId}`);

  await expect(page.getByRole('region', { name: 'Analyse prédictive' }).getByTestId('forecast-state')).toBeVisible();

  await page.getByRole('button', { name: 'Règle personnalisée…' }).click();
  await page.getByLabel('Nom de la règle').fill('Prévision vitrine');
  await page.getByLabel('Condition').selectOption({ label: 'Dépassement prévu' });
  await expect(page.getByLabel('Sens')).toHaveValue('predicted_above');
  const horizon = page.getByLabel('Prévu dans les (min)');
  await expect(horizon).toHaveValue('120');
  await page.getByLabel('Seuil').fill('8');
  await horizon.fill('300');
  await page.getByRole('button', { name: 'Créer la règle' }).click();
  await expect(page.getByText('L’horizon de prévision va de 15 à 240\u00A0minutes.')).toBeVisible();
  await horizon.fill('90');
  await page.getByRole('button', { name: 'Créer la règle' }).click();
  await expect(page.getByTestId('alert-rule')).toContainText(`Prévision${NNBSP}: Température ≤ +8,0${NNBSP}°C sur 90${NNBSP}min`);
  expect(await seriousViolations(page)).toEqual([]);

  const rules = (await (
    await request.get(`/api/alert-rules?sensorId=${sensor.deviceId}`, { headers: { Authorization: `Bearer ${api.token}` } })
  ).json()) as { rules: { condition: unknown }[] };
  expect(rules.rules.map((rule) => rule.condition)).toEqual([
    { type: 'predicted_above', key: 'temperature', threshold: 8, withinMinutes: 90 },
  ]);
});

test('a stuck sensor’s anomaly: marked on the chart, listed with « Pourquoi ? »', async ({ page, request, apiAs }) => {
  const api = await apiAs('insights');
  const name = `Vitrine figée ${uniqueSerial('f')}`;
  const sensor = await new DeviceProtocol(request, api.token).provision({ serial: uniqueSerial('FIGE'), kind: 'sensor', name });
  // Two days of cycles, then the same 4,00 °C for eight hours: a sensor that no longer measures.
  await sendHistory(
    request,
    sensor.accessToken,
    fridgeHistory(Date.now(), (hoursAgo, normal) => (hoursAgo < 8 ? 4 : normal)),
  );
  await signInWithToken(page, api.token);
  await page.goto(`/dashboard/capteurs/${sensor.deviceId}`);

  const panel = page.getByRole('region', { name: 'Analyse prédictive' });
  const anomaly = panel.getByTestId('anomaly').first();
  await expect(anomaly).toBeVisible({ timeout: 30_000 });
  await expect(anomaly.getByRole('heading', { level: 4 })).toHaveText(
    /^(Changement de niveau|Dérive|Capteur figé|Mesures instables|Compresseur|Porte ouverte|Dégivrage manqué|Dégivrage trop long|Comportement inhabituel)$/,
  );
  const why = anomaly.getByRole('button', { name: `Pourquoi${NNBSP}?` });
  await expect(why).toHaveAttribute('aria-expanded', 'false');
  await why.focus();
  await page.keyboard.press('Enter');
  await expect(why).toHaveAttribute('aria-expanded', 'true');
  const explanation = page.locator(`[id="${await why.getAttribute('aria-controls')}"]`);
  await expect(explanation).toBeVisible();
  expect(((await explanation.textContent()) ?? '').trim().length).toBeGreaterThan(10);
  await expect(page.getByTestId('chart-legend')).toContainText('Anomalie');
  await anomaly.scrollIntoViewIfNeeded();
  await saveScreenshot(page, 'insights-anomaly');
  expect(await seriousViolations(page)).toEqual([]);
});
