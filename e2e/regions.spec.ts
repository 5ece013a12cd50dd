/**
 * Regions from « Magasins »: an admin creates a region, puts a shop in it from the shop's own
 * editor, finds it under that region in « Réseau » at once, renames the region, pauses the whole
 * shop then resumes it, and deletes the region after a confirmation — the shop stays, in no region.
 * Axe clean at 1280 and 375 px, nothing wider than the screen.
 */
import type { Pause, Site } from '@vigie/contract';
import { checkAtBothSizes, expect, seriousViolations, test } from './support/fixtures';
import { sideMenu } from './support/navigation';

test.describe.configure({ timeout: 90_000 });

const NNBSP = '\u202F';

test('an admin groups shops in regions, sees one in « Réseau », pauses a whole shop and resumes it', async ({
  page,
  request,
  login,
  apiAs,
}) => {
  const run = Date.now().toString(36);
  const { token } = await apiAs('regions');
  const headers = { Authorization: `Bearer ${token}` };
  const created = await request.post('/api/sites', { headers, data: { name: `Lille Centre ${run}` } });
  expect(created.status(), await created.text()).toBe(201);
  const lille = ((await created.json()) as { site: Site }).site;

  // « Réseau » read first: the shop in no region. Its answer is then fresh for a while, and must
  // still not be what the page shows once the shop has moved.
  await login('regions', '/dashboard/reseau');
  const rows = page.getByTestId('network-site');
  const regionCell = rows.filter({ hasText: lille.name }).getByRole('cell').first();
  await expect(regionCell).toHaveText('—');
  await sideMenu(page).getByRole('link', { name: 'Magasins', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Magasins' })).toBeVisible();
  const regions = page.getByRole('region', { name: 'Régions' });
  const shop = page.getByRole('region', { name: lille.name });

  // A region, created: the shop's editor offers it at once.
  const north = `Nord ${run}`;
  await regions.getByLabel('Nouvelle région').fill(north);
  await regions.getByRole('button', { name: 'Ajouter la région' }).click();
  await expect(regions.getByRole('status').filter({ hasText: 'ajoutée' })).toHaveText(`Région «${NNBSP}${north}${NNBSP}» ajoutée.`);
  await expect(regions.getByTestId('region').getByRole('heading', { level: 3 })).toHaveText(north);
  await expect(regions.getByTestId('region')).toContainText('Aucun magasin');

  // The shop put in it from its editor: the region counts it.
  await shop.getByLabel('Région').selectOption({ label: north });
  await shop.getByRole('button', { name: 'Enregistrer le site' }).click();
  await expect(shop.getByText('Site enregistré.')).toBeVisible();
  await expect(regions.getByTestId('region')).toContainText(`1 magasin${NNBSP}: ${lille.name}`);

  // « Réseau » shows it under that region straight away (its list is read again, not a minute later).
  await sideMenu(page).getByRole('link', { name: 'Réseau', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Réseau' })).toBeVisible();
  await expect(regionCell).toHaveText(north);
  await page.getByLabel('Région').selectOption({ label: north });
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText(lille.name);

  // Renamed in place.
  await sideMenu(page).getByRole('link', { name: 'Magasins', exact: true }).click();
  const renamed = `Hauts-de-France ${run}`;
  await regions.getByRole('button', { name: `Renommer la région ${north}` }).click();
  await expect(regions.getByLabel('Nouveau nom de la région')).toBeFocused();
  await regions.getByLabel('Nouveau nom de la région').fill(renamed);
  await regions.getByRole('button', { name: 'Enregistrer', exact: true }).click();
  await expect(regions.getByRole('heading', { level: 3, name: renamed })).toBeVisible();
  await expect(shop.getByLabel('Région').locator('option:checked')).toHaveText(renamed);

  // The whole shop paused for an inventory, then resumed.
  await shop.getByRole('button', { name: 'Mettre en pause le magasin' }).click();
  const pauseForm = shop.getByRole('form', { name: 'Mettre en pause le magasin' });
  await pauseForm.getByLabel('Raison').fill('Inventaire');
  await pauseForm.getByLabel('Durée').selectOption({ label: `2${NNBSP}h` });
  await pauseForm.getByRole('button', { name: 'Mettre en pause le magasin' }).click();
  const banner = shop.getByTestId('pause');
  await expect(banner.getByRole('heading', { level: 3 })).toHaveText(
    /^Magasin en pause jusqu’à (demain )?\d{1,2}\sh(\s\d{2})?\s: Inventaire$/,
  );
  const paused = (await (await request.get('/api/pauses', { headers })).json()) as { pauses: Pause[] };
  expect(paused.pauses).toEqual([expect.objectContaining({ siteId: lille.id, sensorId: null, reason: 'Inventaire' })]);
  expect(await seriousViolations(page)).toEqual([]);
  await banner.getByRole('button', { name: 'Reprendre', exact: true }).click();
  await expect(shop.getByRole('button', { name: 'Mettre en pause le magasin' })).toBeVisible();
  await expect(banner).toHaveCount(0);
  expect(((await (await request.get('/api/pauses', { headers })).json()) as { pauses: Pause[] }).pauses).toEqual([]);

  // Deleted after a confirmation that says what becomes of its shop.
  await regions.getByRole('button', { name: `Supprimer la région ${renamed}` }).click();
  const dialog = page.getByRole('dialog', { name: `Supprimer la région «${NNBSP}${renamed}${NNBSP}»${NNBSP}?` });
  await expect(dialog).toContainText(`Son magasin reste, sans région${NNBSP}: ${lille.name}.`);
  await expect(dialog.getByRole('button', { name: 'Annuler' })).toBeFocused();
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Supprimer la région', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(regions.getByText(`Région «${NNBSP}${renamed}${NNBSP}» supprimée.`)).toBeVisible();
  await expect(regions.getByTestId('region')).toHaveCount(0);
  // No region left: the shop's editor offers none, and the shop is in none.
  await expect(shop.getByLabel('Région')).toHaveCount(0);
  const after = (await (await request.get(`/api/sites/${lille.id}`, { headers })).json()) as { site: Site };
  expect(after.site.regionId).toBeNull();

  await checkAtBothSizes(page, 'magasins-regions');
});
