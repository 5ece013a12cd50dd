import type { Site } from '@vigie/contract';
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { reportFixture } from '../report-fixture';
import { GenerateReportForm } from './generate-report-form';

const hours = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
const sites: Site[] = [
  { id: '7c1f6a2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b', name: 'Boutique Opéra', timezone: 'Europe/Paris', openingHours: hours, regionId: null },
  { id: '8d2a7b3f-4c5e-4f6a-9b0c-1d2e3f4a5b6c', name: 'Atelier Bastille', timezone: 'Europe/Paris', openingHours: hours, regionId: null },
];

let requests: { method: string; url: string; body: unknown }[];
let answer: () => Response;

beforeEach(() => {
  // Only the clock is frozen (18 November 2026): promises and timers run as usual.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2026, 10, 18, 15, 0));
  requests = [];
  answer = () =>
    jsonResponse(201, {
      report: reportFixture({
        siteId: sites[1]?.id,
        automatic: false,
        summary: { ...reportFixture().summary, siteName: 'Atelier Bastille' },
      }),
    });
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    requests.push({ method: init?.method ?? 'GET', url, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
    return answer();
  });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('GenerateReportForm', () => {
  it('makes the current month’s report of the chosen site and says so', async () => {
    const user = userEvent.setup();
    renderWithProviders(<GenerateReportForm sites={sites} defaultSiteId={null} />);
    expect(screen.getByRole('form', { name: 'Générer un rapport' })).toBeInTheDocument();
    expect(screen.getByLabelText('Site du rapport')).toHaveValue(sites[0]?.id);
    const month = screen.getByLabelText('Mois');
    expect(month).toHaveAttribute('type', 'month');
    expect(month).toHaveValue('2026-11');
    expect(month).toHaveAttribute('max', '2026-11');

    await user.selectOptions(screen.getByLabelText('Site du rapport'), 'Atelier Bastille');
    await user.click(screen.getByRole('button', { name: 'Générer le rapport' }));
    expect(await screen.findByText('Rapport de novembre 2026 établi pour Atelier Bastille.')).toHaveAttribute('role', 'status');
    expect(requests).toEqual([{ method: 'POST', url: '/api/reports', body: { siteId: sites[1]?.id, month: '2026-11' } }]);
  });

  it('starts on the site the page shows', () => {
    renderWithProviders(<GenerateReportForm sites={sites} defaultSiteId={sites[1]?.id ?? null} />);
    expect(screen.getByLabelText('Site du rapport')).toHaveValue(sites[1]?.id);
  });

  it('refuses a month that has not started, before asking the server', async () => {
    const user = userEvent.setup();
    renderWithProviders(<GenerateReportForm sites={sites} defaultSiteId={null} />);
    fireEvent.change(screen.getByLabelText('Mois'), { target: { value: '2026-12' } });
    await user.click(screen.getByRole('button', { name: 'Générer le rapport' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Ce mois n’a pas encore commencé : choisissez le mois en cours ou un mois passé.');
    expect(screen.getByLabelText('Mois')).toHaveAttribute('aria-invalid', 'true');
    expect(requests).toEqual([]);
  });

  it('shows the server’s refusal in French', async () => {
    const user = userEvent.setup();
    answer = () => jsonResponse(403, { message: 'Seuls les administrateurs et les responsables peuvent générer un rapport.' });
    renderWithProviders(<GenerateReportForm sites={sites} defaultSiteId={null} />);
    await user.click(screen.getByRole('button', { name: 'Générer le rapport' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Seuls les administrateurs et les responsables peuvent générer un rapport.');
  });
});
