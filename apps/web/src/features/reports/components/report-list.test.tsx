import type { Report, Site } from '@vigie/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeAuth, jsonResponse, renderWithProviders } from '@/testing/render';
import { reportFixture } from '../report-fixture';
import { ReportList } from './report-list';

const NNBSP = '\u202F';
const site: Site = {
  id: '7c1f6a2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b',
  name: 'Boutique Opéra',
  timezone: 'Europe/Paris',
  openingHours: { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] },
  regionId: null,
};
const me = fakeAuth().user;

let reports: Report[];
let requests: { method: string; url: string; body: unknown }[];
let signAnswer: (() => Response) | null;

beforeEach(() => {
  requests = [];
  signAnswer = null;
  reports = [reportFixture()];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    requests.push({ method, url, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
    if (method === 'GET' && url.endsWith('/pdf')) {
      return new Response('%PDF-1.7', { headers: { 'Content-Disposition': 'attachment; filename="rapport-haccp-2026-11.pdf"' } });
    }
    if (method === 'GET' && url.startsWith('/api/reports')) return jsonResponse(200, { reports });
    const signed = /^\/api\/reports\/([^/]+)\/sign$/.exec(url);
    if (method === 'POST' && signed) {
      if (signAnswer) return signAnswer();
      const comment = (JSON.parse(String(init?.body)) as { comment?: string }).comment ?? null;
      reports = reports.map((report) =>
        report.id === signed[1]
          ? {
              ...report,
              signedBy: me?.id ?? null,
              signedByName: 'Camille Martin',
              signedAt: '2026-12-02T14:00:00.000Z',
              signComment: comment,
            }
          : report,
      );
      return jsonResponse(200, { report: reports.find((report) => report.id === signed[1]) });
    }
    return jsonResponse(404, { message: 'Introuvable' });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function Harness({ canManage = true }: { canManage?: boolean }) {
  const [siteId, setSiteId] = useState<string | null>(null);
  return (
    <ReportList
      sites={[site]}
      siteId={siteId}
      onSiteChange={setSiteId}
      canManage={canManage}
      who={(id) => (id === me?.id ? 'Camille Martin' : null)}
    />
  );
}

describe('ReportList', () => {
  it('shows a skeleton while the reports load, then each report with its preview', async () => {
    renderWithProviders(<Harness />);
    expect(screen.getByRole('status', { name: '' })).toHaveTextContent('Chargement des rapports…');

    const report = await screen.findByRole('article', { name: 'novembre 2026 · Boutique Opéra' });
    expect(within(report).getByText('Non signé')).toBeInTheDocument();
    expect(report).toHaveTextContent('Établi automatiquement le 01/12/2026 à 3 h');
    expect(report).toHaveTextContent('période du 01/11/2026 à 0 h au 01/12/2026 à 0 h');
    expect(within(report).getByText('3f2a1b0c…9d8e4f7a')).toHaveAttribute('title', reportFixture().sha256);
    expect(within(report).getByRole('button', { name: 'Copier l’empreinte' })).toBeInTheDocument();

    const units = within(report).getAllByTestId('report-unit');
    expect(units).toHaveLength(2);
    expect(units[0]).toHaveTextContent('Vitrine crèmerie');
    expect(units[0]?.textContent).toContain(`99,2${NNBSP}%`);
    expect(units[0]?.textContent).toContain(`Limites\u00A0: ≤ +4,0${NNBSP}°C`);
    expect(units[0]?.textContent).toContain(`2 excursions · 2${NNBSP}h${NNBSP}05${NNBSP}min+ 3 hausses brèves tolérées · 14${NNBSP}min`);
    expect(units[0]?.textContent).toContain(`Sans données3${NNBSP}h${NNBSP}12${NNBSP}min`);
    expect(units[1]?.textContent).toContain(`100,0${NNBSP}%`);
    expect(units[1]).toHaveTextContent('ExcursionsAucune');
    expect(screen.getByText('1 rapport · 1 non signé')).toBeInTheDocument();
  });

  it('keeps every version of a month, the older ones labelled with their date and signature', async () => {
    reports = [
      reportFixture({
        id: 'b1b2c3d4-0000-4000-8000-000000000002',
        automatic: false,
        createdBy: me?.id ?? null,
        createdAt: '2026-12-03T09:30:00.000Z',
      }),
      reportFixture({ signedBy: null, signedByName: 'Luc Bernard', signedAt: '2026-12-02T08:00:00.000Z', signComment: 'Vu, RAS.' }),
    ];
    renderWithProviders(<Harness />);
    const [latest, older] = await screen.findAllByTestId('report');
    if (!latest || !older) throw new Error('Two versions expected.');
    expect(latest).toHaveTextContent('Établi le 03/12/2026 à 10 h 30 par Camille Martin');
    expect(latest).toHaveTextContent('Non signé');
    expect(older).toHaveAccessibleName('novembre 2026 · Boutique Opéra, version du 01/12/2026 à 3\u202Fh');
    expect(older).toHaveTextContent('Version du 01/12/2026 à 3 h');
    expect(older).toHaveTextContent('Signé par Luc Bernard le 02/12/2026 à 9 h');
    expect(older).toHaveTextContent('« Vu, RAS. »');
    expect(within(older).queryByRole('button', { name: 'Signer' })).not.toBeInTheDocument();
    expect(screen.getByText(/novembre 2026 · Boutique Opéra\s: 2 versions/)).toBeInTheDocument();
  });

  it('signs a report with a comment and shows who signed, with the focus on it', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness />);
    const report = await screen.findByRole('article', { name: 'novembre 2026 · Boutique Opéra' });
    const signButton = within(report).getByRole('button', { name: 'Signer' });
    expect(signButton).toHaveAttribute('aria-expanded', 'false');
    await user.click(signButton);
    expect(signButton).toHaveAttribute('aria-expanded', 'true');

    const comment = within(report).getByLabelText('Commentaire (facultatif)');
    expect(comment).toHaveFocus();
    await user.type(comment, '  Relevés vérifiés.  ');
    await user.click(within(report).getByRole('button', { name: 'Signer le rapport' }));

    await waitFor(() => expect(report).toHaveTextContent('Signé par Camille Martin le 02/12/2026 à 15 h'));
    expect(report).toHaveTextContent('« Relevés vérifiés. »');
    expect(within(report).queryByRole('button', { name: 'Signer' })).not.toBeInTheDocument();
    expect(within(report).queryByLabelText('Commentaire (facultatif)')).not.toBeInTheDocument();
    await waitFor(() => expect(within(report).getByText(/Signé par Camille Martin/).parentElement).toHaveFocus());
    expect(requests).toContainEqual({
      method: 'POST',
      url: `/api/reports/${reportFixture().id}/sign`,
      body: { comment: 'Relevés vérifiés.' },
    });
  });

  it('signs without a comment, and says why when the server refuses', async () => {
    const user = userEvent.setup();
    signAnswer = () => jsonResponse(409, { message: 'Ce rapport est déjà signé.' });
    renderWithProviders(<Harness />);
    const report = await screen.findByRole('article', { name: 'novembre 2026 · Boutique Opéra' });
    await user.click(within(report).getByRole('button', { name: 'Signer' }));
    await user.click(within(report).getByRole('button', { name: 'Signer le rapport' }));
    expect(await within(report).findByRole('alert')).toHaveTextContent('Ce rapport est déjà signé.');
    expect(requests).toContainEqual({ method: 'POST', url: `/api/reports/${reportFixture().id}/sign`, body: {} });

    // « Annuler » closes the form and gives the focus back to « Signer ».
    await user.click(within(report).getByRole('button', { name: 'Annuler' }));
    await waitFor(() => expect(within(report).getByRole('button', { name: 'Signer' })).toHaveFocus());
  });

  it('downloads the PDF under the name the server proposes', async () => {
    const { createObjectURL, revokeObjectURL } = URL;
    URL.createObjectURL = () => 'blob:rapport';
    URL.revokeObjectURL = () => undefined;
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    try {
      renderWithProviders(<Harness />);
      const report = await screen.findByRole('article', { name: 'novembre 2026 · Boutique Opéra' });
      await userEvent.setup().click(within(report).getByRole('button', { name: 'Télécharger le PDF' }));
      expect((await within(report).findByText(/Fichier téléchargé/)).textContent).toBe(
        'Fichier téléchargé\u202F: rapport-haccp-2026-11.pdf',
      );
      expect(click).toHaveBeenCalledTimes(1);
      expect(requests.map((request) => request.url)).toContain(`/api/reports/${reportFixture().id}/pdf`);
    } finally {
      click.mockRestore();
      URL.createObjectURL = createObjectURL;
      URL.revokeObjectURL = revokeObjectURL;
    }
  });

  it('offers no « Signer » to a viewer, but the files still', async () => {
    renderWithProviders(<Harness canManage={false} />);
    const report = await screen.findByRole('article', { name: 'novembre 2026 · Boutique Opéra' });
    expect(within(report).queryByRole('button', { name: 'Signer' })).not.toBeInTheDocument();
    expect(within(report).getByRole('button', { name: 'Télécharger le PDF' })).toBeEnabled();
    expect(within(report).getByRole('button', { name: 'Télécharger le CSV' })).toBeEnabled();
  });

  it('reads one site’s reports when a site is chosen', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness />);
    await screen.findByRole('article');
    await user.selectOptions(screen.getByLabelText('Site affiché'), 'Boutique Opéra');
    await waitFor(() => expect(requests.map((request) => request.url)).toContain(`/api/reports?siteId=${site.id}`));
    expect(requests[0]?.url).toBe('/api/reports');
  });

  it('says a unit without limits has no compliance figure, rather than « — conforme »', async () => {
    const base = reportFixture();
    const [unit] = base.summary.units;
    if (!unit) throw new Error('fixture without a unit');
    reports = [
      {
        ...base,
        summary: { ...base.summary, units: [{ ...unit, name: 'Surface de vente', min: null, max: null, compliancePercent: null }] },
      },
    ];
    renderWithProviders(<Harness />);
    const [row] = await screen.findAllByTestId('report-unit');
    expect(row).toHaveTextContent('Sans limite, pas de taux de conformité');
    expect(row).not.toHaveTextContent('conforme—');
    expect(row?.textContent).not.toMatch(/—\s*conforme/);
  });

  it('says when there is no report yet', async () => {
    reports = [];
    renderWithProviders(<Harness />);
    const text = 'Aucun rapport pour l’instant. Le rapport du mois précédent est établi automatiquement le 1er de chaque mois.';
    expect(await screen.findByText((_, element) => element?.tagName === 'P' && element.textContent === text)).toBeInTheDocument();
  });

  it('shows the server’s message when the list cannot be read, and tries again', async () => {
    let failing = true;
    vi.stubGlobal('fetch', async () =>
      failing ? jsonResponse(503, { message: 'Base de données indisponible.' }) : jsonResponse(200, { reports: [] }),
    );
    const user = userEvent.setup();
    renderWithProviders(<Harness />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Base de données indisponible.');
    failing = false;
    await user.click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findByText(/Aucun rapport pour l’instant/)).toBeInTheDocument();
  });
});
