import type { Alert, Site } from '@vigie/contract';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { AlertDetail } from './alert-detail';
import { AlertList } from './alert-list';
import { SensorAlerts } from './sensor-alerts';

const plain = (text: string | null) => (text ?? '').replace(/[\u202F\u00A0]/g, ' ');
// 13:10 UTC is 14 h 10 in Paris in November.
const NOW = Date.parse('2026-11-23T12:40:00.000Z');
const SENSOR = '5d1c3f8e-2b4a-4c6d-9e8f-7a6b5c4d3e2f';
const SITE = '7c1f6a2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b';
const reading = { value: 7.1, ts: '2026-11-23T12:39:00.000Z' };

const site: Site = {
  id: SITE,
  name: 'Lyon Part-Dieu',
  timezone: 'Europe/Paris',
} as Site;

function alert(overrides: Partial<Alert> = {}): Alert {
  return {
    id: '0b9f2c4e-6d8a-4b1c-9e3f-5a7b9c1d3e5f',
    ruleId: 'a1a1a1a1-1111-4111-8111-111111111111',
    sensorId: SENSOR,
    siteId: SITE,
    status: 'open',
    severity: 'warning',
    key: 'temperature',
    openedAt: '2026-11-23T12:30:00.000Z',
    acknowledgedAt: null,
    acknowledgedBy: null,
    resolvedAt: null,
    resolution: null,
    // The forecast's worst value: what the screens used to show as if measured.
    peak: 9.3,
    last: 9.3,
    forecast: { direction: 'above', threshold: 8, eta: '2026-11-23T13:10:00.000Z' },
    events: [{ type: 'opened', at: '2026-11-23T12:30:00.000Z' }],
    ...overrides,
  };
}

let alerts: Alert[];

/** The element at `index`, or a failure that says it is missing. */
function nth(elements: HTMLElement[], index: number): HTMLElement {
  const element = elements[index];
  if (!element) throw new Error(`No element at ${index}`);
  return element;
}

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
  alerts = [];
  vi.stubGlobal('fetch', async (url: string) => {
    if (url.startsWith('/api/alerts')) return jsonResponse(200, { alerts });
    return jsonResponse(404, { message: 'Introuvable' });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('a « dépassement prévu » alert on the screens', () => {
  it('lists the reading as the value and the forecast labelled, never the forecast as the value', async () => {
    alerts = [
      alert(),
      alert({ id: '1c0a3d5f-7e9b-4c2d-8f4a-6b8c0d2e4f6a', forecast: undefined, severity: 'critical', last: 12.5, peak: 12.5 }),
    ];
    renderWithProviders(<AlertList sites={[site]} sensorName={() => 'Vitrine crèmerie'} readingOf={() => reading} />);
    const items = await screen.findAllByTestId('alert-item');
    const [forecast, measured] = [nth(items, 0), nth(items, 1)];
    expect(within(forecast).getByText('Dépassement prévu')).toBeInTheDocument();
    expect(plain(within(forecast).getByTestId('alert-value').textContent)).toBe('7,1 °C');
    expect(within(forecast).getByTestId('alert-value')).not.toHaveClass('text-red-200');
    expect(plain(within(forecast).getByTestId('forecast-label').textContent)).toBe('prévu : +8 °C vers 14 h 10');
    expect(plain(forecast.textContent)).toContain('7,1 °C mesurés · prévu : +8 °C vers 14 h 10 · depuis 10 min');
    expect(forecast.textContent).not.toContain('9,3');
    // A measured breach is as it was: its value in red, no forecast.
    expect(plain(within(measured).getByTestId('alert-value').textContent)).toBe('12,5 °C');
    expect(within(measured).getByTestId('alert-value')).toHaveClass('text-red-200');
    expect(within(measured).queryByTestId('forecast-label')).not.toBeInTheDocument();
    expect(within(measured).queryByText('Dépassement prévu')).not.toBeInTheDocument();
  });

  it('shows the reading in large type on its page, the forecast apart and named', () => {
    renderWithProviders(
      <AlertDetail
        alert={alert()}
        rule={undefined}
        sensorName="Vitrine crèmerie"
        siteName="Lyon Part-Dieu"
        who={() => null}
        reading={reading}
        timeZone="Europe/Paris"
      />,
    );
    const value = screen.getByTestId('alert-value');
    expect(plain(value.textContent)).toBe('7,1 °C mesurés');
    expect(value).not.toHaveClass('text-red-300');
    expect(plain(screen.getByTestId('forecast-label').textContent)).toBe('prévu : +8 °C vers 14 h 10');
    expect(screen.getByText('une prévision, pas une mesure')).toBeInTheDocument();
    const facts = plain(screen.getByRole('heading', { level: 1 }).parentElement?.textContent ?? '');
    expect(facts).toContain('Mesuré :7,1 °C à 13 h 39');
    expect(facts).toContain('Prévu :+8 °C vers 14 h 10');
    expect(facts).toContain('Prévision au plus haut :9,3 °C');
    expect(facts).not.toContain('Valeur');
  });

  it('turns the value red only when the reading itself is past the limit; no reading, no value', () => {
    const { unmount } = renderWithProviders(
      <AlertDetail
        alert={alert()}
        rule={undefined}
        sensorName="Vitrine"
        siteName={null}
        who={() => null}
        reading={{ ...reading, value: 8.4 }}
      />,
    );
    expect(screen.getByTestId('alert-value')).toHaveClass('text-red-300');
    unmount();
    renderWithProviders(<AlertDetail alert={alert()} rule={undefined} sensorName="Vitrine" siteName={null} who={() => null} />);
    expect(plain(screen.getByTestId('alert-value').textContent)).toBe('— aucune mesure connue');
  });

  it('lists it on its sensor’s page with the reading and the forecast; once resolved, only what was forecast', () => {
    const resolved = alert({
      id: '2d1b4e6a-8f0c-4d3e-9a5b-7c9d1e3f5a7b',
      status: 'resolved',
      resolvedAt: '2026-11-23T12:35:00.000Z',
      forecast: { direction: 'above', threshold: 8, eta: null },
    });
    renderWithProviders(<SensorAlerts sensorId={SENSOR} alerts={[alert(), resolved]} readingOf={() => reading} timeZone="Europe/Paris" />);
    const links = screen.getAllByRole('link');
    const [running, past] = [nth(links, 0), nth(links, 1)];
    expect(plain(running.textContent)).toContain('7,1 °C mesurés');
    expect(plain(within(running).getByTestId('forecast-label').textContent)).toBe('prévu : +8 °C vers 14 h 10');
    expect(plain(within(past).getByTestId('forecast-label').textContent)).toBe('prévu : +8 °C');
    expect(past.textContent).not.toContain('7,1');
    expect(running.textContent).not.toContain('9,3');
  });
});
