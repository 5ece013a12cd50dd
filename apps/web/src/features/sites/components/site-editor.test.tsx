import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeAuth, jsonResponse, renderWithProviders } from '@/testing/render';
import { SiteEditor } from './site-editor';

const hours = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
const site = {
  id: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d',
  name: 'Lille Centre',
  timezone: 'Europe/Paris',
  openingHours: hours,
  regionId: null,
};
const nord = { id: '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f', name: 'Nord' };

let bodies: unknown[];

beforeEach(() => {
  bodies = [];
  vi.stubGlobal('fetch', async (_url: string, init?: RequestInit) => {
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : undefined;
    if (init?.method === 'PUT') {
      bodies.push(body);
      return jsonResponse(200, { site: { ...site, ...body } });
    }
    return jsonResponse(404, { message: 'Introuvable' });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('SiteEditor', () => {
  it('puts a shop in one of the organization’s regions', async () => {
    const user = userEvent.setup();
    renderWithProviders(<SiteEditor site={site} regions={[nord]} />);
    const region = screen.getByLabelText('Région');
    expect(region).toHaveValue('');
    await user.selectOptions(region, 'Nord');
    await user.click(screen.getByRole('button', { name: /Enregistrer/ }));
    expect(await screen.findByText('Site enregistré.')).toBeInTheDocument();
    expect(bodies).toEqual([expect.objectContaining({ name: 'Lille Centre', regionId: nord.id })]);
  });

  it('offers no region where the organization has none, and sends none', async () => {
    const user = userEvent.setup();
    renderWithProviders(<SiteEditor site={site} />);
    expect(screen.queryByLabelText('Région')).toBeNull();
    await user.click(screen.getByRole('button', { name: /Enregistrer/ }));
    expect(await screen.findByText('Site enregistré.')).toBeInTheDocument();
    expect(bodies[0]).not.toHaveProperty('regionId');
  });

  it('leaves a region deleted meanwhile: « Aucune région » is chosen, and sent', async () => {
    const user = userEvent.setup();
    const sud = { id: '9e0f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b', name: 'Sud' };
    renderWithProviders(<SiteEditor site={{ ...site, regionId: nord.id }} regions={[sud]} />);
    expect(screen.getByLabelText('Région')).toHaveValue('');
    await user.click(screen.getByRole('button', { name: /Enregistrer/ }));
    expect(await screen.findByText('Site enregistré.')).toBeInTheDocument();
    expect(bodies).toEqual([expect.objectContaining({ regionId: null })]);
  });

  it('shows a viewer the shop’s region and what it is going through, first', () => {
    const auth = fakeAuth();
    renderWithProviders(
      <SiteEditor site={{ ...site, regionId: nord.id }} regions={[nord]} status={<p>Magasin en pause</p>}>
        <p>Règles</p>
      </SiteEditor>,
      { auth: { ...auth, user: auth.user && { ...auth.user, role: 'viewer' } } },
    );
    const section = screen.getByRole('region', { name: 'Lille Centre' });
    expect(section.querySelector('p')?.textContent).toBe('Fuseau horaire\u202F: Europe/Paris · Région\u202F: Nord');
    expect(
      screen.getByText('Magasin en pause').compareDocumentPosition(screen.getByText('Règles')) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });
});
