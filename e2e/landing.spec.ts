/**
 * Spec §2 "/ (landing)", §1 landing content, §9 footer year and statistics, §2 visual extras.
 *
 * - navigation: Solutions, Ressources, Entreprise, Tarifs placeholders → "placeholder links"
 * - Tableau de bord → /dashboard, Connexion → /login                   → "links to the dashboard and login"
 * - mobile menu toggle (375 px, aria-expanded)                          → "mobile menu"
 * - hero 'Commencer maintenant' → /login                                → "hero primary button"
 * - hero 'En savoir plus' shows the features                           → "learn more"
 * - three feature cards                                                 → "three feature cards"
 * - statistics 10 000+, 500+, 99,9 %, 24/7 (French formats)            → "statistics"
 * - footer of placeholder links, © 2024 Vigie                           → "footer"
 * - background reacts to the mouse, still under reduced motion,
 *   paused while the tab is hidden                                      → "animated background"
 * - code-split: the landing page does not download the dashboard        → "code splitting"
 * - its first paint is its content, not « Chargement… »                  → "paints its content at once"
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';

test.describe('landing page', () => {
  test('is in French with the product name in the title', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    await expect(page).toHaveTitle(/Vigie/);
  });

  test('placeholder links', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Navigation principale' });
    for (const label of ['Solutions', 'Ressources', 'Entreprise', 'Tarifs']) {
      const link = nav.getByRole('link', { name: label, exact: true });
      await expect(link).toBeVisible();
      await expect(link).toHaveAttribute('href', '#');
      await link.click();
      await expect(page).toHaveURL(/\/$/);
    }
  });

  test('links to the dashboard and login', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Navigation principale' });
    await nav.getByRole('link', { name: 'Connexion' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goBack();
    await nav.getByRole('link', { name: 'Tableau de bord' }).click();
    // Signed out: the guard sends the visitor on to the login page.
    await expect(page).toHaveURL(/\/login$/);
  });

  test('hero primary button', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.getByRole('link', { name: 'Commencer maintenant' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByLabel('Adresse e-mail')).toBeVisible();
  });

  test('learn more', async ({ page }) => {
    await page.goto('/');
    const features = page.getByRole('heading', { level: 2, name: /veiller sur vos boutiques/ });
    await expect(features).not.toBeInViewport();
    await page.getByRole('button', { name: 'En savoir plus' }).click();
    await expect(features).toBeInViewport();
    await expect(features).toBeFocused();
  });

  test('three feature cards', async ({ page }) => {
    await page.goto('/');
    const section = page.locator('#fonctionnalites');
    await expect(section.getByRole('listitem')).toHaveCount(3);
    for (const title of ['Surveillance en temps réel', 'Analyse prédictive', 'Installation plug-and-play']) {
      await expect(section.getByRole('heading', { level: 3, name: title })).toBeVisible();
    }
  });

  test('statistics', async ({ page }) => {
    await page.goto('/');
    const stats = page.locator('dl');
    const pairs = [
      ['10\u202F000+', 'capteurs déployés'],
      ['500+', 'entreprises clientes'],
      ['99,9\u202F%', 'de disponibilité'],
      ['24/7', 'support'],
    ];
    for (const [value, label] of pairs) {
      await expect(stats.getByText(label as string, { exact: true })).toBeVisible();
      // Exact characters: a narrow no-break space for thousands, a no-break space before %.
      await expect(stats.locator('dd', { hasText: (value as string).slice(0, 2) })).toHaveJSProperty('textContent', value);
    }
  });

  test('footer', async ({ page }) => {
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    await expect(footer).toContainText('© 2024 Vigie');
    const links = footer.getByRole('link');
    expect(await links.count()).toBeGreaterThan(8);
    for (const link of await links.all()) await expect(link).toHaveAttribute('href', '#');
  });

  test.describe('at 375 px', () => {
    test.use({ viewport: { width: 375, height: 812 } });

    test('mobile menu', async ({ page }) => {
      await page.goto('/');
      const toggle = page.getByRole('button', { name: 'Menu' });
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      // The desktop links are hidden on a phone.
      await expect(page.getByRole('link', { name: 'Solutions' })).toBeHidden();

      await toggle.click();
      await expect(toggle).toHaveAttribute('aria-expanded', 'true');
      const menu = page.locator(`[id="${await toggle.getAttribute('aria-controls')}"]`);
      for (const label of ['Solutions', 'Ressources', 'Entreprise', 'Tarifs', 'Tableau de bord', 'Connexion']) {
        await expect(menu.getByRole('link', { name: label, exact: true })).toBeVisible();
      }
      await toggle.click();
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await expect(menu).toBeHidden();

      await toggle.click();
      await menu.getByRole('link', { name: 'Connexion', exact: true }).click();
      await expect(page).toHaveURL(/\/login$/);
    });

    test('nothing overflows horizontally', async ({ page }) => {
      await page.goto('/');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    });
  });

  test.describe('animated background', () => {
    // With motion, as most people have it (the configuration asks for reduced motion).
    test.use({ reducedMotion: 'no-preference' });
    const layerTransform = (page: Page) =>
      page
        .locator('.animated-bg [data-depth]')
        .first()
        .evaluate((element) => (element as HTMLElement).style.transform);

    test('follows the mouse', async ({ page }) => {
      await page.goto('/');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.mouse.move(1200, 700, { steps: 4 });
      await expect.poll(() => layerTransform(page)).toMatch(/translate3d\(-[1-9]/);
    });

    test('stays still under reduced motion', async ({ page }) => {
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.goto('/');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.mouse.move(1200, 700, { steps: 4 });
      await page.mouse.move(100, 100, { steps: 4 });
      await page.waitForTimeout(300);
      expect(await layerTransform(page)).toBe('');
      const animation = await page
        .locator('.animate-blob-drift')
        .first()
        .evaluate((element) => getComputedStyle(element).animationDuration);
      expect(parseFloat(animation)).toBeLessThan(0.001);
    });

    test('rests while the tab is hidden', async ({ page }) => {
      await page.goto('/');
      const background = page.locator('.animated-bg');
      await expect(background).toHaveAttribute('data-paused', 'false');
      await page.evaluate(() => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
        document.dispatchEvent(new Event('visibilitychange'));
      });
      await expect(background).toHaveAttribute('data-paused', 'true');
      const state = await page
        .locator('.animate-blob-drift')
        .first()
        .evaluate((element) => getComputedStyle(element).animationPlayState);
      expect(state).toBe('paused');
    });
  });

  test('paints its content at once, never « Chargement… » on the way', async ({ page }) => {
    await page.addInitScript(() => {
      const painted: string[] = [];
      Object.assign(window, { vigiePainted: painted });
      new MutationObserver(() => {
        const text = document.body?.innerText.trim() ?? '';
        if (text) painted.push(text.slice(0, 200));
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const painted = await page.evaluate(() => (window as unknown as { vigiePainted: string[] }).vigiePainted);
    expect(painted.length).toBeGreaterThan(0);
    expect(painted.filter((text) => text.includes('Chargement'))).toEqual([]);
  });

  test('code splitting', async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(scripts.some((path) => /\/assets\/landing-[\w-]+\.js$/.test(path))).toBe(true);
    expect(scripts.filter((path) => /\/assets\/dashboard-[\w-]+\.js$/.test(path))).toEqual([]);
  });
});
