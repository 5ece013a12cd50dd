import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toast';
import { fakeAuth, jsonResponse, renderWithProviders } from '@/testing/render';
import { PauseControl } from './pause-control';

const sensor = { id: '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f', siteId: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d' };
type Call = { url: string; method: string; body: unknown };
let calls: Call[];
let pauses: object[];

beforeEach(() => {
  calls = [];
  pauses = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const call = { url, method: init?.method ?? 'GET', body: init?.body ? (JSON.parse(String(init.body)) as unknown) : undefined };
    calls.push(call);
    if (url === '/api/pauses' && call.method === 'GET') return jsonResponse(200, { pauses });
    if (url === '/api/pauses' && call.method === 'POST') {
      const body = call.body as { reason: string; minutes: number };
      const from = Date.now();
      const pause = {
        id: '0f1a2b3c-4d5e-4f6a-8b7c-8d9e0f1a2b3c',
        sensorId: sensor.id,
        siteId: sensor.siteId,
        reason: body.reason,
        from: new Date(from).toISOString(),
        until: new Date(from + body.minutes * 60_000).toISOString(),
        createdBy: null,
      };
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
  vi.unstubAllGlobals();
});

function renderAs(role: 'admin' | 'manager' | 'viewer') {
  const auth = fakeAuth();
  return renderWithProviders(
    <>
      <PauseControl sensor={sensor} timeZone="Europe/Paris" />
      <Toaster />
    </>,
    { auth: { ...auth, user: auth.user && { ...auth.user, role } } },
  );
}

describe('PauseControl', () => {
  it('pauses a sensor with a reason and a length, shows until when, and resumes it', async () => {
    const user = userEvent.setup();
    renderAs('manager');
    await user.click(await screen.findByRole('button', { name: 'Mettre en pause' }));
    const form = screen.getByRole('form', { name: 'Mettre en pause' });
    expect(form).toHaveTextContent('les alertes s’ouvrent toujours, leurs notifications attendent la fin de la pause');
    await user.type(screen.getByLabelText('Raison'), 'Nettoyage du meuble');
    await user.selectOptions(screen.getByLabelText('Durée'), '2\u202Fh');
    await user.click(screen.getAllByRole('button', { name: 'Mettre en pause' }).at(-1) as HTMLElement);
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      sensorId: sensor.id,
      reason: 'Nettoyage du meuble',
      minutes: 120,
    });

    const banner = await screen.findByTestId('pause');
    expect(banner).toHaveTextContent(/^Capteur en pause jusqu’à (demain )?\d{1,2} h( \d{2})? : Nettoyage du meuble/);
    expect(banner).toHaveTextContent('Les alertes s’ouvrent toujours ; leurs notifications attendent la fin de la pause.');
    await user.click(screen.getByRole('button', { name: 'Reprendre maintenant' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE')).toBe(true));
    expect(await screen.findByRole('button', { name: 'Mettre en pause' })).toBeInTheDocument();
  });

  it('shows a viewer the pause of the sensor’s shop, with nothing to change', async () => {
    pauses = [
      {
        id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
        sensorId: null,
        siteId: sensor.siteId,
        reason: 'Inventaire',
        from: new Date().toISOString(),
        until: new Date(Date.now() + 3_600_000).toISOString(),
        createdBy: null,
      },
    ];
    renderAs('viewer');
    expect(await screen.findByTestId('pause')).toHaveTextContent(/^Magasin en pause jusqu’à .+ : Inventaire/);
    expect(screen.queryByRole('button', { name: /Reprendre|Mettre en pause/ })).not.toBeInTheDocument();
  });
});
