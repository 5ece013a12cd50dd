import type { Site } from '@vigie/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeAuth, jsonResponse, renderWithProviders } from '@/testing/render';
import { reportFixture } from '@/features/reports/report-fixture';
import ReportsRoute from './reports';

const site: Site = {
  id: reportFixture().siteId,
  name: 'Boutique Opéra',
  timezone: 'Europe/Paris',
  openingHours: { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] },
  regionId: null,
};
const region = { id: '4e8b2a1c-6d3f-4a7e-9b5c-2f1e0d9c8b7a', name: 'Île-de-France' };
const other: Site = { ...site, id: '8d2a7b3f-4c5e-4f6a-9b0c-1d2e3f4a5b6c', name: 'Atelier Bastille', regionId: region.id };

let sites: Site[];
let requests: string[];
let consolidatedAnswer: () => Response;

beforeEach(() => {
  sites = [site];
  requests = [];
  consolidatedAnswer = () =>
    new Response('%PDF-1.7', {
      headers: {
        'Content-Type': 'application/pdf',
        'Content-Disposition': 'attachment; filename="rapport-consolide_ile-de-france_2026-10.pdf"',
      },
    });
  vi.stubGlobal('fetch', async (url: string) => {
    requests.push(url);
    if (url === '/api/sites') return jsonResponse(200, { sites });
    if (url === '/api/regions') return jsonResponse(200, { regions: [region] });
    if (url.startsWith('/api/reports/consolidated')) return consolidatedAnswer();
    if (url.startsWith('/api/reports')) return jsonResponse(200, { reports: [reportFixture()] });
    return jsonResponse(404, { message: 'Introuvable' });
  });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('ReportsRoute', () => {
  it('lets a manager generate and sign', async () => {
    const auth = fakeAuth();
    renderWithProviders(<ReportsRoute />, { auth: { ...auth, user: auth.user && { ...auth.user, role: 'manager' } } });
    expect(screen.getByRole('heading', { level: 1, name: 'Rapports' })).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Générer un rapport' })).toBeInTheDocument();
    await screen.findByRole('article', { name: 'novembre 2026 · Boutique Opéra' });
    expect(screen.getByRole('button', { name: 'Signer' })).toBeInTheDocument();
  });

  it('shows a viewer the reports to read and download, without « Générer » or « Signer »', async () => {
    const auth = fakeAuth();
    renderWithProviders(<ReportsRoute />, { auth: { ...auth, user: auth.user && { ...auth.user, role: 'viewer' } } });
    await screen.findByRole('article', { name: 'novembre 2026 · Boutique Opéra' });
    expect(screen.queryByRole('form', { name: 'Générer un rapport' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Signer' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Télécharger le PDF' })).toBeInTheDocument();
    expect(screen.getByText(/lecture seule/)).toBeInTheDocument();
  });

  it('offers no consolidated report to a person who sees one site', async () => {
    renderWithProviders(<ReportsRoute />);
    await screen.findByRole('article', { name: 'novembre 2026 · Boutique Opéra' });
    expect(screen.queryByRole('form', { name: 'Rapport consolidé' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Télécharger le PDF consolidé' })).not.toBeInTheDocument();
  });

  describe('for a chain', () => {
    beforeEach(() => {
      // Only the clock: the timers stay real for React Query and user-event.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date(2026, 11, 10, 12));
      sites = [site, other];
    });

    it('downloads a region’s month under the name the server proposes', async () => {
      const { createObjectURL, revokeObjectURL } = URL;
      URL.createObjectURL = () => 'blob:consolide';
      URL.revokeObjectURL = () => undefined;
      const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
      try {
        const user = userEvent.setup();
        const auth = fakeAuth();
        renderWithProviders(<ReportsRoute />, { auth: { ...auth, user: auth.user && { ...auth.user, role: 'viewer' } } });
        const form = await screen.findByRole('form', { name: 'Rapport consolidé' });
        const month = within(form).getByLabelText('Mois');
        // The current month and the twelve finished before it; the last finished one first chosen.
        expect(
          within(month)
            .getAllByRole('option')
            .map((option) => option.textContent),
        ).toEqual([
          'décembre 2026',
          'novembre 2026',
          'octobre 2026',
          'septembre 2026',
          'août 2026',
          'juillet 2026',
          'juin 2026',
          'mai 2026',
          'avril 2026',
          'mars 2026',
          'février 2026',
          'janvier 2026',
          'décembre 2025',
        ]);
        expect(month).toHaveDisplayValue('novembre 2026');
        const scope = within(form).getByLabelText('Périmètre');
        expect(scope).toHaveDisplayValue('Tous mes magasins');
        await within(scope).findByRole('option', { name: 'Île-de-France' });

        await user.selectOptions(month, 'octobre 2026');
        await user.selectOptions(scope, 'Île-de-France');
        await user.click(within(form).getByRole('button', { name: 'Télécharger le PDF consolidé' }));

        expect((await within(form).findByText(/Fichier téléchargé/)).textContent).toBe(
          'Fichier téléchargé\u202F: rapport-consolide_ile-de-france_2026-10.pdf',
        );
        expect(requests).toContain(`/api/reports/consolidated?month=2026-10&regionId=${region.id}`);
        expect(click).toHaveBeenCalledTimes(1);
      } finally {
        click.mockRestore();
        URL.createObjectURL = createObjectURL;
        URL.revokeObjectURL = revokeObjectURL;
      }
    });

    it('asks for every shop seen by default, and says what the server refused', async () => {
      consolidatedAnswer = () => jsonResponse(400, { message: 'Ce mois n’a pas encore commencé.' });
      const user = userEvent.setup();
      renderWithProviders(<ReportsRoute />);
      const form = await screen.findByRole('form', { name: 'Rapport consolidé' });
      await user.click(within(form).getByRole('button', { name: 'Télécharger le PDF consolidé' }));
      expect(await within(form).findByRole('alert')).toHaveTextContent('Ce mois n’a pas encore commencé.');
      expect(requests).toContain('/api/reports/consolidated?month=2026-11');
    });
  });
});
