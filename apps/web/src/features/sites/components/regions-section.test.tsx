import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Region, Site } from '@vigie/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeAuth, jsonResponse, renderWithProviders } from '@/testing/render';
import { useRegions } from '../api/get-overview';
import { RegionsSection } from './regions-section';
import { SiteEditor } from './site-editor';

const NNBSP = '\u202F';
/** Texts matched as written, their narrow no-break spaces included. */
const exact = { normalizer: (text: string) => text };
const hours = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
const nord: Region = { id: '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f', name: 'Nord' };
const site = (id: string, name: string, regionId: string | null): Site => ({
  id,
  name,
  timezone: 'Europe/Paris',
  openingHours: hours,
  regionId,
});

type Call = { url: string; method: string; body: unknown };
let calls: Call[];
let regions: Region[];
let sites: Site[];

beforeEach(() => {
  calls = [];
  regions = [nord];
  sites = [
    site('5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d', 'Roubaix', nord.id),
    site('6b7c8d9e-0f1a-4b2c-8d3e-4f5a6b7c8d9e', 'Lille Centre', nord.id),
    site('8d9e0f1a-2b3c-4d4e-8f5a-6b7c8d9e0f1a', 'Lyon Part-Dieu', null),
  ];
  // A small server: the regions and the shops, as the API keeps and answers them.
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const body = init?.body ? (JSON.parse(String(init.body)) as { name: string }) : undefined;
    calls.push({ url, method, body });
    const id = url.split('/')[3];
    if (url === '/api/sites' && method === 'GET') return jsonResponse(200, { sites });
    if (url === '/api/regions' && method === 'GET') return jsonResponse(200, { regions });
    if (url === '/api/regions' && method === 'POST' && body) {
      if (regions.some((region) => region.name.toLowerCase() === body.name.toLowerCase()))
        return jsonResponse(409, { message: 'Une région de l’organisation porte déjà ce nom.' });
      const region = { id: '9e0f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b', name: body.name };
      regions = [...regions, region].sort((a, b) => a.name.localeCompare(b.name));
      return jsonResponse(201, { region });
    }
    if (url.startsWith('/api/regions/') && method === 'PUT' && body) {
      regions = regions.map((region) => (region.id === id ? { ...region, name: body.name } : region));
      return jsonResponse(200, { region: { id, name: body.name } });
    }
    if (url.startsWith('/api/regions/') && method === 'DELETE') {
      regions = regions.filter((region) => region.id !== id);
      sites = sites.map((shop) => (shop.regionId === id ? { ...shop, regionId: null } : shop));
      return new Response(null, { status: 204 });
    }
    return jsonResponse(404, { message: 'Introuvable' });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderAs(role: 'admin' | 'manager' | 'viewer', ui = <RegionsSection />) {
  const auth = fakeAuth();
  return renderWithProviders(ui, { auth: { ...auth, user: auth.user && { ...auth.user, role } } });
}

/** The page's two readers of the regions: the section, and a shop's editor fed by the same query. */
function RegionsAndEditor() {
  return (
    <>
      <RegionsSection />
      <EditorWithRegions />
    </>
  );
}

function EditorWithRegions() {
  // Reads the list the section's mutations refresh, as the Magasins page does.
  const regionList = useRegions().data ?? [];
  return <SiteEditor site={sites[2] as Site} regions={regionList} />;
}

describe('RegionsSection', () => {
  it('lists each region with its shops, by name', async () => {
    renderAs('admin');
    const row = await screen.findByTestId('region');
    expect(within(row).getByRole('heading', { level: 3, name: 'Nord' })).toBeInTheDocument();
    expect(within(row).getByText(/^2 magasins/).textContent).toBe(`2 magasins${NNBSP}: Lille Centre, Roubaix`);
  });

  it('creates a region, which a shop’s editor then offers', async () => {
    const user = userEvent.setup();
    regions = [];
    renderAs('admin', <RegionsAndEditor />);
    expect(await screen.findByText(/Aucune région pour l’instant/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Région')).toBeNull();
    await user.type(screen.getByLabelText('Nouvelle région'), '  Sud  ');
    await user.click(screen.getByRole('button', { name: 'Ajouter la région' }));
    expect(await screen.findByText(`Région «${NNBSP}Sud${NNBSP}» ajoutée.`, exact)).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ name: 'Sud' });
    expect(screen.getByTestId('region')).toHaveTextContent('SudAucun magasin');
    expect(screen.getByLabelText('Nouvelle région')).toHaveValue('');
    // The shop's editor reads the same list: the new region is offered at once.
    const select = await screen.findByLabelText('Région');
    expect(within(select).getByRole('option', { name: 'Sud' })).toBeInTheDocument();
  });

  it('says in French why the server refused a region', async () => {
    const user = userEvent.setup();
    renderAs('admin');
    await screen.findByTestId('region');
    await user.click(screen.getByRole('button', { name: 'Ajouter la région' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Le nom de la région est obligatoire.');
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    await user.type(screen.getByLabelText('Nouvelle région'), 'nord');
    await user.click(screen.getByRole('button', { name: 'Ajouter la région' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Une région de l’organisation porte déjà ce nom.');
    expect(screen.getByLabelText('Nouvelle région')).toHaveValue('nord');
  });

  it('renames a region in place', async () => {
    const user = userEvent.setup();
    renderAs('admin');
    await user.click(await screen.findByRole('button', { name: 'Renommer la région Nord' }));
    const field = screen.getByLabelText('Nouveau nom de la région');
    expect(field).toHaveFocus();
    await user.clear(field);
    await user.type(field, 'Hauts-de-France');
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    expect(
      await screen.findByText(`Région «${NNBSP}Nord${NNBSP}» renommée en «${NNBSP}Hauts-de-France${NNBSP}».`, exact),
    ).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'PUT')).toEqual({
      url: `/api/regions/${nord.id}`,
      method: 'PUT',
      body: { name: 'Hauts-de-France' },
    });
    expect(await screen.findByRole('heading', { level: 3, name: 'Hauts-de-France' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Nouveau nom de la région')).toBeNull();
    // The focus goes back to the row's « Renommer », not to the top of the page.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Renommer la région Hauts-de-France' })).toHaveFocus());
  });

  it('deletes a region after a confirmation that says its shops stay, in no region', async () => {
    const user = userEvent.setup();
    const onChanged = vi.fn();
    renderAs('admin', <RegionsSection onChanged={onChanged} />);
    await user.click(await screen.findByRole('button', { name: 'Supprimer la région Nord' }));
    const dialog = screen.getByRole('dialog', { name: `Supprimer la région «${NNBSP}Nord${NNBSP}»${NNBSP}?` });
    expect(within(dialog).getByText(/^Ses 2 magasins/).textContent).toMatch(
      new RegExp(
        `^Ses 2 magasins restent, sans région${NNBSP}: Lille Centre, Roubaix\\. Les modèles de règles qui visent cette région ne s’y appliquent plus`,
      ),
    );
    // « Annuler » first: nothing is deleted.
    await user.click(within(dialog).getByRole('button', { name: 'Annuler' }));
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Supprimer la région Nord' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Supprimer la région' }));
    expect(await screen.findByText(`Région «${NNBSP}Nord${NNBSP}» supprimée.`, exact)).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'DELETE')?.url).toBe(`/api/regions/${nord.id}`);
    await waitFor(() => expect(screen.queryByTestId('region')).toBeNull());
    expect(onChanged).toHaveBeenCalledTimes(1);
    // The shops were read again: none is in a region any more.
    expect(calls.filter((call) => call.url === '/api/sites').length).toBeGreaterThan(1);
  });

  it('shows a viewer the regions read-only, and nothing when there are none', async () => {
    const { unmount } = renderAs('viewer');
    const row = await screen.findByTestId('region');
    expect(within(row).getByRole('heading', { level: 3, name: 'Nord' })).toBeInTheDocument();
    expect(within(row).getByText(/^2 magasins/).textContent).toBe(`2 magasins${NNBSP}: Lille Centre, Roubaix`);
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByLabelText('Nouvelle région')).toBeNull();
    unmount();

    regions = [];
    renderAs('viewer');
    await waitFor(() => expect(calls.filter((call) => call.url === '/api/regions').length).toBe(2));
    expect(screen.queryByRole('heading', { name: 'Régions' })).toBeNull();
  });

  it('leaves a manager the regions to read: the server lets admins alone change them', async () => {
    renderAs('manager');
    await screen.findByTestId('region');
    expect(screen.queryByRole('button', { name: /Renommer|Supprimer|Ajouter/ })).toBeNull();
  });
});
