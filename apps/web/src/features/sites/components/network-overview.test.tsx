import type { OverviewSite } from '@vigie/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { discardEarlyFetches } from '@/lib/early-fetch';
import { createQueryClient } from '@/lib/query-client';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { startNetworkReads } from '../api/network-reads';
import { FIRST_ROWS, NetworkOverview, tasksText } from './network-overview';

const nord = { id: '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f', name: 'Nord' };
const sud = { id: '8d9e0f1a-2b3c-4d4e-8f5a-6b7c8d9e0f1a', name: 'Sud' };

/** `count` shops, the worst first, every other one in « Nord ». */
function shops(count: number, prefix = 'Magasin'): OverviewSite[] {
  return Array.from({ length: count }, (_, index) => ({
    siteId: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    name: `${prefix} ${index + 1}`,
    regionId: index % 2 === 0 ? nord.id : sud.id,
    sensors: 20,
    offline: 0,
    activeAlerts: count - index,
    lowBattery: 0,
    compliance: 1,
  }));
}

type Call = { url: string; token: string | null };
let calls: Call[];
let sites: Record<string, OverviewSite[]>;

beforeEach(() => {
  calls = [];
  sites = { 'token-123': shops(500) };
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const token = new Headers(init?.headers).get('Authorization')?.replace(/^Bearer /, '') ?? null;
    calls.push({ url, token });
    if (url === '/api/overview') return jsonResponse(200, { sites: sites[token ?? ''] ?? [] });
    if (url === '/api/regions') return jsonResponse(200, { regions: [nord, sud] });
    return jsonResponse(404, { message: 'Introuvable' });
  });
});

afterEach(() => {
  discardEarlyFetches();
  vi.unstubAllGlobals();
});

const rows = () => screen.queryAllByTestId('network-site');

describe('NetworkOverview', () => {
  it('draws the first screenful first, then every shop, the count saying all of them throughout', async () => {
    renderWithProviders(<NetworkOverview />);
    await waitFor(() => expect(rows().length).toBeGreaterThan(0));
    // The first render of the table: the first shops only, but the count is the whole scope's.
    expect(rows()).toHaveLength(FIRST_ROWS);
    expect(rows()[0]).toHaveTextContent('Magasin 1');
    expect(screen.getByText('500 magasins')).toBeInTheDocument();

    await waitFor(() => expect(rows()).toHaveLength(500), { timeout: 5_000 });
    expect(rows()[499]).toHaveTextContent('Magasin 500');
  });

  it('filters and sorts the whole list', async () => {
    const user = userEvent.setup();
    renderWithProviders(<NetworkOverview />);
    await waitFor(() => expect(rows()).toHaveLength(500), { timeout: 5_000 });
    await user.selectOptions(screen.getByLabelText('Région'), 'Sud');
    expect(rows()).toHaveLength(250);
    expect(screen.getByText('250 magasins')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Trier'), 'Nom');
    // « Magasin 10 » before « Magasin 100 », both in « Sud » (even numbers).
    expect(rows()[0]).toHaveTextContent('Magasin 10');
    expect(rows()[1]).toHaveTextContent('Magasin 100');
  });

  it('shows the reads started with the session check without asking for them again', async () => {
    startNetworkReads('token-123');
    await new Promise((resolve) => setTimeout(resolve, 0));
    // The app's own freshness: an answer just arrived is not read again on mount.
    renderWithProviders(<NetworkOverview />, { queryClient: createQueryClient() });
    // Already in: the table is in the first render, no « Chargement… » before it.
    expect(rows()).toHaveLength(FIRST_ROWS);
    expect(screen.getByLabelText('Région')).toBeInTheDocument();
    await waitFor(() => expect(rows()).toHaveLength(500), { timeout: 5_000 });
    expect(calls.map((call) => call.url).sort()).toEqual(['/api/overview', '/api/regions']);
  });

  it('never shows what was read for another token', async () => {
    sites['token-of-someone-else'] = shops(3, 'Autre magasin');
    startNetworkReads('token-of-someone-else');
    renderWithProviders(<NetworkOverview />);
    await waitFor(() => expect(rows()).toHaveLength(500), { timeout: 5_000 });
    expect(screen.queryByText(/Autre magasin/)).toBeNull();
    expect(calls.filter((call) => call.url === '/api/overview').map((call) => call.token)).toEqual(['token-of-someone-else', 'token-123']);
  });
});

describe('the food-safety plan of each shop in the overview', () => {
  it('reads the share of tasks done this month and names the missed ones; a shop with none due shows a dash', () => {
    expect(tasksText({ due: 40, done: 35, late: 3, missed: 2, nonconforming: 1 }).replace(/\u202f/g, ' ')).toBe('95 % · 2 manquées');
    expect(tasksText({ due: 3, done: 2, late: 0, missed: 1, nonconforming: 0 }).replace(/\u202f/g, ' ')).toBe('66,6 % · 1 manquée');
    expect(tasksText({ due: 10, done: 10, late: 0, missed: 0, nonconforming: 0 }).replace(/\u202f/g, ' ')).toBe('100 %');
    expect(tasksText({ due: 0, done: 0, late: 0, missed: 0, nonconforming: 0 })).toBe('—');
    expect(tasksText(undefined)).toBe('—');
  });
});
