import { describe, expect, it } from 'vitest';
import { forecastLabel, forecastTarget } from './forecast-label';

const NNBSP = '\u202F';
const PARIS = 'Europe/Paris';
// 13:10 UTC is 14 h 10 in Paris in November.
const NOW = Date.parse('2026-11-23T12:30:00.000Z');

describe('forecastLabel', () => {
  it('labels a predicted breach as a forecast, signed, with its unit and the shop’s time', () => {
    expect(forecastLabel('temperature', { threshold: 8, eta: '2026-11-23T13:10:00.000Z' }, NOW, PARIS)).toBe(
      `prévu${NNBSP}: +8${NNBSP}°C vers 14${NNBSP}h${NNBSP}10`,
    );
    expect(forecastLabel('temperature', { threshold: -18, eta: '2026-11-23T14:00:00.000Z' }, NOW, PARIS)).toBe(
      `prévu${NNBSP}: −18${NNBSP}°C vers 15${NNBSP}h`,
    );
    expect(forecastLabel('temperature', { threshold: 3.5, eta: '2026-11-23T13:05:00.000Z' }, NOW, 'America/Montreal')).toBe(
      `prévu${NNBSP}: +3,5${NNBSP}°C vers 8${NNBSP}h${NNBSP}05`,
    );
  });

  it('names the day past midnight, and leaves the time out when it is not known', () => {
    expect(forecastLabel('temperature', { threshold: 8, eta: '2026-11-23T23:40:00.000Z' }, NOW, PARIS)).toBe(
      `prévu${NNBSP}: +8${NNBSP}°C demain vers 0${NNBSP}h${NNBSP}40`,
    );
    expect(forecastLabel('temperature', { threshold: 8, eta: null }, NOW, PARIS)).toBe(`prévu${NNBSP}: +8${NNBSP}°C`);
    expect(forecastLabel('humidity', { threshold: 80, eta: 'not a date' }, NOW, PARIS)).toBe(`prévu${NNBSP}: +80${NNBSP}%`);
  });

  it('gives the limit and its time alone where « Prévu » is already said', () => {
    expect(forecastTarget('temperature', { threshold: 8, eta: '2026-11-23T13:10:00.000Z' }, NOW, PARIS)).toBe(
      `+8${NNBSP}°C vers 14${NNBSP}h${NNBSP}10`,
    );
  });
});
