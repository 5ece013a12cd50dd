import { expect, type Locator, type Page } from '@playwright/test';

/** The side menu of the signed-in pages, from 1024 px. */
export const sideMenu = (page: Page): Locator => page.getByRole('navigation', { name: 'Menu principal' });

/** The bar at the foot of the signed-in pages, below 1024 px. */
export const bottomBar = (page: Page): Locator => page.getByRole('navigation', { name: 'Navigation principale' });

/** The sheet « Plus » opens from the bottom bar. */
export const moreSheet = (page: Page): Locator => page.getByRole('dialog', { name: 'Autres pages' });

/**
 * Opens a page from the navigation as a person would at the current width: from the side menu,
 * or from the bottom bar, through « Plus » when the page is not one of its four.
 */
export async function openFromNavigation(page: Page, name: string): Promise<void> {
  // Only the navigation of the current width is in the accessibility tree.
  const shown = page.getByRole('navigation', { name: /^(Menu principal|Navigation principale)$/ });
  await expect(shown).toBeVisible();
  const link = shown.getByRole('link', { name, exact: true });
  if ((await shown.getAttribute('aria-label')) === 'Navigation principale' && (await link.count()) === 0) {
    await shown.getByRole('button', { name: 'Plus' }).click();
    await moreSheet(page).getByRole('link', { name, exact: true }).click();
    return;
  }
  await link.click();
}
