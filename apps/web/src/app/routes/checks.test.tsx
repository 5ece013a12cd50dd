import type { Check, CreateCheckRequest } from '@vigie/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeAuth, jsonResponse, renderWithProviders } from '@/testing/render';
import ChecksRoute from './checks';

const plain = (text: string | null | undefined) => (text ?? '').replace(/[\u202F\u00A0]/g, ' ');
// On the minute: « Pris le » shows it to the minute, and sends it back as it was.
const NOW = Date.parse('2026-11-23T13:10:00.000Z');
const OPERA = '7c1f6a2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b';
const LYON = '8d2a7b3f-4c5e-4f60-9b0c-1d2e3f4a5b6c';
const VITRINE = '5d1c3f8e-2b4a-4c6d-9e8f-7a6b5c4d3e2f';
const CAVE = '6e2d4a9f-3c5b-4d7e-8f9a-0b1c2d3e4f5a';
const hours = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
const sites = [
  { id: OPERA, name: 'Boutique Opéra', timezone: 'Europe/Paris', openingHours: hours, regionId: null },
  { id: LYON, name: 'Lyon Part-Dieu', timezone: 'Europe/Paris', openingHours: hours, regionId: null },
];
const sensor = (id: string, name: string, siteId: string) => ({
  id,
  name,
  siteId,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  serial: null,
  model: null,
  status: 'online',
  lastSeenAt: null,
  latest: {},
  battery: null,
  inactivityTimeoutSeconds: 900,
  emitterId: null,
});
const sensors = [sensor(VITRINE, 'Vitrine crèmerie', OPERA), sensor(CAVE, 'Cave à fromages', LYON)];

let checks: Check[];
let posts: CreateCheckRequest[];
/** The server's answer to the next POST, when it refuses it. */
let refusal: string | null;

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
  checks = [];
  posts = [];
  refusal = null;
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    if (url === '/api/sites') return jsonResponse(200, { sites });
    if (url === '/api/sensor') return jsonResponse(200, { sensors });
    if (url.startsWith('/api/checks') && method === 'GET') {
      const siteId = new URL(url, 'http://vigie.test').searchParams.get('siteId');
      return jsonResponse(200, { checks: checks.filter((check) => !siteId || check.siteId === siteId) });
    }
    if (url === '/api/checks' && method === 'POST') {
      const body = JSON.parse(String(init?.body)) as CreateCheckRequest;
      posts.push(body);
      if (refusal) return jsonResponse(400, { message: refusal });
      const check: Check = {
        id: `3f0c8f2e-8f6a-4d7e-9a3b-2c1d0e9f8a7${posts.length}`,
        siteId: body.siteId,
        sensorId: body.sensorId ?? null,
        kind: body.kind,
        product: body.product ?? null,
        supplier: body.supplier ?? null,
        temperature: body.temperature,
        accepted: body.accepted ?? null,
        quantity: body.quantity ?? null,
        note: body.note ?? null,
        takenAt: body.takenAt ?? new Date().toISOString(),
        takenBy: { id: fakeAuth().user?.id ?? null, name: 'Camille Martin' },
        createdAt: new Date().toISOString(),
      };
      checks = [check, ...checks];
      return jsonResponse(201, { check });
    }
    return jsonResponse(404, { message: 'Introuvable' });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

async function renderChecks() {
  const user = userEvent.setup();
  const auth = fakeAuth();
  // Everyone notes checks, viewers included.
  renderWithProviders(<ChecksRoute />, { auth: { ...auth, user: auth.user && { ...auth.user, role: 'viewer' } } });
  expect(screen.getByRole('heading', { level: 1, name: 'Contrôles manuels' })).toBeInTheDocument();
  const form = screen.getByRole('form', { name: 'Noter un contrôle' });
  await within(form).findByRole('option', { name: 'Lyon Part-Dieu' });
  expect(await screen.findByText('Aucun contrôle noté pour l’instant.')).toBeInTheDocument();
  return { user, form };
}

describe('ChecksRoute', () => {
  it('notes a refused delivery with exactly what was typed, then lists it first', async () => {
    const { user, form } = await renderChecks();
    expect(within(form).getByLabelText('Pris le')).toHaveValue(
      // The browser's own zone: what a person reads on the clock.
      new Date(NOW - new Date(NOW).getTimezoneOffset() * 60_000).toISOString().slice(0, 16),
    );
    await user.selectOptions(within(form).getByLabelText('Magasin'), 'Lyon Part-Dieu');
    await user.click(within(form).getByLabelText('Livraison à la réception'));
    await user.type(within(form).getByLabelText('Fournisseur'), 'Laiterie du Mont');
    await user.type(within(form).getByLabelText('Produit'), 'Yaourts nature');
    await user.click(within(within(form).getByRole('group', { name: 'Décision' })).getByLabelText('Refusée'));
    await user.type(within(form).getByLabelText('Quantité'), '3');
    await user.selectOptions(within(form).getByLabelText('Unité'), 'colis');
    await user.type(within(form).getByLabelText('Température (°C)'), '9,4');
    await user.type(within(form).getByLabelText('Remarque'), 'Refusée devant le chauffeur.');
    await user.click(within(form).getByRole('button', { name: 'Enregistrer le contrôle' }));

    expect(await within(form).findByText('Contrôle enregistré.')).toBeInTheDocument();
    expect(posts).toEqual([
      {
        siteId: LYON,
        kind: 'delivery',
        supplier: 'Laiterie du Mont',
        product: 'Yaourts nature',
        accepted: false,
        quantity: { value: 3, unit: 'colis' },
        temperature: 9.4,
        note: 'Refusée devant le chauffeur.',
        takenAt: '2026-11-23T13:10:00.000Z',
      },
    ]);
    const [item] = await screen.findAllByTestId('check-item');
    const text = plain(item?.textContent);
    expect(text).toContain('Livraison à la réception');
    expect(text).toContain('Yaourts nature');
    expect(text).toContain('Fournisseur :Laiterie du Mont');
    expect(text).toContain('Magasin :Lyon Part-Dieu');
    expect(text).toContain('par Camille Martin');
    expect(text).toContain('Remarque : Refusée devant le chauffeur.');
    expect(plain(within(item as HTMLElement).getByTestId('check-temperature').textContent)).toBe('+9,4 °C');
    const decision = within(item as HTMLElement).getByTestId('check-decision');
    expect(plain(decision.textContent)).toBe('Refusée : 3 colis');
    expect(decision).toHaveClass('text-red-200');
    // The form is ready for the next one, the shop and the type kept.
    expect(within(form).getByLabelText('Température (°C)')).toHaveValue('');
    expect(within(form).getByLabelText('Livraison à la réception')).toBeChecked();
  });

  it('notes a unit’s reading with one of that shop’s sensors, and filters the list by shop', async () => {
    const { user, form } = await renderChecks();
    await user.click(within(form).getByLabelText('Relevé manuel d’un meuble'));
    const unit = within(form).getByLabelText('Meuble');
    // Boutique Opéra, the first shop: its own sensors only.
    await within(form).findByRole('option', { name: 'Vitrine crèmerie' });
    expect(within(unit).queryByRole('option', { name: 'Cave à fromages' })).not.toBeInTheDocument();
    await user.selectOptions(unit, 'Vitrine crèmerie');
    await user.type(within(form).getByLabelText('Température (°C)'), '−2');
    await user.click(within(form).getByRole('button', { name: 'Enregistrer le contrôle' }));
    await within(form).findByText('Contrôle enregistré.');
    expect(posts).toEqual([{ siteId: OPERA, kind: 'unit', sensorId: VITRINE, temperature: -2, takenAt: '2026-11-23T13:10:00.000Z' }]);
    const [item] = await screen.findAllByTestId('check-item');
    expect(plain(item?.textContent)).toContain('Vitrine crèmerie');
    expect(plain(within(item as HTMLElement).getByTestId('check-temperature').textContent)).toBe('−2,0 °C');
    expect(within(item as HTMLElement).queryByTestId('check-decision')).not.toBeInTheDocument();

    const list = screen.getByRole('region', { name: 'Contrôles notés' });
    await user.selectOptions(within(list).getByLabelText('Magasin'), 'Lyon Part-Dieu');
    expect(await within(list).findByText('Aucun contrôle noté dans ce magasin.')).toBeInTheDocument();
  });

  it('says what is missing before sending, and shows the server’s refusal as it comes', async () => {
    const { user, form } = await renderChecks();
    await user.type(within(form).getByLabelText('Produit'), 'Jambon blanc');
    await user.type(within(form).getByLabelText('Température (°C)'), 'chaud');
    await user.click(within(form).getByRole('button', { name: 'Enregistrer le contrôle' }));
    expect(plain(within(form).getByRole('alert').textContent)).toBe('Indiquez la température, par exemple « 9,4 ».');
    expect(within(form).getByLabelText('Température (°C)')).toHaveAttribute('aria-invalid', 'true');
    expect(posts).toEqual([]);

    refusal = 'Un contrôle date de 7 jours au plus.';
    await user.clear(within(form).getByLabelText('Température (°C)'));
    await user.type(within(form).getByLabelText('Température (°C)'), '3,5');
    await user.click(within(form).getByRole('button', { name: 'Enregistrer le contrôle' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(refusal);
    expect(posts).toEqual([
      { siteId: OPERA, kind: 'product', product: 'Jambon blanc', temperature: 3.5, takenAt: '2026-11-23T13:10:00.000Z' },
    ]);
  });
});
