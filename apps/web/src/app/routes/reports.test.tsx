import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeAuth, jsonResponse, renderWithProviders } from '@/testing/render';
import { reportFixture } from '@/features/reports/report-fixture';
import ReportsRoute from './reports';

const site = {
  id: reportFixture().siteId,
  name: 'Boutique Opéra',
  timezone: 'Europe/Paris',
  openingHours: { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] },
};

beforeEach(() => {
  vi.stubGlobal('fetch', async (url: string) => {
    if (url === '/api/sites') return jsonResponse(200, { sites: [site] });
    if (url.startsWith('/api/reports')) return jsonResponse(200, { reports: [reportFixture()] });
    return jsonResponse(404, { message: 'Introuvable' });
  });
});

afterEach(() => {
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
});
