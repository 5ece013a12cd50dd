import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { FIXTURE_NOW, forecastFixture, insightsFixture } from '../insights-fixture';
import { InsightsPanel } from './insights-panel';

const NNBSP = '\u202F';
const PARIS = 'Europe/Paris';
const plain = (text: string | null) => (text ?? '').replace(/[\u202F\u00A0]/g, ' ');

beforeEach(() => {
  // Only the clock is frozen: the panel reads « now » to say « dans ~2 h ».
  vi.useFakeTimers({ now: FIXTURE_NOW, toFake: ['Date'] });
});

afterEach(() => {
  vi.useRealTimers();
});

const lastReadingAt = new Date(FIXTURE_NOW - 20_000).toISOString();

function renderPanel(props: Partial<Parameters<typeof InsightsPanel>[0]> = {}) {
  return renderWithProviders(
    <InsightsPanel
      measureKey="temperature"
      insights={insightsFixture()}
      error={null}
      onRetry={() => undefined}
      timeZone={PARIS}
      lastReadingAt={lastReadingAt}
      hasLimits
      {...props}
    />,
  );
}

describe('InsightsPanel', () => {
  it('gives the time to breach in the site’s local time', () => {
    renderPanel();
    const panel = screen.getByRole('region', { name: 'Analyse prédictive' });
    const state = within(panel).getByTestId('forecast-state');
    expect(state).toHaveTextContent('Dépassement prévu');
    expect(state.textContent).toContain(`+8${NNBSP}°C atteint vers 16${NNBSP}h${NNBSP}10 (dans ~2${NNBSP}h)`);
    expect(plain(panel.textContent)).toContain(
      'Attendu dans 4 h : 11,8 °C. Sur les 4 prochaines heures, entre 3,7 °C et 13,1 °C (intervalle à 80 %).',
    );
    expect(plain(panel.textContent)).toContain('Calculée à 14 h 10');
  });

  it('says which model speaks for the forecast', () => {
    const explanation = 'Le froid ne suit plus\u202f: la température monte vers celle de la pièce (environ 21\u00a0°C).';
    renderPanel({ insights: insightsFixture({ forecastModel: { kind: 'relaxation', explanation } }) });
    expect(screen.getByTestId('forecast-model')).toHaveTextContent(/^Le froid ne suit plus.*la température monte vers celle de la pièce/);
  });

  it('says when no breach is expected, and why none could be without a limit', () => {
    const { unmount } = renderPanel({ insights: insightsFixture({ breach: null, forecast: forecastFixture(0) }) });
    expect(screen.getByTestId('forecast-state')).toHaveTextContent('Aucun dépassement prévu dans les 4 prochaines heures');
    expect(screen.queryByText(/Aucune règle ne fixe de limite/)).not.toBeInTheDocument();
    unmount();

    renderPanel({ insights: insightsFixture({ breach: null, forecast: forecastFixture(0) }), hasLimits: false });
    expect(screen.getByTestId('forecast-state')).toHaveTextContent('Aucun dépassement prévu dans les 4 prochaines heures');
    expect(screen.getByText(/Aucune règle ne fixe de limite à cette mesure/)).toBeInTheDocument();
  });

  it('tells a silent sensor from one with too little history when there is no forecast', () => {
    const empty = insightsFixture({ forecast: [], breach: null });
    const { unmount } = renderPanel({ insights: empty });
    expect(screen.getByTestId('forecast-state')).toHaveTextContent(
      /Pas assez de relevés pour prévoir.*historique de ce capteur est encore trop court/,
    );
    unmount();

    const { unmount: again } = renderPanel({ insights: empty, lastReadingAt: new Date(FIXTURE_NOW - 3 * 3600_000).toISOString() });
    expect(screen.getByTestId('forecast-state')).toHaveTextContent(/Pas de prévision.*n’envoie plus de mesures depuis plus d’une heure/);
    again();

    renderPanel({ insights: empty, lastReadingAt: null });
    expect(screen.getByTestId('forecast-state')).toHaveTextContent('n’a encore envoyé aucune mesure');
    expect(screen.queryByText(/Sur les 4 prochaines heures/)).not.toBeInTheDocument();
  });

  it('lists the anomalies, latest first, each with a « Pourquoi ? » that discloses its explanation', async () => {
    const user = userEvent.setup();
    renderPanel();
    const anomalies = screen.getAllByTestId('anomaly');
    expect(anomalies.map((anomaly) => within(anomaly).getByRole('heading').textContent)).toEqual(['Dégivrage trop long', 'Dérive']);
    expect(plain(anomalies[0]?.textContent ?? '')).toContain('aujourd’hui de 9 h 05 à 10 h 30');
    expect(anomalies[0]).toHaveTextContent('Anomalie forte');
    expect(plain(anomalies[1]?.textContent ?? '')).toContain('hier de 9 h 05 à 10 h 30');

    const why = within(anomalies[1] as HTMLElement).getByRole('button', { name: `Pourquoi${NNBSP}?` });
    expect(why).toHaveAttribute('aria-expanded', 'false');
    expect(why).toHaveAccessibleDescription('Dérive');
    const explanation = document.getElementById(why.getAttribute('aria-controls') ?? '');
    expect(explanation).not.toBeVisible();
    await user.click(why);
    expect(why).toHaveAttribute('aria-expanded', 'true');
    expect(explanation).toBeVisible();
    expect(explanation).toHaveTextContent('La température monte lentement depuis deux jours');
    // Each disclosure is its own: the other anomaly's explanation stays closed.
    expect(within(anomalies[0] as HTMLElement).getByRole('button', { name: `Pourquoi${NNBSP}?` })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
    await user.click(why);
    expect(explanation).not.toBeVisible();
  });

  it('opens « Pourquoi ? » from the keyboard', async () => {
    const user = userEvent.setup();
    renderPanel({ insights: insightsFixture({ anomalies: insightsFixture().anomalies.slice(0, 1) }) });
    const why = screen.getByRole('button', { name: `Pourquoi${NNBSP}?` });
    why.focus();
    await user.keyboard('{Enter}');
    expect(why).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard(' ');
    expect(why).toHaveAttribute('aria-expanded', 'false');
  });

  it('shows the excursions by how far and how long, weighed in degree-hours, the defrosts and the battery as a range', () => {
    renderPanel();
    const excursion = plain(screen.getByTestId('excursion').textContent);
    expect(excursion).toContain('Au-delà de +8 °C pendant 40 min, jusqu’à 11,2 °C');
    expect(excursion).toContain('le 21 novembre de 14 h 05 à 14 h 45');
    expect(excursion).toContain('Cumul : 3,2 °C·h, l’écart à la limite multiplié par sa durée');
    expect(plain(screen.getByRole('region', { name: 'Analyse prédictive' }).textContent)).toContain(
      '2 dégivrages reconnus sur les 7 derniers jours, d’ordinaire 25 min ; le dernier aujourd’hui de 3 h à 3 h 25.',
    );
    expect(plain(screen.getByText(/Pile à remplacer/).textContent)).toContain('Pile à remplacer entre le 12 mars et le 2 avril 2027');
    expect(plain(screen.getByText(/Date la plus probable/).textContent)).toBe('Date la plus probable : le 20 mars 2027.');
  });

  it('says so when there is nothing to report', () => {
    renderPanel({ insights: insightsFixture({ anomalies: [], excursions: [], defrosts: [], battery: null }) });
    expect(screen.getByText('Aucune anomalie remarquée sur les 7 derniers jours.')).toBeInTheDocument();
    expect(screen.getByText('Aucun dépassement de limite sur les 7 derniers jours.')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Dégivrages' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Pile' })).not.toBeInTheDocument();
  });

  it('shows the next anomalies on demand', async () => {
    const user = userEvent.setup();
    const many = Array.from({ length: 6 }, (_, index) => ({
      kind: 'noise' as const,
      score: 0.5,
      explanation: 'Les mesures sautent bien plus que d’habitude.',
      from: new Date(FIXTURE_NOW - (index + 2) * 3600_000).toISOString(),
      to: new Date(FIXTURE_NOW - (index + 1) * 3600_000).toISOString(),
    }));
    renderPanel({ insights: insightsFixture({ anomalies: many }) });
    expect(screen.getAllByTestId('anomaly')).toHaveLength(4);
    const more = screen.getByRole('button', { name: 'Voir les 2 suivantes' });
    expect(more).toHaveAttribute('aria-expanded', 'false');
    await user.click(more);
    expect(screen.getAllByTestId('anomaly')).toHaveLength(6);
    expect(screen.getByRole('button', { name: 'Voir moins' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('shows a loading state, then an error with « Error loading data » as the last resort and a retry', async () => {
    const user = userEvent.setup();
    const onRetry = vi.fn();
    const { unmount } = renderPanel({ insights: undefined });
    expect(screen.getByRole('status')).toHaveTextContent('Calcul de l’analyse…');
    unmount();

    renderPanel({ insights: undefined, error: new Error(''), onRetry });
    expect(screen.getByRole('alert')).toHaveTextContent('Error loading data');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('says an anomaly still going on is « en cours » while the forecast follows a departure, not « faible »', () => {
    const ongoing = {
      from: new Date(FIXTURE_NOW - 40 * 60_000).toISOString(),
      to: new Date(FIXTURE_NOW - 5 * 60_000).toISOString(),
      score: 0.2,
      kind: 'level_shift' as const,
      explanation: 'La température a quitté son niveau habituel.',
    };
    const departure = insightsFixture({
      anomalies: [ongoing],
      forecastModel: { kind: 'relaxation', explanation: 'Le froid ne suit plus : la température monte vers celle de la pièce.' },
    });
    const { unmount } = renderPanel({ insights: departure });
    expect(screen.getByTestId('anomaly')).toHaveTextContent('Anomalie en cours');
    expect(screen.getByTestId('anomaly')).not.toHaveTextContent('Anomalie faible');
    unmount();

    renderPanel({ insights: insightsFixture({ anomalies: [ongoing], forecastModel: { kind: 'seasonal', explanation: 'Habitudes.' } }) });
    expect(screen.getByTestId('anomaly')).toHaveTextContent('Anomalie faible');
  });
});
