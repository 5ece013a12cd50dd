/**
 * The app installs in Chromium (a web app manifest in French, PNG icons of 192 and 512 px, a
 * maskable one, the service worker): the browser's own installability check finds nothing to say.
 * A persistent profile, as a person's browser has: a private window cannot install apps.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/chromium';

test('Chromium can install Vigie as an app', async ({ baseURL }) => {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'vigie-install-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, baseURL });
  try {
    const page = await context.newPage();
    await page.goto('/');
    const manifest = (await (await page.request.get('/manifest.webmanifest')).json()) as {
      lang: string;
      start_url: string;
      display: string;
      icons: { sizes: string; purpose: string; type: string }[];
    };
    expect(manifest).toMatchObject({ lang: 'fr', start_url: '/dashboard', display: 'standalone' });
    expect(manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose}`)).toEqual(
      expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']),
    );
    for (const icon of ['/icon-192.png', '/icon-512.png', '/icon-maskable-512.png', '/apple-touch-icon.png']) {
      const answer = await page.request.get(icon);
      expect(answer.status(), icon).toBe(200);
      expect(answer.headers()['content-type']).toBe('image/png');
    }
    await page.evaluate(() => navigator.serviceWorker.register('/sw.js', { scope: '/' }));
    const cdp = await context.newCDPSession(page);
    await expect
      .poll(
        async () =>
          ((await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] }).installabilityErrors,
      )
      .toEqual([]);
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
});
