import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { SiteHeader } from './site-header';

describe('SiteHeader', () => {
  it('links to the dashboard and the login page, with placeholder links', () => {
    renderWithProviders(<SiteHeader />);
    const nav = screen.getByRole('navigation', { name: 'Navigation principale' });
    for (const label of ['Solutions', 'Ressources', 'Entreprise', 'Tarifs']) {
      expect(within(nav).getByRole('link', { name: label })).toHaveAttribute('href', '#');
    }
    expect(within(nav).getByRole('link', { name: 'Tableau de bord' })).toHaveAttribute('href', '/dashboard');
    expect(within(nav).getByRole('link', { name: 'Connexion' })).toHaveAttribute('href', '/login');
  });

  it('opens and closes the mobile menu', async () => {
    const user = userEvent.setup();
    renderWithProviders(<SiteHeader />);
    const toggle = screen.getByRole('button', { name: 'Menu' });
    const menu = document.getElementById(toggle.getAttribute('aria-controls') ?? '');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(menu).not.toBeVisible();

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(menu).toBeVisible();

    await user.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(menu).not.toBeVisible();
  });
});
