/**
 * « Journal », the audit trail, end to end: an admin's sign-ins, a wrong password, a sensor added,
 * renamed and put in the Corbeille are listed newest first with who did them; the list filters
 * by action and by text, and exports as CSV; the screen passes axe at 1280 and 375 px.
 */
import { readFileSync } from 'node:fs';
import { account, expect, saveScreenshot, seriousViolations, test } from './support/fixtures';
import { sideMenu } from './support/navigation';

test.describe.configure({ timeout: 120_000 });

test('the audit trail lists who did what, filters it and exports it as CSV', async ({ page, request, login }) => {
  const who = account('journal');
  expect((await request.post('/api/auth/login', { data: { email: who.email, password: 'pas le bon mot de passe' } })).status()).toBe(401);
  const admin = await login('journal');
  const first = `Vitrine ${Date.now().toString(36)}`;
  const renamed = `${first} fromages`;
  const sensor = await admin.create('sensor', first);
  const headers = { Authorization: `Bearer ${admin.token}` };
  expect((await request.put(`/api/sensor/${sensor.id}`, { headers, data: { name: renamed } })).status()).toBe(200);
  await admin.remove('sensor', sensor.id);

  await sideMenu(page).getByRole('link', { name: 'Journal', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/journal$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Journal' })).toBeVisible();
  const events = page.getByRole('list', { name: 'Actions du journal' }).getByTestId('audit-event');
  await expect(events.first()).toContainText(`Appareil mis à la corbeille · capteur « ${renamed} »`);
  await expect(events.first()).toContainText(`par ${who.name ?? who.email} (${who.email})`);
  await expect(events.filter({ hasText: 'Échec de connexion' })).toContainText('sans session ouverte');

  // One action: the rename, with what changed.
  const filters = page.getByRole('search', { name: 'Filtrer le journal' });
  await filters.getByLabel('Action').selectOption({ label: 'Appareil modifié' });
  await expect(events).toHaveCount(1);
  await expect(events.first()).toContainText(new RegExp(`Nom\\s: ${first} → ${renamed}`));

  // Text that matches nothing says so.
  await filters.getByLabel('Action').selectOption({ label: 'Toutes les actions' });
  await filters.getByLabel('Rechercher').fill('aucune chance de trouver ceci');
  await expect(page.getByRole('status').filter({ hasText: 'Aucune action ne correspond à ces filtres.' })).toBeVisible();
  await filters.getByLabel('Rechercher').fill(first);
  await expect(events).toHaveCount(3);

  for (const size of [
    { width: 1280, height: 800, name: 'desktop' },
    { width: 375, height: 812, name: 'phone' },
  ]) {
    await page.setViewportSize(size);
    expect(await seriousViolations(page), `journal at ${size.width} px`).toEqual([]);
    await saveScreenshot(page, `journal-${size.name}`, true);
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // The export has the filters of the screen: the three lines of this sensor.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Exporter en CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^journal-\d{4}-\d{2}-\d{2}\.csv$/);
  const [header, ...rows] = readFileSync(await file.path(), 'utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  expect(header).toBe('Date (heure locale);Date (UTC);Action;Auteur;Adresse e-mail de l’auteur;Objet;Nom de l’objet;Détails;Adresse IP');
  expect(rows.map((row) => row.split(';')[2])).toEqual(['Appareil mis à la corbeille', 'Appareil modifié', 'Appareil ajouté']);
});
