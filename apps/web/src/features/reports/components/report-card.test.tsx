import type { Site } from '@vigie/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { reportFixture } from '../report-fixture';
import { ReportList } from './report-list';

const site: Site = {
  id: '7c1f6a2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b',
  name: 'Boutique Opéra',
  timezone: 'Europe/Paris',
  openingHours: { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] },
  regionId: null,
};
const signed = reportFixture({
  signedBy: null,
  signedByName: 'Luc Bernard',
  signedAt: '2026-12-02T08:00:00.000Z',
  signComment: 'Vu, RAS.',
  signedSha256: 'b'.repeat(64),
});

let urls: string[];

beforeEach(() => {
  urls = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    urls.push(url);
    if ((init?.method ?? 'GET') === 'GET' && /\/(signed\.)?pdf$/.test(url)) {
      const name = url.endsWith('signed.pdf') ? 'rapport-haccp-2026-11-signe.pdf' : 'rapport-haccp-2026-11.pdf';
      return new Response('%PDF-1.7', { headers: { 'Content-Disposition': `attachment; filename="${name}"` } });
    }
    if (url.startsWith('/api/reports')) return jsonResponse(200, { reports: [signed] });
    return jsonResponse(404, { message: 'Introuvable' });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a signed report’s files', () => {
  it('offers the signed copy first, and names the other « original, avant signature »', async () => {
    const { createObjectURL, revokeObjectURL } = URL;
    URL.createObjectURL = () => 'blob:rapport';
    URL.revokeObjectURL = () => undefined;
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    try {
      renderWithProviders(<ReportList sites={[site]} siteId={null} onSiteChange={() => undefined} canManage who={() => null} />);
      const report = await screen.findByRole('article', { name: 'novembre 2026 · Boutique Opéra' });
      const buttons = within(report)
        .getAllByRole('button')
        .map((button) => button.textContent)
        .filter((name) => name?.startsWith('Télécharger'));
      expect(buttons).toEqual(['Télécharger le PDF signé', 'Télécharger l’original, avant signature', 'Télécharger le CSV']);
      expect(within(report).queryByRole('button', { name: 'Télécharger le PDF' })).not.toBeInTheDocument();

      await userEvent.setup().click(within(report).getByRole('button', { name: 'Télécharger le PDF signé' }));
      expect(await within(report).findByText(/Fichier téléchargé/)).toHaveTextContent('rapport-haccp-2026-11-signe.pdf');
      expect(urls).toContain(`/api/reports/${signed.id}/signed.pdf`);
    } finally {
      click.mockRestore();
      URL.createObjectURL = createObjectURL;
      URL.revokeObjectURL = revokeObjectURL;
    }
  });

  it('offers a report not yet signed as « Télécharger le PDF »', async () => {
    vi.stubGlobal('fetch', async () => jsonResponse(200, { reports: [reportFixture()] }));
    renderWithProviders(<ReportList sites={[site]} siteId={null} onSiteChange={() => undefined} canManage who={() => null} />);
    const report = await screen.findByRole('article', { name: 'novembre 2026 · Boutique Opéra' });
    expect(within(report).getByRole('button', { name: 'Télécharger le PDF' })).toBeEnabled();
    expect(within(report).queryByRole('button', { name: /signé|original/ })).not.toBeInTheDocument();
  });
});
