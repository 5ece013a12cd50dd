import { screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import type { Device } from '../device-kinds';
import { DeviceDetail } from './device-detail';

// The canvas is not what is read here: the page's order is.
vi.mock('./uplot-chart', () => ({ default: () => null }));

afterEach(() => vi.unstubAllGlobals());

it('shows the pause at the top of a sensor’s page, right under its name, before its state and history', async () => {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      disconnect() {}
    },
  );
  vi.stubGlobal('fetch', async () =>
    jsonResponse(200, { key: null, keys: [], from: new Date().toISOString(), to: new Date().toISOString(), readings: [] }),
  );
  const ts = new Date().toISOString();
  const device = {
    id: '5d1c3f8e-2b4a-4c6d-9e8f-7a6b5c4d3e2f',
    name: 'Vitrine crèmerie',
    serial: 'VIG-00001',
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: ts,
    status: 'online',
    lastSeenAt: ts,
    inactivityTimeoutSeconds: 600,
    battery: 90,
    latest: { temperature: { value: 3.2, ts } },
  } as unknown as Device;
  renderWithProviders(<DeviceDetail kind="sensor" device={device} underHeader={<p data-testid="pause">Pause en cours</p>} />);
  const name = screen.getByRole('heading', { level: 1, name: 'Vitrine crèmerie' });
  const pause = screen.getByTestId('pause');
  const state = screen.getByRole('heading', { name: 'État' });
  const history = await screen.findByRole('heading', { name: 'Historique' });
  expect(name.compareDocumentPosition(pause) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  expect(pause.compareDocumentPosition(state) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  expect(pause.compareDocumentPosition(history) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
});
