/**
 * HACCP reports, end to end against the real server: a shop's fridge with three weeks of readings
 * and a ≤ +4 °C rule; the month's report is generated from « Rapports », previewed, downloaded as a
 * PDF whose SHA-256 is the one shown, then signed with a comment. The same on a phone.
 */
import type { APIRequestContext } from '@playwright/test';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { account, expect, saveScreenshot, seriousViolations, test, type Api } from './support/fixtures';
import { openFromNavigation } from './support/navigation';
import { DeviceProtocol, sendHistory, type Reading } from './support/telemetry';

// One account for the whole file: its tests run one after the other.
test.describe.configure({ timeout: 120_000, mode: 'serial' });

const SHOP = 'Magasin principal';
const FRIDGE = 'Vitrine crèmerie';
const NNBSP = '\u202F';

/** The month on the shop's clock (Europe/Paris), as `YYYY-MM` and in words. */
function parisMonth(now = new Date()): { value: string; label: string } {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit' }).formatToParts(now);
  const value = `${parts.find((part) => part.type === 'year')?.value}-${parts.find((part) => part.type === 'month')?.value}`;
  const label = new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', month: 'long', year: 'numeric' }).format(now);
  return { value, label };
}

/** Midnight on the 1st of the current month in Paris, as epoch ms. */
function parisMonthStart(now = new Date()): number {
  const [year, month] = parisMonth(now).value.split('-').map(Number);
  const guess = Date.UTC(year ?? 1970, (month ?? 1) - 1, 1);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: 'Europe/Paris',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(guess))
      .map((part) => [part.type, Number(part.value)]),
  );
  const offset = Date.UTC(parts['year'] ?? 1970, (parts['month'] ?? 1) - 1, parts['day'] ?? 1, parts['hour'] ?? 0) - guess;
  return guess - offset;
}

/**
 * The shop's fridge, once per run: readings every five minutes since the start of the month, one
 * 25-minute excursion at 6,5 °C and one hour without data in the last hours, then its rule.
 */
async function seedFridge(request: APIRequestContext, api: Api): Promise<void> {
  const headers = { Authorization: `Bearer ${api.token}` };
  const rules = ((await (await request.get('/api/alert-rules', { headers })).json()) as { rules: { name: string }[] }).rules;
  if (rules.some((rule) => rule.name === 'Crèmerie ≤ +4 °C')) return;

  const protocol = new DeviceProtocol(request, api.token);
  const fridge = await protocol.provision({ serial: 'RAPPORT-FRIGO-01', kind: 'sensor', name: FRIDGE, model: 'Vigie TH-1' });
  const now = Date.now();
  const step = 5 * 60_000;
  const start = parisMonthStart();
  // Both within the month, unless it began less than five hours ago.
  const excursion = now - 4 * 3_600_000;
  const gap = now - 3 * 3_600_000;
  const readings: Reading[] = [];
  for (let ts = start + step; ts <= now - 30_000; ts += step) {
    if (ts > gap && ts < gap + 3_600_000) continue;
    const out = ts >= excursion && ts < excursion + 25 * 60_000;
    readings.push({ ts, values: { temperature: out ? 6.5 : Math.round((3 + Math.sin(ts / 2_820_000) * 0.5) * 10) / 10 } });
  }
  await sendHistory(request, fridge.accessToken, readings);
  const created = await request.post('/api/alert-rules', {
    headers,
    data: { name: 'Crèmerie ≤ +4 °C', sensorId: fridge.deviceId, preset: 'chilled_very_perishable' },
  });
  expect(created.status(), await created.text()).toBe(201);
}

for (const viewport of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 375, height: 812 },
]) {
  test(`the month's report is generated, previewed, downloaded and signed (${viewport.name})`, async ({ page, request, login, apiAs }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const api = await apiAs('reports');
    await seedFridge(request, api);
    const month = parisMonth();
    const signer = account('reports').name ?? '';

    await login('reports');
    await openFromNavigation(page, 'Rapports');
    await expect(page.getByRole('heading', { name: 'Rapports', level: 1 })).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/rapports$/);
    if (viewport.name === 'desktop') {
      await expect(
        page.getByText(/Aucun rapport pour l’instant\. Le rapport du mois précédent est établi automatiquement le 1\s?er de chaque mois\./),
      ).toBeVisible();
      await saveScreenshot(page, 'reports-empty');
    }

    // The form starts on the shop and the current month.
    const form = page.getByRole('form', { name: 'Générer un rapport' });
    await expect(form.getByLabel('Site du rapport')).toHaveValue(/.+/);
    await form.getByLabel('Site du rapport').selectOption({ label: SHOP });
    await expect(form.getByLabel('Mois')).toHaveValue(month.value);
    await form.getByRole('button', { name: 'Générer le rapport' }).click();
    await expect(form.getByText(`Rapport de ${month.label} établi pour ${SHOP}.`)).toBeVisible({ timeout: 30_000 });

    // The newest version is first, with its preview.
    const report = page.getByRole('article', { name: `${month.label} · ${SHOP}`, exact: true });
    await expect(report).toBeVisible();
    await expect(report.getByText('Non signé')).toBeVisible();
    await expect(report).toContainText(`par ${signer}`);
    const unit = report.getByTestId('report-unit').filter({ hasText: FRIDGE });
    await expect(unit).toBeVisible();
    await expect(unit).toContainText(`≤ +4,0${NNBSP}°C`);
    await expect(unit).toContainText(new RegExp(`\\d+,\\d${NNBSP}%`));
    if (Date.now() - parisMonthStart() > 5 * 3_600_000) {
      await expect(unit).toContainText(/Excursions1 excursion · 2\d\smin/);
      await expect(unit).toContainText(/Sans données1\sh/);
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await saveScreenshot(page, `reports-generated-${viewport.name}`, true);

    // The navigation's link says a report waits for a signature, on every page.
    await openFromNavigation(page, 'Tableau de bord');
    await page.getByRole('navigation').getByRole('link', { name: 'Rapports, 1 non signé' }).click();
    await expect(report).toBeVisible();

    // The PDF: its suggested name, its first bytes, and the fingerprint shown.
    const downloading = page.waitForEvent('download');
    await report.getByRole('button', { name: 'Télécharger le PDF' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const bytes = await readFile(await download.path());
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('%PDF');
    await expect(report.locator('code')).toHaveAttribute('title', createHash('sha256').update(bytes).digest('hex'));
    await expect(report.getByText(/Fichier téléchargé/)).toBeVisible();

    const csvDownloading = page.waitForEvent('download');
    await report.getByRole('button', { name: 'Télécharger le CSV' }).click();
    expect((await csvDownloading).suggestedFilename()).toMatch(/\.csv$/);

    // Signed with a comment: who and when show on the report, and the form is gone.
    await report.getByRole('button', { name: 'Signer', exact: true }).click();
    const comment = report.getByLabel('Commentaire (facultatif)');
    await expect(comment).toBeFocused();
    await comment.fill('Relevés vérifiés, excursion traitée (porte mal fermée).');
    await report.getByRole('button', { name: 'Signer le rapport' }).click();
    await expect(report.getByText(new RegExp(`^Signé par ${signer} le \\d{2}/\\d{2}/\\d{4} à \\d{1,2}\\sh(\\s\\d{2})?$`))).toBeVisible();
    await expect(report).toContainText('« Relevés vérifiés, excursion traitée (porte mal fermée). »');
    await expect(report.getByRole('button', { name: 'Signer', exact: true })).toHaveCount(0);
    await expect(report.getByText('Signé', { exact: true })).toBeVisible();
    // Once signed, the signed copy comes first; the other is the original, before the signature.
    const files = report.getByRole('button', { name: /^Télécharger/ });
    await expect(files).toHaveText(['Télécharger le PDF signé', 'Télécharger l’original, avant signature', 'Télécharger le CSV']);
    const signedDownloading = page.waitForEvent('download');
    await files.first().click();
    const signedBytes = await readFile(await (await signedDownloading).path());
    expect(signedBytes.subarray(0, 4).toString('latin1')).toBe('%PDF');
    expect(signedBytes.equals(bytes)).toBe(false);

    // Nothing wider than the screen, and no serious accessibility violation.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await saveScreenshot(page, `reports-signed-${viewport.name}`, true);
    expect(await seriousViolations(page)).toEqual([]);

    await openFromNavigation(page, 'Tableau de bord');
    await expect(page.getByRole('navigation').getByRole('link', { name: 'Rapports', exact: true })).toBeVisible();
  });
}
