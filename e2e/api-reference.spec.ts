/**
 * The API reference at /api/docs: Chromium renders the OpenAPI document with every section of
 * the catalogue, and not one request leaves the host (no CDN, no validator badge, no font).
 */
import { ENDPOINTS } from '@vigie/contract';
import { expect, saveScreenshot, test } from './support/fixtures';

// Swagger UI's script is over a megabyte: on a 2-core machine busy with other browsers it takes its time.
test.describe.configure({ timeout: 90_000 });

test('the API reference renders the OpenAPI document from the server alone', async ({ page, baseURL }) => {
  const origin = new URL(baseURL ?? '').origin;
  const requests: string[] = [];
  const problems: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });

  await page.goto('/api/docs');
  await expect(page.getByRole('heading', { name: /API Vigie/ })).toBeVisible({ timeout: 45_000 });
  for (const tag of new Set(ENDPOINTS.map((endpoint) => endpoint.tag))) {
    await expect(page.locator('.opblock-tag').filter({ hasText: tag }).first()).toBeVisible();
  }
  await expect(page.locator('.opblock')).toHaveCount(ENDPOINTS.length);
  await saveScreenshot(page, 'api-reference');

  // One operation opened: its French summary and its schemas are shown.
  await page
    .locator('.opblock-summary-path', { hasText: /^\/api\/devices\/telemetry$/ })
    .first()
    .click();
  await expect(page.locator('.opblock.is-open')).toBeVisible();
  await saveScreenshot(page, 'api-reference-telemetry');

  expect(requests.length).toBeGreaterThan(0);
  expect(requests.filter((url) => !url.startsWith('data:') && new URL(url).origin !== origin)).toEqual([]);
  expect(problems).toEqual([]);
});
