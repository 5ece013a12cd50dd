import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toast';
import { fakeAuth, jsonResponse, renderWithProviders } from '@/testing/render';
import { PauseControl } from './pause-control';

const NNBSP = '\u202F';
const site = { id: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d' };
const sensorOfSite = '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f';
type Call = { url: string; method: string; body: unknown };
let calls: Call[];
let pauses: object[];

const pauseOf = (target: { sensorId: string | null; siteId: string }, reason: string, untilMs: number) => ({
  id: '0f1a2b3c-4d5e-4f6a-8b7c-8d9e0f1a2b3c',
  ...target,
  reason,
  from: new Date().toISOString(),
  until: new Date(untilMs).toISOString(),
  createdBy: null,
});

beforeEach(() => {
  calls = [];
  pauses = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const call = { url, method: init?.method ?? 'GET', body: init?.body ? (JSON.parse(String(init.body)) as unknown) : undefined };
    calls.push(call);
    if (url === '/api/pauses' && call.method === 'GET') return jsonResponse(200, { pauses });
    if (url === '/api/pauses' && call.method === 'POST') {
      const body = call.body as { siteId: string; reason: string; minutes: number };
      const pause = pauseOf({ sensorId: null, siteId: body.siteId }, body.reason, Date.now() + body.minutes * 60_000);
      pauses = [pause];
      return jsonResponse(201, { pause });
    }
    if (url.startsWith('/api/pauses/') && call.method === 'DELETE') {
      pauses = [];
      return new Response(null, { status: 204 });
    }
    return jsonResponse(404, { message: 'Introuvable' });
  });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function renderAs(role: 'admin' | 'manager' | 'viewer') {
  const auth = fakeAuth();
  return renderWithProviders(
    <>
      <PauseControl site={site} timeZone="Europe/Paris" headingLevel={3} />
      <Toaster />
    </>,
    { auth: { ...auth, user: auth.user && { ...auth.user, role } } },
  );
}

describe('PauseControl for a whole shop', () => {
  it('pauses the shop with a reason and a length, says until when on its clock, and resumes it', async () => {
    const user = userEvent.setup();
    renderAs('manager');
    await user.click(await screen.findByRole('button', { name: 'Mettre en pause le magasin' }));
    const form = screen.getByRole('form', { name: 'Mettre en pause le magasin' });
    expect(screen.getByRole('heading', { level: 3, name: 'Mettre en pause le magasin' })).toBeInTheDocument();
    expect(form.querySelector('p')?.textContent).toBe(
      `Pour un inventaire, un nettoyage ou des travaux dans tout le magasin${NNBSP}: les alertes de tous ses capteurs s’ouvrent toujours, leurs notifications attendent la fin de la pause (24${NNBSP}h au plus, renouvelable).`,
    );
    // The field replaces the button: the focus goes on to it.
    expect(screen.getByLabelText('Raison')).toHaveFocus();
    await user.type(screen.getByLabelText('Raison'), 'Inventaire');
    await user.selectOptions(screen.getByLabelText('Durée'), `4${NNBSP}h`);
    await user.click(screen.getByRole('button', { name: 'Mettre en pause le magasin' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ siteId: site.id, reason: 'Inventaire', minutes: 240 });

    const banner = await screen.findByTestId('pause');
    const heading = screen.getByRole('heading', { level: 3 });
    expect(heading.textContent).toMatch(
      new RegExp(`^Magasin en pause jusqu’à (demain )?\\d{1,2}${NNBSP}h(${NNBSP}\\d{2})?${NNBSP}: Inventaire$`),
    );
    expect(banner).toContainElement(heading);
    await user.click(screen.getByRole('button', { name: 'Reprendre' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE')).toBe(true));
    expect(calls.find((call) => call.method === 'DELETE')?.url).toMatch(/^\/api\/pauses\/[0-9a-f-]{36}$/);
    expect(await screen.findByRole('button', { name: 'Mettre en pause le magasin' })).toBeInTheDocument();
  });

  it('says « demain » when the pause ends after midnight on the shop’s clock', async () => {
    // 22:00 in Paris (UTC+2 in June): a pause of 4 hours ends at 02:00 the next day.
    vi.useFakeTimers({ now: new Date('2025-06-12T20:00:00Z'), toFake: ['Date'] });
    pauses = [pauseOf({ sensorId: null, siteId: site.id }, 'Travaux', Date.parse('2025-06-13T00:30:00Z'))];
    renderAs('viewer');
    expect(await screen.findByTestId('pause')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 3 }).textContent).toBe(
      `Magasin en pause jusqu’à demain 2${NNBSP}h${NNBSP}30${NNBSP}: Travaux`,
    );
    // A viewer sees the pause and may change nothing.
    expect(screen.queryByRole('button', { name: /Reprendre|Mettre en pause/ })).not.toBeInTheDocument();
  });

  it('is not held by the pause of one of its sensors', async () => {
    pauses = [pauseOf({ sensorId: sensorOfSite, siteId: site.id }, 'Nettoyage', Date.now() + 3_600_000)];
    renderAs('admin');
    expect(await screen.findByRole('button', { name: 'Mettre en pause le magasin' })).toBeInTheDocument();
    expect(screen.queryByTestId('pause')).toBeNull();
  });

  it('says in French why the server refused the pause', async () => {
    const user = userEvent.setup();
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      if (init?.method === 'POST')
        return jsonResponse(400, { message: 'La raison de la pause est obligatoire (nettoyage, réassort, dégivrage prévu…).' });
      return url === '/api/pauses' ? jsonResponse(200, { pauses: [] }) : jsonResponse(404, { message: 'Introuvable' });
    });
    renderAs('admin');
    await user.click(await screen.findByRole('button', { name: 'Mettre en pause le magasin' }));
    await user.click(screen.getByRole('button', { name: 'Mettre en pause le magasin' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'La raison de la pause est obligatoire (nettoyage, réassort, dégivrage prévu…).',
    );
  });
});
