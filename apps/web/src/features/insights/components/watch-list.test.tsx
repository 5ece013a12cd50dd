import type { WatchItem } from '@vigie/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { FIXTURE_NOW, FIXTURE_RULE_ID, watchItemFixture } from '../insights-fixture';
import { WatchList } from './watch-list';

const plain = (text: string | null) => (text ?? '').replace(/[\u202F\u00A0]/g, ' ');
const SITE = '7c1f6a2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b';

let watch: WatchItem[];
let answer: (() => Response) | null;
let urls: string[];

beforeEach(() => {
  vi.useFakeTimers({ now: FIXTURE_NOW, toFake: ['Date'] });
  watch = [];
  answer = null;
  urls = [];
  vi.stubGlobal('fetch', async (url: string) => {
    urls.push(url);
    if (answer) return answer();
    if (url.startsWith('/api/insights/watch')) return jsonResponse(200, { watch });
    return jsonResponse(404, { message: 'Introuvable' });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const sensorPath = (id: string) => `/dashboard/capteurs/${id}`;

describe('WatchList', () => {
  it('lists the sensors as ranked by the server, each leading to its page with its site and reason', async () => {
    watch = [
      watchItemFixture(1, {
        sensorName: 'Vitrine crèmerie',
        urgency: 0.92,
        breach: { ruleId: FIXTURE_RULE_ID, threshold: 8, eta: '2026-11-23T15:10:00.000Z' },
      }),
      watchItemFixture(2, {
        sensorName: 'Congélateur surgelés',
        siteName: 'Boutique Lyon',
        urgency: 0.4,
        anomaly: {
          from: '2026-11-23T10:00:00.000Z',
          to: '2026-11-23T13:05:00.000Z',
          score: 0.6,
          kind: 'drift',
          explanation: 'La température monte lentement depuis ce matin. Vérifiez le joint de la porte.',
        },
      }),
    ];
    renderWithProviders(<WatchList sensorPath={sensorPath} timeZoneOf={() => 'Europe/Paris'} />);
    const region = screen.getByRole('region', { name: /À surveiller/ });
    const items = await within(region).findAllByTestId('watch-item');
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('À surveiller (2)');
    expect(items.map((item) => within(item).getByRole('link').textContent)).toEqual(['Vitrine crèmerie', 'Congélateur surgelés']);
    expect(within(items[0] as HTMLElement).getByRole('link')).toHaveAttribute('href', `/dashboard/capteurs/${watch[0]?.sensorId}`);
    expect(plain(items[0]?.textContent ?? '')).toContain('Boutique Opéra');
    expect(plain(items[0]?.textContent ?? '')).toContain('Dépassement prévu : +8 °C atteint vers 16 h 10 (dans ~2 h)');
    expect(plain(items[1]?.textContent ?? '')).toContain('Boutique Lyon');
    expect(plain(items[1]?.textContent ?? '')).toContain('Dérive : La température monte lentement depuis ce matin.');
    expect(items[1]).not.toHaveTextContent('joint de la porte');
    expect(urls).toEqual(['/api/insights/watch']);
  });

  it('asks for one site’s sensors on a site’s page, without repeating the site', async () => {
    watch = [watchItemFixture(1, { breach: { ruleId: FIXTURE_RULE_ID, threshold: -18, eta: '2026-11-23T13:40:00.000Z' } })];
    renderWithProviders(<WatchList siteId={SITE} sensorPath={sensorPath} showSite={false} headingLevel={3} />);
    const item = await screen.findByTestId('watch-item');
    expect(urls).toEqual([`/api/insights/watch?siteId=${SITE}`]);
    expect(screen.getByRole('heading', { level: 3 })).toHaveTextContent('À surveiller (1)');
    expect(item).not.toHaveTextContent('Boutique Opéra');
    expect(plain(item.textContent)).toContain('−18 °C atteint vers');
    expect(plain(item.textContent)).toContain('(dans ~30 min)');
  });

  it('says when there is nothing to watch', async () => {
    renderWithProviders(<WatchList sensorPath={sensorPath} />);
    expect(await screen.findByText('Rien à surveiller pour l’instant.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent(/^À surveiller$/);
  });

  it('renders five, twenty on demand, and only counts the rest of a long list', async () => {
    const user = userEvent.setup();
    watch = Array.from({ length: 57 }, (_, index) =>
      watchItemFixture(index + 1, { breach: { ruleId: FIXTURE_RULE_ID, threshold: 8, eta: '2026-11-23T15:10:00.000Z' } }),
    );
    renderWithProviders(<WatchList sensorPath={sensorPath} />);
    expect(await screen.findAllByTestId('watch-item')).toHaveLength(5);
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('À surveiller (57)');
    expect(screen.getByText('37 autres capteurs, moins urgents, ne sont pas affichés.')).toBeInTheDocument();
    const more = screen.getByRole('button', { name: 'Voir les 15 suivants' });
    expect(more).toHaveAttribute('aria-expanded', 'false');
    await user.click(more);
    const shown = screen.getAllByTestId('watch-item');
    expect(shown).toHaveLength(20);
    expect(within(shown[19] as HTMLElement).getByRole('link')).toHaveTextContent('Vitrine 20');
    expect(screen.getByRole('button', { name: 'Voir moins' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('shows a failure quietly, with a way to load the list again', async () => {
    const user = userEvent.setup();
    answer = () => new Response('', { status: 502, statusText: 'Bad Gateway' });
    renderWithProviders(<WatchList sensorPath={sensorPath} />);
    expect(await screen.findByText('HTTP 502: Bad Gateway')).toBeInTheDocument();
    // Beside the dashboard's own alert, not a second one.
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    answer = null;
    await user.click(screen.getByRole('button', { name: 'Recharger la liste' }));
    expect(await screen.findByText('Rien à surveiller pour l’instant.')).toBeInTheDocument();
  });

  it('falls back to « Error loading data » for an answer it cannot read', async () => {
    answer = () => jsonResponse(200, { something: 'else' });
    renderWithProviders(<WatchList sensorPath={sensorPath} />);
    expect(await screen.findByText('Error loading data')).toBeInTheDocument();
  });
});
