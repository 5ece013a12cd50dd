import type { Alert, ReadingBucket, Rule } from '@vigie/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import type { AlertChartProps } from './alert-curve';
import { AlertDetail } from './alert-detail';

const plain = (text: string | null | undefined) => (text ?? '').replace(/[\u202F\u00A0]/g, ' ');
const SENSOR = '5d1c3f8e-2b4a-4c6d-9e8f-7a6b5c4d3e2f';
const MINUTE = 60_000;
// Paris is UTC+1 in November: 13:10 UTC is 14 h 10 there.
const OPENED = '2026-11-23T13:10:00.000Z';
const RESOLVED = '2026-11-23T14:40:00.000Z';
const PEAK_AT = Date.parse('2026-11-23T13:55:00.000Z');
const NOW = Date.parse('2026-11-23T16:00:00.000Z');

function rule(condition: Rule['condition'] = { type: 'above', key: 'temperature', threshold: 8 }): Rule {
  return {
    id: 'a1a1a1a1-1111-4111-8111-111111111111',
    name: 'Vitrine ≤ +8 °C',
    enabled: true,
    sensorId: SENSOR,
    siteId: null,
    condition,
    delaySeconds: 0,
    hysteresis: 0.5,
    schedule: 'always',
    severity: 'critical',
    preset: null,
    createdAt: '2026-11-01T08:00:00.000Z',
    updatedAt: '2026-11-01T08:00:00.000Z',
  };
}

function alert(overrides: Partial<Alert> = {}): Alert {
  return {
    id: '0b9f2c4e-6d8a-4b1c-9e3f-5a7b9c1d3e5f',
    ruleId: 'a1a1a1a1-1111-4111-8111-111111111111',
    sensorId: SENSOR,
    siteId: '7c1f6a2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b',
    status: 'resolved',
    severity: 'critical',
    key: 'temperature',
    openedAt: OPENED,
    acknowledgedAt: null,
    acknowledgedBy: null,
    resolvedAt: RESOLVED,
    resolution: 'auto',
    peak: 11.3,
    last: 7.4,
    events: [
      { type: 'opened', at: OPENED },
      { type: 'resolved', at: RESOLVED, text: 'Retour à la normale.' },
    ],
    ...overrides,
  };
}

/** A reading every 5 min from `from` to `to`: 4 °C, up to 11,3 °C at 14 h 55 during the alert. */
function buckets(from: number, to: number): ReadingBucket[] {
  const list: ReadingBucket[] = [];
  for (let ts = from; ts < to; ts += 5 * MINUTE) {
    const inside = ts >= Date.parse(OPENED) && ts <= Date.parse(RESOLVED);
    const value = ts === PEAK_AT ? 11.3 : inside ? 9 : 4;
    list.push({ ts: new Date(ts).toISOString(), min: value - 0.1, avg: value - 0.05, max: value, count: 5 });
  }
  return list;
}

/** The readings requests made, as URLs. */
let requests: URL[];
/** What the chart is given, each time it draws. */
const draw = vi.fn<(props: AlertChartProps) => void>();
/** What the chart was last given. */
const drawn = () => draw.mock.lastCall?.[0];

function FakeChart(props: AlertChartProps) {
  draw(props);
  return <div data-testid="fake-chart" />;
}

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
  requests = [];
  draw.mockClear();
  vi.stubGlobal('fetch', async (input: string) => {
    const url = new URL(input, 'http://vigie.test');
    if (url.pathname === `/api/sensor/${SENSOR}/readings`) {
      requests.push(url);
      const from = Date.parse(url.searchParams.get('from') ?? '');
      const to = Date.parse(url.searchParams.get('to') ?? '');
      return jsonResponse(200, {
        key: 'temperature',
        keys: ['temperature'],
        from: new Date(from).toISOString(),
        to: new Date(to).toISOString(),
        readings: buckets(from, Math.min(to, NOW)),
      });
    }
    return jsonResponse(404, { message: 'Introuvable' });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

function renderPage(value: Alert, ruleValue: Rule | null | undefined = rule(), chart: typeof FakeChart | undefined = FakeChart) {
  return renderWithProviders(
    <AlertDetail
      alert={value}
      rule={ruleValue}
      sensorName="Vitrine crèmerie"
      siteName="Lyon Part-Dieu"
      who={() => null}
      timeZone="Europe/Paris"
      chart={chart}
    />,
  );
}

describe('the summary of an alert', () => {
  it('shows the peak as the big value once resolved, how long it lasted, and the closing value apart', () => {
    renderPage(alert());
    const summary = screen.getByTestId('alert-summary');
    expect(plain(screen.getByTestId('alert-value').textContent)).toBe('11,3 °C');
    expect(within(summary).getByText('Au plus haut')).toBeInTheDocument();
    expect(plain(screen.getByTestId('alert-duration').textContent)).toBe('a duré 1 h 30');
    expect(screen.queryByTestId('alert-peak')).not.toBeInTheDocument();
    expect(screen.getByTestId('alert-value')).not.toHaveClass('text-red-300');
    const card = plain(screen.getByRole('heading', { level: 1 }).parentElement?.textContent);
    expect(card).toContain('Dernière valeur :7,4 °C');
    expect(summary.textContent).not.toContain('7,4');
  });

  it('keeps the latest value as the big one while the alert runs, the peak beside it, and says since when', () => {
    renderPage(alert({ status: 'open', resolvedAt: null, resolution: null, openedAt: '2026-11-23T14:48:00.000Z', peak: 13.1, last: 12.5 }));
    expect(plain(screen.getByTestId('alert-value').textContent)).toBe('12,5 °C');
    expect(screen.getByTestId('alert-value')).toHaveClass('text-red-300');
    expect(plain(screen.getByTestId('alert-peak').textContent)).toBe('13,1 °C');
    expect(within(screen.getByTestId('alert-summary')).getByText('Au plus haut')).toBeInTheDocument();
    expect(plain(screen.getByTestId('alert-duration').textContent)).toBe('depuis 1 h 12');
  });

  it('names the lowest value for a breach below a minimum', () => {
    renderPage(alert({ peak: -12.4, last: -16.2 }), rule({ type: 'below', key: 'temperature', threshold: -15 }));
    expect(plain(screen.getByTestId('alert-value').textContent)).toBe('−12,4 °C');
    expect(within(screen.getByTestId('alert-summary')).getByText('Au plus bas')).toBeInTheDocument();
  });

  it('reads the limit as what is allowed, not as what triggers', () => {
    renderPage(alert());
    expect(plain(screen.getByTestId('alert-limit').textContent)).toBe('Limite autorisée : Température ≤ +8,0 °C');
  });
});

describe('the curve around an alert', () => {
  it('asks for the readings from an hour before the opening to an hour after the end', async () => {
    renderPage(alert());
    await waitFor(() => expect(requests).toHaveLength(1));
    const [request] = requests;
    expect(request?.searchParams.get('key')).toBe('temperature');
    expect(request?.searchParams.get('from')).toBe('2026-11-23T12:10:00.000Z');
    expect(request?.searchParams.get('to')).toBe('2026-11-23T15:40:00.000Z');
    expect(request?.searchParams.get('buckets')).toBe('240');
  });

  it('widens the margin to a quarter of a long alert, and ends now while it runs', async () => {
    // Open for 8 h: 2 h before it, up to now.
    renderPage(alert({ status: 'acknowledged', resolvedAt: null, resolution: null, openedAt: '2026-11-23T08:00:00.000Z' }));
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]?.searchParams.get('from')).toBe('2026-11-23T06:00:00.000Z');
    expect(requests[0]?.searchParams.get('to')).toBe(new Date(NOW).toISOString());
  });

  it('says in words what it shows, and hands the chart the limit, the period and the peak', async () => {
    renderPage(alert());
    const text = screen.getByTestId('alert-curve-text');
    await waitFor(() => expect(plain(text.textContent)).toBe('Courbe de 13 h 10 à 16 h 40 : pic +11,3 °C à 14 h 55, limite ≤ +8,0 °C'));
    // The figure is named by the sentence: a screen reader reads it in place of the chart.
    expect(screen.getByRole('figure')).toHaveAccessibleName(text.textContent ?? '');
    expect(drawn()?.overlays.limits).toEqual([8]);
    expect(drawn()?.overlays.periods).toEqual([{ from: Date.parse(OPENED), to: Date.parse(RESOLVED) }]);
    expect(drawn()?.peak?.from).toBe(PEAK_AT);
    expect(drawn()?.unit).toBe('°C');
    const legend = within(screen.getByRole('list', { name: 'Légende' }));
    expect(plain(legend.getByText(/Limite autorisée/).textContent)).toBe('Limite autorisée (≤ +8,0 °C)');
    expect(plain(legend.getByText(/Au plus haut/).textContent)).toBe('Au plus haut (+11,3 °C)');
  });

  it('marks no peak on a « dépassement prévu », whose peak is a forecast', async () => {
    renderPage(
      alert({
        status: 'open',
        resolvedAt: null,
        resolution: null,
        peak: 9.3,
        last: 9.3,
        forecast: { direction: 'above', threshold: 8, eta: null },
      }),
      rule({ type: 'predicted_above', key: 'temperature', threshold: 8, withinMinutes: 120 }),
    );
    const text = screen.getByTestId('alert-curve-text');
    await waitFor(() =>
      expect(plain(text.textContent)).toMatch(/^Courbe de 13 h 10 à 17 h : mesures de \+3,9 °C à \+11,3 °C, limite ≤ \+8,0 °C$/),
    );
    expect(drawn()?.peak).toBeNull();
    expect(screen.queryByTestId('alert-peak')).not.toBeInTheDocument();
  });

  it('has no curve for a sensor gone silent, and asks for no readings', () => {
    renderPage(alert({ key: null, peak: null, last: null }), rule({ type: 'offline' }));
    expect(screen.queryByRole('heading', { name: 'Courbe' })).not.toBeInTheDocument();
    expect(plain(screen.getByTestId('alert-value').textContent)).toBe('Hors ligne');
    expect(requests).toHaveLength(0);
  });
});
