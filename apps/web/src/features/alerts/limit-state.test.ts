import type { Alert, Rule } from '@vigie/contract';
import { describe, expect, it } from 'vitest';
import { activeAlertsText } from './alert-format';
import { alertNews, alertValue, isPredicted, readingBeyond } from './components/alert-value';
import { activeForecast, measuredBreach } from './limit-state';

const NNBSP = '\u202F';
const NOW = Date.parse('2026-11-23T12:30:00.000Z');
const SENSOR = '5d1c3f8e-2b4a-4c6d-9e8f-7a6b5c4d3e2f';

function rule(id: string, condition: Rule['condition'], enabled = true): Rule {
  return {
    id,
    name: 'Vitrine',
    enabled,
    sensorId: SENSOR,
    siteId: null,
    condition,
    delaySeconds: 0,
    hysteresis: 0,
    schedule: 'always',
    severity: 'critical',
    preset: null,
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
  };
}

function alert(overrides: Partial<Alert> = {}): Alert {
  return {
    id: '0b9f2c4e-6d8a-4b1c-9e3f-5a7b9c1d3e5f',
    ruleId: 'a1a1a1a1-1111-4111-8111-111111111111',
    sensorId: SENSOR,
    siteId: null,
    status: 'open',
    severity: 'warning',
    key: 'temperature',
    openedAt: '2026-11-23T12:00:00.000Z',
    acknowledgedAt: null,
    acknowledgedBy: null,
    resolvedAt: null,
    resolution: null,
    peak: 9.3,
    last: 9.3,
    events: [],
    ...overrides,
  };
}

const predicted = (eta: string | null, overrides: Partial<Alert> = {}) =>
  alert({ forecast: { direction: 'above', threshold: 8, eta }, ...overrides });

describe('the value of a « dépassement prévu » alert', () => {
  it('is the sensor’s reading, never the forecast its last and peak hold', () => {
    const forecast = predicted('2026-11-23T13:10:00.000Z');
    expect(isPredicted(forecast)).toBe(true);
    expect(alertValue(forecast, { value: 7.1, ts: '2026-11-23T12:29:00.000Z' })).toBe(`7,1${NNBSP}°C`);
    expect(alertValue(forecast)).toBe('—');
    // A measured breach keeps its latest value.
    expect(isPredicted(alert({ last: 11 }))).toBe(false);
    expect(alertValue(alert({ last: 11 }))).toBe(`11,0${NNBSP}°C`);
    expect(alertValue(alert({ key: null, last: null }))).toBe('Hors ligne');
  });

  it('tells whether the reading is itself past the forecast limit, in its direction', () => {
    const above = { direction: 'above' as const, threshold: 8, eta: null };
    expect(readingBeyond(above, { value: 8.4, ts: '' })).toBe(true);
    expect(readingBeyond(above, { value: 7.9, ts: '' })).toBe(false);
    expect(readingBeyond({ ...above, direction: 'below', threshold: -18 }, { value: -17, ts: '' })).toBe(false);
    expect(readingBeyond({ ...above, direction: 'below', threshold: -18 }, { value: -19, ts: '' })).toBe(true);
    expect(readingBeyond(above, null)).toBe(false);
  });

  it('makes the news of a new alert a forecast, labelled', () => {
    expect(alertNews(predicted('2026-11-23T13:10:00.000Z'), NOW, 'Europe/Paris')).toBe(
      `dépassement prévu${NNBSP}: +8${NNBSP}°C vers 14${NNBSP}h${NNBSP}10`,
    );
    expect(alertNews(alert({ last: 12.5 }), NOW, 'Europe/Paris')).toBe(`12,5${NNBSP}°C`);
  });
});

describe('the banner’s count', () => {
  it('names the forecasts among the alerts', () => {
    expect(activeAlertsText(2, 0)).toBe('2 alertes en cours');
    expect(activeAlertsText(1, 1)).toBe(`1 alerte en cours${NNBSP}: dépassement prévu`);
    expect(activeAlertsText(3, 3)).toBe(`3 alertes en cours${NNBSP}: dépassements prévus`);
    expect(activeAlertsText(3, 1)).toBe('3 alertes en cours, dont 1 dépassement prévu');
  });
});

describe('where a measure stands against its limits', () => {
  const rules = [
    rule('r1', { type: 'above', key: 'temperature', threshold: 8 }),
    rule('r2', { type: 'predicted_above', key: 'temperature', threshold: 8, withinMinutes: 120 }),
    rule('r3', { type: 'outside', key: 'humidity', min: 40, max: 80 }),
    rule('r4', { type: 'below', key: 'temperature', threshold: 2 }, false),
  ];

  it('is a limit passed when the latest reading is beyond an enabled rule’s limit', () => {
    expect(measuredBreach(rules, [], 'temperature', 10.9)).toEqual({ value: 10.9, limit: 8, beyond: true });
    expect(measuredBreach(rules, [], 'humidity', 31)).toEqual({ value: 31, limit: 40, beyond: true });
    // Within limits, a disabled rule not counted, a forecast rule never a measured limit.
    expect(measuredBreach(rules, [], 'temperature', 7.9)).toBeNull();
    expect(measuredBreach(rules, [], 'temperature', 1)).toBeNull();
    expect(measuredBreach(rules, [predicted('2026-11-23T13:10:00.000Z')], 'temperature', 7.9)).toBeNull();
  });

  it('is an alert still running when the reading is back (a delay, a hysteresis)', () => {
    const running = alert({ ruleId: 'r1', last: 8.6 });
    expect(measuredBreach(rules, [running], 'temperature', 7.9)).toEqual({ value: 7.9, limit: 8, beyond: false });
    expect(measuredBreach(rules, [{ ...running, status: 'resolved' }], 'temperature', 7.9)).toBeNull();
    expect(measuredBreach([], [running], 'temperature', null)).toEqual({ value: null, limit: null, beyond: false });
  });

  it('gives the soonest forecast of the running « dépassement prévu » alerts', () => {
    const later = predicted('2026-11-23T15:00:00.000Z');
    const sooner = predicted('2026-11-23T13:10:00.000Z', { id: '1c0a3d5f-7e9b-4c2d-8f4a-6b8c0d2e4f6a' });
    expect(activeForecast([later, sooner], 'temperature')?.eta).toBe('2026-11-23T13:10:00.000Z');
    expect(activeForecast([predicted(null)], 'temperature')).toEqual({ direction: 'above', threshold: 8, eta: null });
    expect(activeForecast([{ ...sooner, status: 'resolved' }], 'temperature')).toBeNull();
    expect(activeForecast([sooner], 'humidity')).toBeNull();
  });
});
