/**
 * « Tâches du jour » in a cold room: the closing round answered on a phone whose network is cut is
 * kept by the installed app (its service worker and IndexedDB), still shown after a reload without
 * network, and sent once the network is back with the moment the answers were given.
 */
import { account, Api, checkAtBothSizes, expect, signInWithToken, test } from './support/fixtures';

test.describe.configure({ mode: 'serial', timeout: 120_000 });
// The installed app's worker keeps the page and the day's tasks for a reload without network.
test.use({ serviceWorkers: 'allow' });

const PHONE = { width: 375, height: 812 };
const NAME = 'Ronde de fermeture en chambre froide';

type TaskRead = { id: string; name: string; dueAt: string; status: string; result: string | null; completedAt: string | null };

test('the closing round answered without network is kept on the phone and sent when the network returns', async ({
  page,
  context,
  request,
}) => {
  const api = await Api.login(request, account('plan-offline'));
  const auth = { Authorization: `Bearer ${api.token}` };
  const { sites } = (await (await request.get('/api/sites', { headers: auth })).json()) as { sites: { id: string }[] };
  const created = await request.post('/api/task-templates', {
    headers: auth,
    data: {
      name: NAME,
      kind: 'checklist',
      siteIds: [sites[0]?.id ?? ''],
      items: [
        { label: 'Température de la chambre froide', type: 'number', unit: '°C', min: 0, max: 4 },
        { label: 'Portes fermées', type: 'boolean', expected: true },
      ],
      schedule: { frequency: 'once', dueAt: new Date(Date.now() + 1500).toISOString(), windowMinutes: 60, graceMinutes: 30 },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const readTask = async (): Promise<TaskRead> => {
    const { tasks } = (await (await request.get('/api/tasks', { headers: auth })).json()) as { tasks: TaskRead[] };
    const found = tasks.find((task) => task.name === NAME);
    if (!found) throw new Error(`${NAME} is not listed`);
    return found;
  };
  // Open once it is due.
  await page.waitForTimeout(Math.max(0, Date.parse((await readTask()).dueAt) - Date.now() + 200));

  await page.setViewportSize(PHONE);
  await signInWithToken(page, api.token);
  await page.goto('/dashboard/taches');
  // The worker registered on load takes the page over; the next visit's reads are kept by it.
  await page.waitForFunction(
    async () => Boolean((await navigator.serviceWorker.ready).active) && navigator.serviceWorker.controller !== null,
  );
  await page.reload();
  const card = page.getByTestId('task').filter({ hasText: NAME });
  await expect(card.getByRole('button', { name: 'Remplir' })).toBeVisible();

  await card.getByRole('button', { name: 'Remplir' }).click();
  await card.getByLabel(/Température de la chambre froide/).fill('2,5');
  await card.getByRole('radio', { name: 'Oui' }).check();
  // In the cold room: no network.
  await context.setOffline(true);
  const givenFrom = Date.now();
  await card.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(card).toContainText(/En attente de réseau \(réponses données à \d{1,2}\s*h(\s*\d{2})?\)/);
  await expect(page.getByText('1 tâche remplie sans réseau attend d’être envoyée.')).toBeVisible();
  const givenTo = Date.now();
  expect((await readTask()).status).toBe('pending');

  // The app is opened again, still without network: the day and the waiting answers are there.
  await page.reload();
  await expect(card).toContainText('En attente de réseau');
  await expect(card.getByRole('button', { name: 'Remplir' })).toHaveCount(0);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await checkAtBothSizes(page, `taches-hors-reseau-${scheme}`);
  }
  await page.setViewportSize(PHONE);

  // The network is back: the answers leave by themselves, with the moment they were given.
  await context.setOffline(false);
  await expect(page.getByRole('region', { name: 'Faites' }).getByTestId('task').filter({ hasText: NAME })).toContainText('Faite', {
    timeout: 30_000,
  });
  await expect(page.getByText(/attend d’être envoyée/)).toHaveCount(0);
  const done = await readTask();
  expect(done).toMatchObject({ status: 'done', result: 'ok' });
  const completedAt = Date.parse(done.completedAt ?? '');
  expect(completedAt).toBeGreaterThanOrEqual(givenFrom - 1000);
  expect(completedAt).toBeLessThanOrEqual(givenTo + 1000);
});
