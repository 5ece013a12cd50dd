import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toast';
import { setUnauthorizedHandler } from '@/lib/api-client';
import { fakeAuth, jsonResponse, renderWithProviders } from '@/testing/render';
import { DeviceDashboard } from './device-dashboard';

type Handler = (method: string, url: string, body: unknown) => Promise<Response> | Response;
let handler: Handler;
let requests: { method: string; url: string; body: unknown }[];

const device = (id: string, name: string) => ({ id, name, createdAt: '2024-05-01T10:00:00.000Z', updatedAt: '2024-05-01T10:00:00.000Z' });
const emitters = [device('e1', 'Passerelle Lyon'), device('e2', 'Passerelle Paris')];
const sensors = [device('s1', 'Vitrine froide')];

function defaultHandler(method: string, url: string): Response {
  if (method === 'GET' && url === '/api/emitter') return jsonResponse(200, { emitters });
  if (method === 'GET' && url === '/api/sensor') return jsonResponse(200, { sensors });
  return jsonResponse(404, { message: 'Introuvable' });
}

beforeEach(() => {
  requests = [];
  handler = defaultHandler;
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    requests.push({ method, url, body });
    return handler(method, url, body);
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderDashboard() {
  renderWithProviders(<DeviceDashboard />);
  return userEvent.setup();
}

const cards = () => screen.queryAllByTestId('device-card');

describe('DeviceDashboard', () => {
  it('shows 8 skeleton cards while loading, then the transmitters', async () => {
    renderDashboard();
    expect(screen.getAllByTestId('skeleton-card')).toHaveLength(8);
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(screen.queryByTestId('skeleton-card')).not.toBeInTheDocument();
    expect(within(cards()[0] as HTMLElement).getByText('Passerelle Lyon')).toBeInTheDocument();
    expect(within(cards()[0] as HTMLElement).getByText('Transmitter device')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Émetteurs (2)' })).toBeInTheDocument();
  });

  it('fetches both lists on open, with the bearer token', async () => {
    renderDashboard();
    await waitFor(() => expect(requests.map((request) => request.url).sort()).toEqual(['/api/emitter', '/api/sensor']));
    await screen.findByRole('tab', { name: /Capteurs\s*1/ });
  });

  it('switches tabs with clicks and arrow keys', async () => {
    const user = renderDashboard();
    const emitterTab = screen.getByRole('tab', { name: /Émetteurs/ });
    const sensorTab = screen.getByRole('tab', { name: /Capteurs/ });
    expect(emitterTab).toHaveAttribute('aria-selected', 'true');
    expect(sensorTab).toHaveAttribute('aria-selected', 'false');

    await user.click(sensorTab);
    expect(sensorTab).toHaveAttribute('aria-selected', 'true');
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(screen.getByText('Sensor device')).toBeInTheDocument();

    await user.keyboard('{ArrowRight}');
    expect(emitterTab).toHaveAttribute('aria-selected', 'true');
    expect(emitterTab).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(sensorTab).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel')).toHaveAttribute('aria-labelledby', sensorTab.id);
  });

  it("creates a 'New transmitter', reading 'Création...' meanwhile, and appends it", async () => {
    let release: () => void = () => undefined;
    handler = async (method, url) => {
      if (method === 'POST') {
        await new Promise<void>((resolve) => (release = resolve));
        return jsonResponse(201, { emitter: device('e3', 'New transmitter') });
      }
      return defaultHandler(method, url);
    };
    const user = renderDashboard();
    await waitFor(() => expect(cards()).toHaveLength(2));

    await user.click(screen.getByRole('button', { name: 'Ajouter un émetteur' }));
    expect(screen.getByRole('button', { name: 'Création...' })).toBeDisabled();
    expect(requests.at(-1)).toEqual({ method: 'POST', url: '/api/emitter', body: { name: 'New transmitter' } });

    release();
    await waitFor(() => expect(cards()).toHaveLength(3));
    expect(within(cards()[2] as HTMLElement).getByText('New transmitter')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Ajouter un émetteur' })).toBeEnabled();
  });

  it("creates a 'New sensor' on the sensors tab", async () => {
    handler = (method, url) =>
      method === 'POST' && url === '/api/sensor' ? jsonResponse(201, { sensor: device('s2', 'New sensor') }) : defaultHandler(method, url);
    const user = renderDashboard();
    await user.click(screen.getByRole('tab', { name: /Capteurs/ }));
    await user.click(screen.getByRole('button', { name: 'Ajouter un capteur' }));
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(requests.at(-1)).toEqual({ method: 'POST', url: '/api/sensor', body: { name: 'New sensor' } });
  });

  it('deletes one device at a time and removes it', async () => {
    let release: () => void = () => undefined;
    handler = async (method, url) => {
      if (method === 'DELETE') {
        await new Promise<void>((resolve) => (release = resolve));
        return new Response(null, { status: 204 });
      }
      return defaultHandler(method, url);
    };
    const user = renderDashboard();
    await waitFor(() => expect(cards()).toHaveLength(2));

    await user.click(screen.getByRole('button', { name: 'Supprimer Passerelle Lyon' }));
    expect(requests.at(-1)).toMatchObject({ method: 'DELETE', url: '/api/emitter/e1' });
    expect(screen.getByRole('button', { name: 'Supprimer Passerelle Lyon' })).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('button', { name: 'Supprimer Passerelle Lyon' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Supprimer Passerelle Paris' })).toBeDisabled();

    release();
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(screen.queryByText('Passerelle Lyon')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Supprimer Passerelle Paris' })).toBeEnabled();
  });

  it('shows the latest action error and clears it when the next action starts', async () => {
    let failDelete = true;
    handler = (method, url) => {
      if (method === 'POST') return jsonResponse(500, { message: 'Quota de capteurs atteint.' });
      if (method === 'DELETE')
        return failDelete ? jsonResponse(404, { message: 'Émetteur introuvable.' }) : new Response(null, { status: 204 });
      return defaultHandler(method, url);
    };
    const user = renderDashboard();
    await waitFor(() => expect(cards()).toHaveLength(2));

    await user.click(screen.getByRole('button', { name: 'Ajouter un émetteur' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Quota de capteurs atteint.');

    await user.click(screen.getByRole('button', { name: 'Supprimer Passerelle Lyon' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Émetteur introuvable.'));
    expect(cards()).toHaveLength(2);

    failDelete = false;
    await user.click(screen.getByRole('button', { name: 'Supprimer Passerelle Lyon' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await waitFor(() => expect(cards()).toHaveLength(1));
  });

  it("reports a silent network failure as 'Network error'", async () => {
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      if (method !== 'GET') throw new TypeError('');
      return defaultHandler(method, url);
    });
    const user = renderDashboard();
    await waitFor(() => expect(cards()).toHaveLength(2));
    await user.click(screen.getByRole('button', { name: 'Ajouter un émetteur' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Network error');
  });

  it("names a device without name 'Unnamed' and renders names as text", async () => {
    handler = (method, url) =>
      url === '/api/emitter'
        ? jsonResponse(200, { emitters: [device('e1', ''), device('e2', '<img src=x onerror=alert(1)>')] })
        : defaultHandler(method, url);
    renderDashboard();
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(screen.getByRole('button', { name: 'Supprimer Unnamed' })).toBeInTheDocument();
    expect(screen.getByText('<img src=x onerror=alert(1)>')).toBeInTheDocument();
    expect(document.querySelector('img')).toBeNull();
  });

  it('shows an empty state with an add action', async () => {
    handler = (method, url) =>
      url === '/api/emitter' && method === 'GET' ? jsonResponse(200, { emitters: [] }) : defaultHandler(method, url);
    renderDashboard();
    expect(await screen.findByRole('heading', { name: 'Aucun émetteur pour l’instant' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Ajouter votre premier émetteur' })).toBeEnabled();
  });

  it("shows a loading failure with the server's text and a retry", async () => {
    let fail = true;
    handler = (method, url) =>
      url === '/api/emitter' && fail ? jsonResponse(503, { message: 'Base de données indisponible.' }) : defaultHandler(method, url);
    const user = renderDashboard();
    expect(await screen.findByRole('alert')).toHaveTextContent('Base de données indisponible.');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Réessayer' }));
    await waitFor(() => expect(cards()).toHaveLength(2));
  });
});

describe('DeviceDashboard session', () => {
  it('reports an expired session when a list answers 401', async () => {
    handler = (method, url) =>
      url === '/api/sensor' ? jsonResponse(401, { message: 'Session expirée, reconnectez-vous.' }) : defaultHandler(method, url);
    const onSessionExpired = vi.fn();
    setUnauthorizedHandler(onSessionExpired);
    renderWithProviders(<DeviceDashboard />);
    await waitFor(() => expect(onSessionExpired).toHaveBeenCalled());
  });
});

describe('DeviceDashboard deletion that can be undone', () => {
  it('offers « Annuler » in a toast after a deletion and puts the device back', async () => {
    let sensorsNow = sensors;
    handler = (method, url) => {
      if (method === 'DELETE' && url === '/api/sensor/s1') {
        sensorsNow = [];
        return new Response(null, { status: 204 });
      }
      if (method === 'POST' && url === '/api/sensor/s1/restore') {
        sensorsNow = sensors;
        return jsonResponse(200, { sensor: sensors[0] });
      }
      if (method === 'GET' && url === '/api/sensor') return jsonResponse(200, { sensors: sensorsNow });
      return defaultHandler(method, url);
    };
    renderWithProviders(
      <>
        <DeviceDashboard />
        <Toaster />
      </>,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: /Capteurs/ }));
    await user.click(await screen.findByRole('button', { name: 'Supprimer Vitrine froide' }));
    await waitFor(() => expect(cards()).toHaveLength(0));

    const toast = await screen.findByText('Capteur supprimé');
    await user.click(within(toast.parentElement as HTMLElement).getByRole('button', { name: 'Annuler' }));
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(within(cards()[0] as HTMLElement).getByText('Vitrine froide')).toBeInTheDocument();
    expect(requests.some((request) => request.method === 'POST' && request.url === '/api/sensor/s1/restore')).toBe(true);
  });

  describe('for each role', () => {
    const asRole = (role: 'manager' | 'viewer') => {
      const auth = fakeAuth();
      return { ...auth, user: auth.user && { ...auth.user, role } };
    };

    it('offers a manager the add and delete buttons, as to an admin', async () => {
      renderWithProviders(<DeviceDashboard />, { auth: asRole('manager') });
      await waitFor(() => expect(cards()).toHaveLength(2));
      expect(screen.getByRole('button', { name: 'Ajouter un émetteur' })).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Supprimer Passerelle Lyon' })).toBeInTheDocument();
    });

    it('shows a viewer the devices with no add or delete button at all', async () => {
      const user = userEvent.setup();
      renderWithProviders(<DeviceDashboard />, { auth: asRole('viewer') });
      await waitFor(() => expect(cards()).toHaveLength(2));
      expect(within(cards()[0] as HTMLElement).getByRole('link', { name: 'Passerelle Lyon' })).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /Ajouter|Supprimer/ })).not.toBeInTheDocument();
      await user.click(screen.getByRole('tab', { name: /Capteurs/ }));
      expect(await screen.findByRole('link', { name: 'Vitrine froide' })).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /Ajouter|Supprimer/ })).not.toBeInTheDocument();
    });

    it('shows a viewer an empty list without asking them to add a device', async () => {
      handler = (method, url) => (url === '/api/emitter' ? jsonResponse(200, { emitters: [] }) : jsonResponse(200, { sensors: [] }));
      renderWithProviders(<DeviceDashboard />, { auth: asRole('viewer') });
      expect(await screen.findByText(/Un administrateur ou un responsable de votre organisation les ajoute/)).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /Ajouter/ })).not.toBeInTheDocument();
    });
  });
});
