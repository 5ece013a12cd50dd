import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/testing/render';
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
});
