import type { Insights, WatchItem } from '@vigie/contract';

/** 23 November 2026, 14:10 in Paris: the instant the fixtures below were computed. */
export const FIXTURE_NOW = Date.parse('2026-11-23T13:10:00.000Z');
export const FIXTURE_RULE_ID = '5b8f0a4e-2d1c-4e7b-9a6f-3c2d1e0f9a8b';

/** Four hours of forecast from `FIXTURE_NOW`, rising from 4 °C by `slope` degrees an hour (+8 °C two hours on by default). */
export function forecastFixture(slope = 2): Insights['forecast'] {
  return Array.from({ length: 48 }, (_, step) => {
    const value = 4 + (slope * step) / 12;
    const spread = 0.3 + step * 0.02;
    return { ts: new Date(FIXTURE_NOW + step * 300_000).toISOString(), value, low: value - spread, high: value + spread };
  });
}

/** A fridge's analysis as the API returns it, for tests; everything the screens show, once. */
export function insightsFixture(overrides: Partial<Insights> = {}): Insights {
  return {
    key: 'temperature',
    computedAt: new Date(FIXTURE_NOW).toISOString(),
    forecast: forecastFixture(),
    breach: { ruleId: FIXTURE_RULE_ID, threshold: 8, eta: '2026-11-23T15:10:00.000Z' },
    anomalies: [
      {
        from: '2026-11-22T08:05:00.000Z',
        to: '2026-11-22T09:30:00.000Z',
        score: 0.55,
        kind: 'drift',
        explanation: 'La température monte lentement depuis deux jours, de 0,4 °C par jour. Vérifiez le joint de la porte.',
      },
      {
        from: '2026-11-23T08:05:00.000Z',
        to: '2026-11-23T09:30:00.000Z',
        score: 0.85,
        kind: 'defrost_long',
        explanation:
          'Le dégivrage de 9 h a duré 85 minutes au lieu de 25 d’habitude : la résistance ou la minuterie est peut-être bloquée.',
      },
    ],
    battery: { endOfLifeAt: '2027-03-20T10:00:00.000Z', earliest: '2027-03-12T10:00:00.000Z', latest: '2027-04-02T10:00:00.000Z' },
    defrosts: [
      { from: '2026-11-22T02:00:00.000Z', to: '2026-11-22T02:25:00.000Z' },
      { from: '2026-11-23T02:00:00.000Z', to: '2026-11-23T02:25:00.000Z' },
    ],
    excursions: [
      {
        ruleId: FIXTURE_RULE_ID,
        threshold: 8,
        from: '2026-11-21T13:05:00.000Z',
        to: '2026-11-21T13:45:00.000Z',
        peak: 11.2,
        degreeHours: 3.2,
      },
    ],
    ...overrides,
  };
}

/** An item of « À surveiller », for tests. */
export function watchItemFixture(index: number, overrides: Partial<WatchItem> = {}): WatchItem {
  const hex = index.toString(16).padStart(12, '0');
  return {
    sensorId: `0b4c6a3e-1f2d-4e5a-9b8c-${hex}`,
    sensorName: `Vitrine ${index}`,
    siteId: '7c1f6a2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b',
    siteName: 'Boutique Opéra',
    key: 'temperature',
    urgency: Math.max(0, 1 - index / 100),
    breach: null,
    anomaly: null,
    computedAt: new Date(FIXTURE_NOW).toISOString(),
    ...overrides,
  };
}
