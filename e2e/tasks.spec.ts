/**
 * « Tâches du jour » on a shop employee's phone, against the real server: the opening round done
 * with one fridge out of its limits, which opens an alert where the corrective action is recorded;
 * a cooling started two hours ago that the server's clock fails, nobody watching. Axe clean, nothing
 * wider than the screen, in the light and the dark theme.
 */
import type { APIRequestContext } from '@playwright/test';
import { checkAtBothSizes, expect, test, type Api } from './support/fixtures';

test.describe.configure({ timeout: 120_000, mode: 'serial' });

const PHONE = { width: 375, height: 812 };

async function post(request: APIRequestContext, api: Api, path: string, data: object): Promise<Record<string, unknown>> {
  const response = await request.post(path, { headers: { Authorization: `Bearer ${api.token}` }, data });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as Record<string, unknown>;
}

test('at 375 px the opening round is done with a fridge out of limits, and its corrective action recorded', async ({
  page,
  request,
  login,
  apiAs,
}) => {
  const api = await apiAs('plan');
  const { sites } = (await (await request.get('/api/sites', { headers: { Authorization: `Bearer ${api.token}` } })).json()) as {
    sites: { id: string }[];
  };
  const siteId = sites[0]?.id ?? '';
  // Due in two seconds: open by the time the page is read.
  await post(request, api, '/api/task-templates', {
    name: 'Ronde d’ouverture',
    kind: 'checklist',
    siteIds: [siteId],
    items: [
      { label: 'Température de la chambre froide', type: 'number', unit: '°C', min: 0, max: 4 },
      { label: 'Sols et plans de travail propres', type: 'boolean', expected: true },
    ],
    schedule: { frequency: 'once', dueAt: new Date(Date.now() + 2000).toISOString(), windowMinutes: 60, graceMinutes: 30 },
  });
  await page.waitForTimeout(2500);

  await page.setViewportSize(PHONE);
  await login('plan', '/dashboard/taches');
  await expect(page.getByRole('heading', { level: 1, name: 'Tâches du jour' })).toBeVisible();
  const now = page.getByRole('region', { name: 'À faire maintenant' });
  await expect(now.getByRole('heading', { name: 'Ronde d’ouverture' })).toBeVisible();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await checkAtBothSizes(page, `taches-${scheme}`);
    await page.setViewportSize(PHONE);
  }
  await page.emulateMedia({ colorScheme: 'light' });

  await now.getByRole('button', { name: 'Remplir' }).click();
  const fridge = page.getByLabel(/Température de la chambre froide/);
  await expect(fridge).toHaveAttribute('inputmode', 'decimal');
  await fridge.fill('7,2');
  await expect(page.getByText(/Non conforme\s*: attendu de 0 à 4\s*°C/)).toBeVisible();
  await page.getByRole('radio', { name: 'Oui' }).check();
  await checkAtBothSizes(page, 'taches-ronde');
  await page.setViewportSize(PHONE);
  await page.getByRole('button', { name: 'Enregistrer' }).click();
  // Done: the round moves to « Faites », non-conforming, with the way to its alert.
  const done = page.getByRole('region', { name: 'Faites' }).getByTestId('task').filter({ hasText: 'Ronde d’ouverture' });
  await expect(done).toContainText('Faite, non conforme');
  await done.getByRole('link', { name: 'Noter l’action corrective' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Tâche du plan de maîtrise sanitaire' })).toBeVisible();
  await expect(page.getByTestId('alert-value')).toHaveText('Non conforme');
  await expect(page.getByTestId('alert-limit')).toContainText('Ronde d’ouverture');
  const timeline = page.getByRole('list', { name: 'Chronologie de l’alerte' });
  await expect(timeline).toContainText('Ronde d’ouverture');
  await expect(timeline).toContainText(/7,2\s*°C/);
  await page.getByLabel('Action corrective').fill('Produits transférés dans la chambre froide n° 2, technicien appelé.');
  await page.getByRole('button', { name: 'Enregistrer l’action' }).click();
  await expect(page.getByText('Action enregistrée.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Résoudre l’alerte' })).toBeEnabled();
  await checkAtBothSizes(page, 'taches-alerte');
});

test('a cooling started two hours ago is failed by the server’s clock and shown as such', async ({ page, request, login, apiAs }) => {
  const api = await apiAs('plan');
  const { sites } = (await (await request.get('/api/sites', { headers: { Authorization: `Bearer ${api.token}` } })).json()) as {
    sites: { id: string }[];
  };
  // Its two hours end in ten seconds; the clock looks every 15 s.
  await post(request, api, '/api/processes', {
    kind: 'cooling',
    siteId: sites[0]?.id ?? '',
    product: 'Blanquette de veau',
    temperature: 71,
    startedAt: new Date(Date.now() - 119 * 60_000 - 50_000).toISOString(),
  });
  await page.setViewportSize(PHONE);
  await login('plan', '/dashboard/taches');
  const panel = page.getByRole('region', { name: 'Refroidissements et maintiens au chaud' });
  await expect(panel.getByTestId('process').filter({ hasText: 'Blanquette de veau' })).toContainText('+10');
  await expect
    .poll(
      async () => {
        await page.reload();
        return panel.getByText(/Blanquette de veau\s*: en échec/).count();
      },
      { timeout: 60_000, intervals: [5_000] },
    )
    .toBe(1);
  await expect(panel).toContainText(/\+10\s*°C non atteints en 2\s*h/);
  await expect(panel.getByRole('link', { name: 'Noter le devenir du produit' })).toBeVisible();
  await checkAtBothSizes(page, 'taches-refroidissement');
});

test('the quality manager starts « Huile de friture » from the library, adapts it and saves it for every shop', async ({
  page,
  request,
  login,
}) => {
  const api = await login('plan', '/dashboard/plan');
  await expect(page.getByRole('heading', { level: 1, name: 'Plan de maîtrise sanitaire' })).toBeVisible();
  await page.getByRole('button', { name: 'Partir d’un modèle' }).click();
  await page.getByRole('button', { name: 'Partir du modèle « Huile de friture »' }).click();
  const editor = page.getByRole('form');
  await expect(editor.getByLabel('Nom du modèle')).toHaveValue('Huile de friture');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await checkAtBothSizes(page, `plan-editeur-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await editor.getByLabel('Nom du modèle').fill('Huile de friture — friteuse 2');
  await editor.getByRole('button', { name: 'Enregistrer' }).click();
  const saved = page.getByTestId('task-template').filter({ hasText: 'Huile de friture — friteuse 2' });
  await expect(saved).toContainText(/Tous les jours à 10\s*h\s*30/);
  await expect(saved).toContainText('Tous les sites');
  // Stored as the library has it, under its new name: the day's tasks follow from it.
  const { templates } = (await (
    await request.get('/api/task-templates', { headers: { Authorization: `Bearer ${api.token}` } })
  ).json()) as {
    templates: { name: string; kind: string; items: { label: string; max?: number }[] }[];
  };
  const oil = templates.find((template) => template.name === 'Huile de friture — friteuse 2');
  expect(oil?.kind).toBe('oil');
  expect(oil?.items.find((item) => item.label === 'Composés polaires')?.max).toBe(25);
});
