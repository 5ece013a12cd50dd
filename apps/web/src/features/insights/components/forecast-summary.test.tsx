import { render, screen } from '@testing-library/react';
import type { PredictedBreach } from '@vigie/contract';
import { describe, expect, it } from 'vitest';
import { FIXTURE_NOW, FIXTURE_RULE_ID, forecastFixture, insightsFixture } from '../insights-fixture';
import { ForecastSummary } from './forecast-summary';

const plain = (text: string | null) => (text ?? '').replace(/[\u202F\u00A0]/g, ' ');
const lastReadingAt = new Date(FIXTURE_NOW - 20_000).toISOString();

function summary(props: Partial<Parameters<typeof ForecastSummary>[0]> = {}) {
  return render(
    <ForecastSummary
      insights={insightsFixture()}
      measureKey="temperature"
      now={FIXTURE_NOW}
      timeZone="Europe/Paris"
      lastReadingAt={lastReadingAt}
      hasLimits
      {...props}
    />,
  );
}

describe('ForecastSummary agrees with the alerts', () => {
  it('never says in green that no breach is forecast while the sensor is past its limit', () => {
    // The forecast goes back to the unit's habits, but the sensor reads 10,9 °C against +8 °C.
    summary({
      insights: insightsFixture({ breach: null, forecast: forecastFixture(0) }),
      measured: { value: 10.9, limit: 8, beyond: true },
    });
    const state = screen.getByTestId('forecast-state');
    expect(plain(state.textContent)).toBe('Seuil déjà dépassé10,9 °C mesurés (limite +8 °C)');
    expect(state).toHaveClass('border-red-400/60');
    expect(screen.queryByText(/Aucun dépassement prévu/)).not.toBeInTheDocument();
    // The range of the forecast is still given, as a forecast.
    expect(plain(document.body.textContent)).toContain('Sur les 4 prochaines heures');
  });

  it('says an alert still runs when the reading is back within the limit', () => {
    summary({
      insights: insightsFixture({ breach: null, forecast: forecastFixture(0) }),
      measured: { value: 7.9, limit: 8, beyond: false },
    });
    expect(plain(screen.getByTestId('forecast-state').textContent)).toBe('Alerte en cours7,9 °C mesurés (limite +8 °C)');
  });

  it('says it before explaining why there is no forecast', () => {
    summary({ insights: insightsFixture({ forecast: [], breach: null }), measured: { value: 10.9, limit: null, beyond: false } });
    expect(plain(screen.getByTestId('forecast-state').textContent)).toBe('Alerte en cours10,9 °C mesurés');
    expect(screen.getByTestId('forecast-note')).toHaveTextContent(/Pas assez de relevés pour prévoir/);
  });

  it('shows a running « dépassement prévu » alert as a forecast when the latest analysis no longer finds it', () => {
    summary({
      insights: insightsFixture({ breach: null, forecast: forecastFixture(0) }),
      alertForecast: { threshold: 8, eta: '2026-11-23T14:40:00.000Z' },
    });
    const state = screen.getByTestId('forecast-state');
    expect(plain(state.textContent)).toBe('Dépassement prévuprévu : +8 °C vers 15 h 40 (alerte en cours)');
    expect(screen.queryByText(/Aucun dépassement prévu/)).not.toBeInTheDocument();
  });

  it('keeps the analysis’s own breach, and the green all-clear when nothing holds', () => {
    const { unmount } = summary({ alertForecast: { threshold: 8, eta: null } });
    expect(plain(screen.getByTestId('forecast-state').textContent)).toContain('+8 °C atteint vers 16 h 10');
    unmount();
    summary({ insights: insightsFixture({ breach: null, forecast: forecastFixture(0) }) });
    expect(screen.getByTestId('forecast-state')).toHaveTextContent('Aucun dépassement prévu dans les 4 prochaines heures');
  });
});

/** The fixture's breach (+8 °C at 16 h 10), with the fields an analysis may add. */
function withBreach(fields: Partial<PredictedBreach>) {
  return insightsFixture({ breach: { ruleId: FIXTURE_RULE_ID, threshold: 8, eta: '2026-11-23T15:10:00.000Z', ...fields } });
}

describe('ForecastSummary says what a forecast rests on and how sure it is', () => {
  it('gives the chance, the hours the interval allows and an hour that moved', () => {
    summary({
      insights: withBreach({
        earliest: '2026-11-23T14:40:00.000Z',
        latest: '2026-11-23T15:50:00.000Z',
        probability: 0.72,
        movedFrom: '2026-11-23T15:45:00.000Z',
      }),
    });
    const state = plain(screen.getByTestId('forecast-state').textContent);
    expect(state).toContain('Dépassement probable (72 %)');
    expect(state).toContain('+8 °C atteint vers 16 h 10');
    expect(plain(screen.getByTestId('breach-window').textContent)).toBe('Selon l’intervalle à 80 %, entre 15 h 40 et 16 h 50.');
    expect(plain(screen.getByTestId('breach-moved').textContent)).toBe(
      'Heure revue : plus tôt que l’heure annoncée à l’analyse précédente (vers 16 h 45).',
    );
  });

  it('says « à partir de » when the favourable side never crosses, and nothing more for an older analysis', () => {
    const { unmount } = summary({
      insights: withBreach({ earliest: '2026-11-23T14:40:00.000Z', latest: null, probability: 0.55 }),
    });
    expect(plain(screen.getByTestId('forecast-state').textContent)).toContain('Dépassement probable (55 %)');
    unmount();
    const { unmount: unmountSure } = summary({
      insights: withBreach({ earliest: '2026-11-23T14:40:00.000Z', latest: null, probability: 0.998 }),
    });
    expect(plain(screen.getByTestId('forecast-state').textContent)).toContain('Dépassement très probable (plus de 99 %)');
    unmountSure();
    const { unmount: unmountWindow } = summary({
      insights: withBreach({ earliest: '2026-11-23T14:40:00.000Z', latest: null, probability: 0.55 }),
    });
    expect(plain(screen.getByTestId('breach-window').textContent)).toBe('Selon l’intervalle à 80 %, à partir de 15 h 40, s’il se produit.');
    unmountWindow();
    summary();
    expect(plain(screen.getByTestId('forecast-state').textContent)).toContain('Dépassement prévu');
    expect(screen.queryByTestId('breach-window')).toBeNull();
    expect(screen.queryByTestId('breach-moved')).toBeNull();
  });

  it('names the readings the forecast rests on', () => {
    summary({
      insights: insightsFixture({
        forecastModel: {
          kind: 'relaxation',
          explanation: 'Le froid ne suit plus.',
          basis: { readings: 4, since: '2026-11-23T12:10:00.000Z' },
        },
      }),
    });
    expect(plain(screen.getByTestId('forecast-basis').textContent)).toBe('D’après 4 relevés depuis 13 h 10.');
  });

  it('says « pas assez de relevés pour prévoir » when the server says so, even for a recent reading', () => {
    summary({ insights: insightsFixture({ forecast: [], breach: null, forecastUnavailable: 'not_enough_readings' }) });
    expect(plain(screen.getByTestId('forecast-state').textContent)).toMatch(/^Pas assez de relevés pour prévoir : /);
  });
});
