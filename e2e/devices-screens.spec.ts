/**
 * The live screens of a realistic shop (gallery account, seeded by the global setup): screenshots
 * at 1280×800 and 375×812 into e2e/screenshots/, and no serious or critical axe violation on the
 * dashboard with live values, a sensor's detail page (with a new token shown and a dialog open)
 * and the installation page.
 */
import { expect, saveScreenshot, seriousViolations, test } from './support/fixtures';
import { GALLERY_FRIDGE } from './support/gallery';

test.describe.configure({ timeout: 150_000 });

const sizes = [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
];

for (const size of sizes) {
  test.describe(`live screens at ${size.width}×${size.height}`, () => {
    test.use({ viewport: size });

    test('dashboard with live values, sensor detail, installation', async ({ page, login }) => {
      await login('gallery');
      await page.getByRole('tab', { name: /Capteurs/ }).click();
      const fridge = page.getByTestId('device-card').filter({ hasText: GALLERY_FRIDGE });
      await expect(fridge.getByTestId('device-main-value')).toBeVisible();
      await saveScreenshot(page, 'dashboard-live-sensors');
      await saveScreenshot(page, 'dashboard-live-sensors-full', true);
      expect(await seriousViolations(page)).toEqual([]);

      // In the sensors' tab: « À surveiller » above it may name the same sensor.
      await page.getByRole('tabpanel').getByRole('link', { name: GALLERY_FRIDGE }).click();
      await expect(page.getByTestId('readings-chart').locator('canvas')).toBeVisible();
      await expect(page.getByRole('figure')).toContainText('mesures');
      await saveScreenshot(page, 'sensor-detail');
      await page.getByRole('button', { name: '30\u00A0j' }).click();
      await expect(page.getByRole('button', { name: '30\u00A0j' })).toHaveAttribute('aria-pressed', 'true');
      await expect(page.getByRole('figure')).not.toHaveAttribute('aria-busy', 'true');
      await saveScreenshot(page, 'sensor-detail-full', true);
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole('button', { name: 'Générer un nouveau jeton' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await saveScreenshot(page, 'sensor-detail-token-dialog');
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('dialog').getByRole('button', { name: 'Annuler' }).click();

      await page.goto('/dashboard/installation');
      await expect(page.getByRole('img', { name: /Code QR/ })).toBeVisible();
      await saveScreenshot(page, 'installation');
      await saveScreenshot(page, 'installation-full', true);
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}
