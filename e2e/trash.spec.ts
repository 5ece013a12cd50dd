/**
 * Deletion that loses nothing: the card's delete button still deletes (spec §4, busy, then
 * gone); a toast offers « Annuler »; the Corbeille lists deleted devices and restores them.
 *
 * - toast « Capteur supprimé » with « Annuler », keyboard, focus stays put → "undo from the toast"
 * - the restored card keeps its name, after a reload too                  → "undo from the toast"
 * - /dashboard/corbeille: kind, name, erasure date, « Restaurer »          → "restore from the Corbeille"
 * - at 1280 and 375 px, no serious axe violation                          → both sizes
 * - an empty Corbeille says so                                            → "empty Corbeille"
 */
import type { Page } from '@playwright/test';
import { expect, saveScreenshot, seriousViolations, test, type Api } from './support/fixtures';
import { openFromNavigation } from './support/navigation';

// Its tests share one account's data: in order, in one worker.
test.describe.configure({ timeout: 90_000, mode: 'default' });

const cards = (page: Page) => page.getByTestId('device-card');
const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}`;

let api: Api;

test.beforeEach(async ({ apiAs }) => {
  api = await apiAs('trash');
  await api.clear();
});

test('undo from the toast brings the card back with its name, after a reload too', async ({ page, login }) => {
  const name = unique('Sonde caisse');
  await api.create('sensor', name);
  await login('trash');
  await page.getByRole('tab', { name: /Capteurs/ }).click();
  await expect(cards(page).filter({ hasText: name })).toBeVisible();

  const deleteButton = page.getByRole('button', { name: `Supprimer ${name}` });
  await deleteButton.click();
  await expect(cards(page).filter({ hasText: name })).toHaveCount(0);

  const toast = page.getByRole('status').filter({ hasText: 'Capteur supprimé' });
  await expect(toast).toBeVisible();
  await saveScreenshot(page, 'dashboard-deleted-toast');
  const undo = toast.getByRole('button', { name: 'Annuler' });
  // The toast does not take the focus; the keyboard reaches its button.
  await expect(undo).not.toBeFocused();
  await undo.focus();
  await page.keyboard.press('Enter');

  await expect(cards(page).filter({ hasText: name })).toBeVisible();
  await expect(toast).toHaveCount(0);
  await page.reload();
  await page.getByRole('tab', { name: /Capteurs/ }).click();
  await expect(cards(page).filter({ hasText: name })).toBeVisible();
  expect((await api.list('sensor')).map((device) => device.name)).toContain(name);
});

test('an emitter deleted from its card says « Émetteur supprimé »', async ({ page, login }) => {
  const name = unique('Passerelle réserve');
  await api.create('emitter', name);
  await login('trash');
  await page.getByRole('button', { name: `Supprimer ${name}` }).click();
  await expect(cards(page).filter({ hasText: name })).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'Émetteur supprimé' })).toBeVisible();
});

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('restore from the Corbeille', async ({ page, login }) => {
      const name = unique('Passerelle Opéra');
      const device = await api.create('emitter', name);
      await api.remove('emitter', device.id);

      await login('trash');
      await openFromNavigation(page, 'Corbeille');
      await expect(page).toHaveURL(/\/dashboard\/corbeille$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Corbeille' })).toBeVisible();

      const item = page.getByTestId('trashed-device').filter({ hasText: name });
      await expect(item).toBeVisible();
      await expect(item).toContainText('Émetteur');
      await expect(item).toContainText('Supprimé définitivement le');
      expect(await seriousViolations(page)).toEqual([]);
      await saveScreenshot(page, 'trash');
      // Nothing overflows sideways on a phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

      await item.getByRole('button', { name: `Restaurer ${name}` }).click();
      await expect(item).toHaveCount(0);

      await openFromNavigation(page, 'Tableau de bord');
      await expect(cards(page).filter({ hasText: name })).toBeVisible();
      await page.reload();
      await expect(cards(page).filter({ hasText: name })).toBeVisible();
    });

    test('empty Corbeille', async ({ page, login }) => {
      await login('empty', '/dashboard/corbeille');
      await expect(page.getByRole('heading', { name: 'La corbeille est vide' })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}
