import { screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { ReadingsChart } from './readings-chart';

// The canvas is not what is read here: the chart's text under it is.
vi.mock('./uplot-chart', () => ({ default: () => null }));

afterEach(() => vi.unstubAllGlobals());

const plain = (text: string | null) => (text ?? '').replace(/[\u202F\u00A0]/g, ' ');

it('says « sur 1 mesure » for a new sensor’s one reading, « sur 2 mesures » after', async () => {
  let count = 1;
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      disconnect() {}
    },
  );
  vi.stubGlobal('fetch', async () => {
    const ts = new Date(Date.now() - 60_000).toISOString();
    return jsonResponse(200, {
      key: 'temperature',
      keys: ['temperature'],
      from: new Date(Date.now() - 86_400_000).toISOString(),
      to: new Date().toISOString(),
      readings: [{ ts, min: 3.1, avg: 3.1, max: 3.1, count }],
    });
  });
  const { unmount } = renderWithProviders(
    <ReadingsChart kind="sensor" deviceId="5d1c3f8e-2b4a-4c6d-9e8f-7a6b5c4d3e2f" keys={['temperature']} />,
  );
  expect(plain((await screen.findByText(/sur 1 mesure\b/)).textContent)).toContain('Température de 3,1 °C à 3,1 °C sur 1 mesure.');
  unmount();
  count = 2;
  renderWithProviders(<ReadingsChart kind="sensor" deviceId="5d1c3f8e-2b4a-4c6d-9e8f-7a6b5c4d3e2f" keys={['temperature']} />);
  expect(await screen.findByText(/sur 2 mesures\./)).toBeInTheDocument();
});
