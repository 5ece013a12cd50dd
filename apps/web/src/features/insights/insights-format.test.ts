import { describe, expect, it } from 'vitest';
import {
  anomalyLabel,
  anomalyStrength,
  batteryLikelyText,
  batteryText,
  breachText,
  defrostText,
  degreeHoursAmount,
  excursionText,
  forecastRangeText,
  formatClock,
  formatSpan,
  formatThreshold,
  formatTimeUntil,
  shortExplanation,
} from './insights-format';

const NNBSP = '\u202F';
/** Read the narrow and the ordinary no-break spaces as plain spaces, to keep expectations legible. */
const plain = (text: string) => text.replace(/[\u202F\u00A0]/g, ' ');
const PARIS = 'Europe/Paris';
const RULE = '5b8f0a4e-2d1c-4e7b-9a6f-3c2d1e0f9a8b';
// 23 November 2026, 14:10 in Paris (UTC+1).
const NOW = Date.parse('2026-11-23T13:10:00Z');

describe('breachText', () => {
  it('gives the limit, the local time and how long until then', () => {
    const text = breachText({ ruleId: RULE, threshold: 8, eta: '2026-11-23T15:10:00Z' }, 'temperature', NOW, PARIS);
    expect(text).toBe(`+8${NNBSP}°C atteint vers 16${NNBSP}h${NNBSP}10 (dans ~2${NNBSP}h)`);
  });

  it('names the next day past midnight, in the site’s zone', () => {
    const lateEvening = Date.parse('2026-11-23T22:00:00Z');
    const text = breachText({ ruleId: RULE, threshold: -18, eta: '2026-11-23T23:40:00Z' }, 'temperature', lateEvening, PARIS);
    expect(plain(text)).toBe('−18 °C atteint demain vers 0 h 40 (dans ~1 h 30)');
    // The same instant on a New York shop's clock is still the same day.
    expect(
      plain(breachText({ ruleId: RULE, threshold: 8, eta: '2026-11-23T23:40:00Z' }, 'temperature', lateEvening, 'America/New_York')),
    ).toBe('+8 °C atteint vers 18 h 40 (dans ~1 h 30)');
  });

  it('writes a whole hour without minutes', () => {
    expect(plain(formatClock(Date.parse('2026-11-23T08:00:00Z'), PARIS))).toBe('9 h');
  });
});

describe('formatTimeUntil', () => {
  it('rounds as a forecast deserves', () => {
    expect(formatTimeUntil(0)).toBe('imminent');
    expect(formatTimeUntil(4 * 60_000)).toBe('dans quelques minutes');
    expect(plain(formatTimeUntil(23 * 60_000))).toBe('dans ~25 min');
    expect(plain(formatTimeUntil(58 * 60_000))).toBe('dans ~1 h');
    expect(plain(formatTimeUntil(95 * 60_000))).toBe('dans ~1 h 30');
    expect(plain(formatTimeUntil(235 * 60_000))).toBe('dans ~4 h');
  });
});

describe('formatThreshold', () => {
  it('signs limits, with the minus sign U+2212 and a narrow no-break space before the unit', () => {
    expect(formatThreshold('temperature', 8)).toBe(`+8${NNBSP}°C`);
    expect(formatThreshold('temperature', -18)).toBe(`\u221218${NNBSP}°C`);
    expect(formatThreshold('temperature', 3.5)).toBe(`+3,5${NNBSP}°C`);
    expect(formatThreshold('temperature', 0)).toBe(`0${NNBSP}°C`);
    expect(formatThreshold('humidity', 70)).toBe(`+70${NNBSP}%`);
  });
});

describe('excursionText and degreeHoursAmount', () => {
  it('says how far and how long first, then weighs both in degree-hours', () => {
    const at = (minutes: number) => new Date(Date.parse('2026-11-21T13:05:00.000Z') + minutes * 60_000).toISOString();
    expect(excursionText('temperature', { threshold: 8, peak: 11.2, from: at(0), to: at(40) }, 0)).toBe(
      `Au-delà de +8${NNBSP}°C pendant 40${NNBSP}min, jusqu’à 11,2${NNBSP}°C`,
    );
    expect(plain(excursionText('temperature', { threshold: -18, peak: -12, from: at(0), to: at(125) }, 0))).toBe(
      'Au-delà de −18 °C pendant 2 h 05, jusqu’à −12,0 °C',
    );
    // Still going: up to now.
    expect(plain(excursionText('temperature', { threshold: 0, peak: -1.5, from: at(0), to: null }, Date.parse(at(90))))).toBe(
      'En deçà de 0 °C pendant 1 h 30, jusqu’à −1,5 °C',
    );
    expect(degreeHoursAmount('temperature', 3.24)).toBe(`3,2${NNBSP}°C·h`);
    expect(plain(degreeHoursAmount('temperature', 0.03))).toBe('< 0,1 °C·h');
  });
});

describe('batteryText', () => {
  const battery = (earliest: string, latest: string) => ({ endOfLifeAt: earliest, earliest, latest });

  it('gives a range of dates, the year once when both share it', () => {
    expect(plain(batteryText(battery('2027-03-12T10:00:00Z', '2027-04-02T10:00:00Z'), NOW, PARIS))).toBe(
      'Pile à remplacer entre le 12 mars et le 2 avril 2027',
    );
    expect(plain(batteryText(battery('2026-12-28T10:00:00Z', '2027-01-01T10:00:00Z'), NOW, PARIS))).toBe(
      'Pile à remplacer entre le 28 décembre 2026 et le 1er janvier 2027',
    );
  });

  it('names the most likely date only when the range leaves room for one', () => {
    expect(
      plain(
        batteryLikelyText(
          { ...battery('2027-03-12T10:00:00Z', '2027-04-02T10:00:00Z'), endOfLifeAt: '2027-03-20T10:00:00Z' },
          NOW,
          PARIS,
        ) ?? '',
      ),
    ).toBe('Date la plus probable : le 20 mars 2027.');
    expect(batteryLikelyText(battery('2027-01-11T08:00:00Z', '2027-01-11T20:00:00Z'), NOW, PARIS)).toBeNull();
    expect(batteryLikelyText(battery('2027-06-01T10:00:00Z', '2036-11-23T10:00:00Z'), NOW, PARIS)).toBeNull();
  });

  it('says « d’ici » when it may already be due, « vers » for one day, « pas avant » when the end is not in sight', () => {
    expect(plain(batteryText(battery('2026-11-23T13:10:00Z', '2026-12-10T10:00:00Z'), NOW, PARIS))).toBe(
      'Pile à remplacer d’ici le 10 décembre 2026',
    );
    expect(plain(batteryText(battery('2027-01-11T08:00:00Z', '2027-01-11T20:00:00Z'), NOW, PARIS))).toBe(
      'Pile à remplacer vers le 11 janvier 2027',
    );
    expect(plain(batteryText(battery('2027-06-01T10:00:00Z', '2036-11-23T10:00:00Z'), NOW, PARIS))).toBe(
      'Pile à remplacer pas avant le 1er juin 2027',
    );
  });
});

describe('formatSpan', () => {
  it('says when, relative to today, in the site’s zone', () => {
    expect(plain(formatSpan('2026-11-23T08:05:00Z', '2026-11-23T09:30:00Z', NOW, PARIS))).toBe('aujourd’hui de 9 h 05 à 10 h 30');
    expect(plain(formatSpan('2026-11-22T08:05:00Z', '2026-11-22T09:30:00Z', NOW, PARIS))).toBe('hier de 9 h 05 à 10 h 30');
    expect(plain(formatSpan('2026-11-18T08:05:00Z', '2026-11-18T09:30:00Z', NOW, PARIS))).toBe('le 18 novembre de 9 h 05 à 10 h 30');
  });

  it('names both days across midnight, and « depuis » while it goes on', () => {
    expect(plain(formatSpan('2026-11-20T22:40:00Z', '2026-11-20T23:20:00Z', NOW, PARIS))).toBe(
      'du 20 novembre à 23 h 40 au 21 novembre à 0 h 20',
    );
    expect(plain(formatSpan('2026-11-23T12:05:00Z', null, NOW, PARIS))).toBe('depuis 13 h 05');
    expect(plain(formatSpan('2026-11-22T22:10:00Z', '2026-11-23T13:08:00Z', NOW, PARIS))).toBe('depuis hier à 23 h 10');
  });
});

describe('defrostText', () => {
  it('counts the recognised cycles, their usual length and the last one', () => {
    const defrosts = [
      { from: '2026-11-22T02:00:00Z', to: '2026-11-22T02:25:00Z' },
      { from: '2026-11-23T02:00:00Z', to: '2026-11-23T02:20:00Z' },
      { from: '2026-11-21T02:00:00Z', to: '2026-11-21T02:25:00Z' },
    ];
    expect(plain(defrostText(defrosts, NOW, PARIS))).toBe(
      '3 dégivrages reconnus sur les 7 derniers jours, d’ordinaire 25 min ; le dernier aujourd’hui de 3 h à 3 h 20.',
    );
    expect(defrostText(defrosts, NOW, PARIS)).toContain(`${NNBSP};`);
    expect(defrostText([], NOW, PARIS)).toBe('Aucun dégivrage reconnu sur les 7 derniers jours.');
  });
});

describe('forecastRangeText', () => {
  it('gives the value expected at the horizon and the interval’s extremes', () => {
    const forecast = [
      { ts: '2026-11-23T13:10:00Z', value: 3.9, low: 3.5, high: 4.3 },
      { ts: '2026-11-23T13:15:00Z', value: 4.1, low: 2.8, high: 4.6 },
    ];
    expect(plain(forecastRangeText('temperature', forecast) ?? '')).toBe(
      'Attendu dans 4 h : 4,1 °C. Sur les 4 prochaines heures, entre 2,8 °C et 4,6 °C (intervalle à 80 %).',
    );
    expect(forecastRangeText('temperature', [])).toBeNull();
  });
});

describe('anomalies in words', () => {
  it('names every kind in French, and an unknown one as unusual behaviour', () => {
    expect(
      ['level_shift', 'drift', 'flatline', 'noise', 'compressor', 'door_open', 'defrost_missed', 'defrost_long', 'pattern'].map(
        anomalyLabel,
      ),
    ).toEqual([
      'Changement de niveau',
      'Dérive',
      'Capteur figé',
      'Mesures instables',
      'Compresseur',
      'Porte ouverte',
      'Dégivrage manqué',
      'Dégivrage trop long',
      'Comportement inhabituel',
    ]);
    expect(anomalyLabel('something_new')).toBe('Comportement inhabituel');
  });

  it('grades the score', () => {
    expect([0.9, 0.5, 0.1].map(anomalyStrength)).toEqual(['forte', 'moyenne', 'faible']);
  });

  it('keeps the first sentence of an explanation, cut at a word when long', () => {
    expect(shortExplanation('La température monte lentement depuis hier. Vérifiez le joint de porte.')).toBe(
      'La température monte lentement depuis hier.',
    );
    const long = `${'très '.repeat(40)}long.`;
    const short = shortExplanation(long, 50);
    expect(short.length).toBeLessThanOrEqual(51);
    expect(short.endsWith('…')).toBe(true);
    expect(short).not.toMatch(/\s…$/);
  });
});

// Typography shared by every text above.
describe('French typography', () => {
  it('puts no ordinary space before a unit, a colon or a percent sign', () => {
    const texts = [
      breachText({ ruleId: RULE, threshold: 8, eta: '2026-11-23T15:10:00Z' }, 'temperature', NOW, PARIS),
      forecastRangeText('temperature', [{ ts: '2026-11-23T13:10:00Z', value: 3.9, low: 3.5, high: 4.3 }]) ?? '',
      excursionText('temperature', { threshold: 8, peak: 11, from: '2026-11-23T12:00:00Z', to: '2026-11-23T14:05:00Z' }, NOW),
      degreeHoursAmount('temperature', 3.2),
    ];
    for (const text of texts) expect(text).not.toMatch(/ [:;%?!]| °C| h\b/);
  });
});
