import type { Report } from '@vigie/contract';
import { createEvent, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reportFixture } from '@/features/reports/report-fixture';
import { fakeAuth, jsonResponse, LocationProbe, renderWithProviders } from '@/testing/render';
import { Breadcrumbs } from './breadcrumbs';
import { BottomBar, SideMenu } from './main-navigation';
import { breadcrumbTrail } from './pages';

type Role = 'admin' | 'manager' | 'viewer';

let reports: Report[];
let requests: string[];

beforeEach(() => {
  reports = [];
  requests = [];
  vi.stubGlobal('fetch', async (url: string) => {
    requests.push(url);
    if (url.startsWith('/api/reports')) return jsonResponse(200, { reports });
    return jsonResponse(404, { message: 'Introuvable' });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function authAs(role: Role, scope: { siteIds: string[]; regionIds: string[] } | null = null) {
  const auth = fakeAuth();
  return { ...auth, user: auth.user && { ...auth.user, role, scope } };
}

function renderAt(ui: ReactElement, at: string | { pathname: string; state?: unknown }, role: Role = 'admin') {
  return renderWithProviders(
    <>
      {ui}
      <LocationProbe />
    </>,
    { auth: authAs(role), path: '/dashboard/*', initialEntries: [at] },
  );
}

const linkNames = (container: HTMLElement) =>
  within(container)
    .getAllByRole('link')
    .map((link) => link.textContent);

describe('the side menu', () => {
  it.each<[Role, string[], boolean]>([
    [
      'admin',
      [
        'Tableau de bord',
        'Alertes',
        'Rapports',
        'Magasins',
        'Tâches du jour',
        'Plan de maîtrise sanitaire',
        'Réseau',
        'Contrôles',
        'Installer un appareil',
        'Équipe',
        'Journal',
        'Corbeille',
        'Mon compte',
        'Installation',
        'Capteurs LoRaWAN',
      ],
      true,
    ],
    [
      'manager',
      [
        'Tableau de bord',
        'Alertes',
        'Rapports',
        'Magasins',
        'Tâches du jour',
        'Plan de maîtrise sanitaire',
        'Réseau',
        'Contrôles',
        'Installer un appareil',
        'Corbeille',
        'Mon compte',
        'Installation',
        'Capteurs LoRaWAN',
      ],
      true,
    ],
    [
      'viewer',
      ['Tableau de bord', 'Alertes', 'Rapports', 'Magasins', 'Tâches du jour', 'Réseau', 'Contrôles', 'Corbeille', 'Mon compte'],
      false,
    ],
  ])('lists what a %s may open', (role, names, integrations) => {
    renderAt(<SideMenu />, '/dashboard', role);
    const menu = screen.getByRole('navigation', { name: 'Menu principal' });
    expect(linkNames(menu)).toEqual(names);
    expect(within(menu).queryByRole('list', { name: 'Intégrations' }) !== null).toBe(integrations);
  });

  it('keeps « Intégrations » from a manager who sees some shops only (the server refuses them the key)', () => {
    renderWithProviders(<SideMenu />, { auth: authAs('manager', { siteIds: ['s1'], regionIds: [] }), path: '/dashboard' });
    const menu = screen.getByRole('navigation', { name: 'Menu principal' });
    expect(within(menu).getByRole('link', { name: 'Installer un appareil' })).toBeInTheDocument();
    // The plan of their own shops is theirs to prepare.
    expect(within(menu).getByRole('link', { name: 'Plan de maîtrise sanitaire' })).toHaveAttribute('href', '/dashboard/plan');
    expect(within(menu).queryByRole('list', { name: 'Intégrations' })).not.toBeInTheDocument();
    expect(within(menu).queryByRole('link', { name: 'Installation' })).not.toBeInTheDocument();
  });

  it('marks the page shown, and the list an alert belongs to', () => {
    const { unmount } = renderAt(<SideMenu />, '/dashboard/alertes');
    const menu = screen.getByRole('navigation', { name: 'Menu principal' });
    expect(within(menu).getByRole('link', { name: 'Alertes' })).toHaveAttribute('aria-current', 'page');
    expect(within(menu).getByRole('link', { name: 'Tableau de bord' })).not.toHaveAttribute('aria-current');
    expect(
      within(menu)
        .getAllByRole('link')
        .filter((link) => link.hasAttribute('aria-current')),
    ).toHaveLength(1);
    unmount();

    renderAt(<SideMenu />, '/dashboard/alertes/42');
    const again = screen.getByRole('navigation', { name: 'Menu principal' });
    expect(within(again).getByRole('link', { name: 'Alertes' })).toHaveAttribute('aria-current', 'true');
    expect(within(again).getByRole('link', { name: 'Tableau de bord' })).not.toHaveAttribute('aria-current');
  });

  it('marks the dashboard on the dashboard only', () => {
    renderAt(<SideMenu />, '/dashboard');
    const menu = screen.getByRole('navigation', { name: 'Menu principal' });
    expect(within(menu).getByRole('link', { name: 'Tableau de bord' })).toHaveAttribute('aria-current', 'page');
  });

  it('says how many reports wait for a signature', async () => {
    reports = [
      reportFixture(),
      reportFixture({ id: 'c1b2c3d4-0000-4000-8000-000000000003', month: '2026-10', createdAt: '2026-11-01T02:00:00.000Z' }),
    ];
    renderAt(<SideMenu />, '/dashboard');
    const link = await screen.findByRole('link', { name: 'Rapports, 2 non signés' });
    expect(link).toHaveAttribute('href', '/dashboard/rapports');
    expect(within(link).getByTestId('reports-unsigned-count')).toHaveTextContent('2');
  });

  it('is plainly « Rapports » when everything is signed', async () => {
    reports = [reportFixture({ signedAt: '2026-12-02T08:00:00.000Z', signedByName: 'Luc Bernard' })];
    renderAt(<SideMenu />, '/dashboard');
    await waitFor(() => expect(requests).toContain('/api/reports'));
    expect(screen.getByRole('link', { name: 'Rapports' })).toBeInTheDocument();
    expect(screen.queryByTestId('reports-unsigned-count')).not.toBeInTheDocument();
  });
});

describe('the bottom bar', () => {
  it('shows the four pages of every day and « Plus », which opens the others and closes once one is chosen', async () => {
    const user = userEvent.setup();
    renderAt(<BottomBar />, '/dashboard/rapports', 'viewer');
    const bar = screen.getByRole('navigation', { name: 'Navigation principale' });
    const entries = within(bar)
      .getAllByRole('listitem')
      .filter((item) => item.parentElement?.parentElement === bar);
    expect(entries.map((item) => item.textContent)).toEqual(['Tableau de bord', 'Alertes', 'Rapports', 'Magasins', 'Plus']);
    expect(within(bar).getByRole('link', { name: 'Rapports' })).toHaveAttribute('aria-current', 'page');

    const more = within(bar).getByRole('button', { name: 'Plus' });
    expect(more).toHaveAttribute('aria-expanded', 'false');
    const sheet = document.getElementById(more.getAttribute('aria-controls') ?? '');
    expect(sheet?.tagName).toBe('DIALOG');
    await user.click(more);
    expect(more).toHaveAttribute('aria-expanded', 'true');
    const dialog = screen.getByRole('dialog', { name: 'Autres pages' });
    // The same role rules as the side menu: a viewer installs nothing and has no « Intégrations ».
    expect(linkNames(dialog)).toEqual(['Tâches du jour', 'Réseau', 'Contrôles', 'Corbeille', 'Mon compte']);

    await user.click(within(dialog).getByRole('link', { name: 'Corbeille' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/dashboard/corbeille');
    expect(more).toHaveAttribute('aria-expanded', 'false');
    expect(sheet).not.toHaveAttribute('open');
    expect(more).toHaveFocus();
  });

  it('closes the sheet on Échap, the focus back on « Plus »', async () => {
    const user = userEvent.setup();
    renderAt(<BottomBar />, '/dashboard');
    const more = screen.getByRole('button', { name: 'Plus' });
    await user.click(more);
    const dialog = screen.getByRole('dialog', { name: 'Autres pages' });
    expect(within(dialog).getByRole('list', { name: 'Intégrations' })).toBeInTheDocument();
    // What the browser sends a modal dialog on Échap.
    fireEvent(dialog, createEvent('cancel', dialog, { cancelable: true }));
    expect(more).toHaveAttribute('aria-expanded', 'false');
    expect(dialog).not.toHaveAttribute('open');
    expect(more).toHaveFocus();
  });
});

describe('the breadcrumb', () => {
  const crumbs = () => {
    const nav = screen.getByRole('navigation', { name: 'Fil d’Ariane' });
    return within(nav)
      .getAllByRole('listitem')
      .map((item) => {
        const link = within(item).queryByRole('link');
        return link
          ? `${item.textContent} → ${link.getAttribute('href')}`
          : `${item.textContent} (${item.querySelector('[aria-current]')?.getAttribute('aria-current')})`;
      });
  };

  it('leads back to the page the person came from', () => {
    renderAt(<Breadcrumbs />, { pathname: '/dashboard/capteurs/s1', state: { from: { path: '/dashboard/alertes/42', label: 'Alerte' } } });
    expect(crumbs()).toEqual([
      'Tableau de bord → /dashboard',
      'Alertes → /dashboard/alertes',
      'Alerte → /dashboard/alertes/42',
      'Capteur (page)',
    ]);
  });

  it('keeps the query of the page left (a shop chosen on the dashboard)', () => {
    renderAt(<Breadcrumbs />, {
      pathname: '/dashboard/emetteurs/e1',
      state: { from: { path: '/dashboard?site=s9', label: 'Tableau de bord' } },
    });
    expect(crumbs()).toEqual(['Tableau de bord → /dashboard?site=s9', 'Émetteur (page)']);
  });

  it('falls back on the page’s usual parent without a state, or with one it cannot trust', () => {
    const { unmount } = renderAt(<Breadcrumbs />, '/dashboard/capteurs/s1');
    expect(crumbs()).toEqual(['Tableau de bord → /dashboard', 'Capteur (page)']);
    unmount();
    renderAt(<Breadcrumbs />, { pathname: '/dashboard/capteurs/s1', state: { from: { path: '//ailleurs.example/', label: 'Ailleurs' } } });
    expect(crumbs()).toEqual(['Tableau de bord → /dashboard', 'Capteur (page)']);
  });

  it('names each page as the menus do', () => {
    renderAt(<Breadcrumbs />, '/dashboard/sites');
    expect(crumbs()).toEqual(['Tableau de bord → /dashboard', 'Magasins (page)']);
  });

  it('is absent from the dashboard and from an alert’s page, which has its own way back', () => {
    expect(breadcrumbTrail('/dashboard', null)).toBeNull();
    expect(breadcrumbTrail('/dashboard/', null)).toBeNull();
    expect(breadcrumbTrail('/dashboard/alertes/42', { from: { path: '/dashboard/capteurs/s1', label: 'Capteur' } })).toBeNull();
    renderAt(<Breadcrumbs />, '/dashboard');
    expect(screen.queryByRole('navigation', { name: 'Fil d’Ariane' })).not.toBeInTheDocument();
  });
});
