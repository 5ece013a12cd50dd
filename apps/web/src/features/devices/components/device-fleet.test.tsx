import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { DeviceDashboard } from './device-dashboard';

const HOUR = 3600_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** A chain's sensors: « Sonde 1 » … « Sonde N », a few of them in trouble. */
function fleet(count: number) {
  const now = Date.now();
  return Array.from({ length: count }, (_, index) => {
    const n = index + 1;
    return {
      id: `s${n}`,
      name: `Sonde ${n}`,
      serial: `VIG-${String(n).padStart(5, '0')}`,
      createdAt: iso(now - count * 1000 + index * 1000),
      updatedAt: iso(now),
      status: n === 4000 ? 'offline' : 'online',
      lastSeenAt: iso(n === 4000 ? now - 2 * HOUR : now - 10_000),
      inactivityTimeoutSeconds: 600,
      battery: n === 2500 ? 8 : 90,
      latest: {},
    };
  });
}

let sensors: ReturnType<typeof fleet>;

beforeEach(() => {
  sensors = fleet(10_000);
  // jsdom has no scrolling; the virtual list may ask for it.
  vi.stubGlobal('scrollTo', () => undefined);
  vi.stubGlobal('fetch', async (url: string) => {
    if (url === '/api/emitter') return jsonResponse(200, { emitters: [] });
    if (url === '/api/sensor') return jsonResponse(200, { sensors });
    return jsonResponse(404, { message: 'Introuvable' });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const cards = () => screen.queryAllByTestId('device-card');
const names = () => cards().map((card) => within(card).getByRole('link').textContent);

describe('the dashboard with 10 000 sensors', () => {
  it('tells the true count, renders only the cards near the screen, and finds any sensor by name or serial', async () => {
    renderWithProviders(<DeviceDashboard />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: /Capteurs\s*10\s000/ }));
    expect(await screen.findByRole('heading', { level: 2, name: /^Capteurs \(10\s000\)$/ })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('10 000 capteurs');
    await waitFor(() => expect(cards().length).toBeGreaterThan(0));
    expect(cards().length).toBeLessThan(100);
    expect(names()[0]).toBe('Sonde 1');

    await user.type(screen.getByLabelText('Rechercher'), 'vig-09999');
    await waitFor(() => expect(names()).toEqual(['Sonde 9999']));
    expect(screen.getByRole('status')).toHaveTextContent('1 capteur sur 10 000');

    await user.clear(screen.getByLabelText('Rechercher'));
    await user.type(screen.getByLabelText('Rechercher'), 'sonde 77');
    // « Sonde 77 », « Sonde 770 » … « Sonde 7799 »: 111 sensors, still not all in the page.
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('111 capteurs sur 10 000'));
    expect(cards().length).toBeLessThan(111);

    await user.type(screen.getByLabelText('Rechercher'), '0000');
    expect(await screen.findByText('Aucun capteur ne correspond à cette recherche.')).toBeInTheDocument();
    // Ten thousand cards typed through in jsdom: seconds of work when the machine is shared.
  }, 30_000);

  it('filters by state and puts problems first', async () => {
    renderWithProviders(<DeviceDashboard />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: /Capteurs/ }));
    await user.selectOptions(await screen.findByLabelText('État'), 'Hors ligne');
    await waitFor(() => expect(names()).toEqual(['Sonde 4000']));
    await user.selectOptions(screen.getByLabelText('État'), 'Pile faible');
    await waitFor(() => expect(names()).toEqual(['Sonde 2500']));

    await user.selectOptions(screen.getByLabelText('État'), 'Tous les états');
    await user.selectOptions(screen.getByLabelText('Trier par'), 'Problèmes d’abord');
    await waitFor(() => expect(names().slice(0, 3)).toEqual(['Sonde 4000', 'Sonde 2500', 'Sonde 1']));
  });
});
