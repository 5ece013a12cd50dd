import { describe, expect, it } from 'vitest';
import {
  formatCompliance,
  formatDateTime,
  formatDayLabel,
  formatDuration,
  formatLimits,
  formatMonth,
  formatNumber,
  formatTemperature,
  startOfDay,
} from './report-format.ts';

const NNBSP = '\u202f';
const NBSP = '\u00a0';
const MINUS = '\u2212';

describe('report formatting', () => {
  it('writes numbers the French way: decimal comma, U+202F between thousands, U+2212 for negatives', () => {
    expect(formatNumber(12345.67)).toBe(`12${NNBSP}345,7`);
    expect(formatNumber(-18)).toBe(`${MINUS}18,0`);
    expect(formatNumber(-0.04)).toBe('0,0');
    expect(formatNumber(8880, 0)).toBe(`8${NNBSP}880`);
  });

  it('writes temperatures with one decimal and a no-break space before °C, limits with their sign', () => {
    expect(formatTemperature(-18)).toBe(`${MINUS}18,0${NBSP}°C`);
    expect(formatTemperature(4, { signed: true })).toBe(`+4,0${NBSP}°C`);
    expect(formatTemperature(null)).toBe('—');
    expect(formatLimits(null, 4)).toBe(`≤${NBSP}+4,0${NBSP}°C`);
    expect(formatLimits(-25, -18)).toBe(`${MINUS}25,0${NBSP}°C à ${MINUS}18,0${NBSP}°C`);
    expect(formatLimits(-18, null)).toBe(`≥${NBSP}${MINUS}18,0${NBSP}°C`);
    expect(formatLimits(null, null)).toBe('Aucune limite définie');
  });

  it('writes compliance rounded down, so a moment out of limits never reads 100 %', () => {
    expect(formatCompliance(99.27)).toBe(`99,2${NNBSP}%`);
    expect(formatCompliance(99.96)).toBe(`99,9${NNBSP}%`);
    expect(formatCompliance(100)).toBe(`100,0${NNBSP}%`);
    expect(formatCompliance(null)).toBe('—');
  });

  it('writes durations in days, hours and minutes', () => {
    expect(formatDuration(0)).toBe(`0${NBSP}min`);
    expect(formatDuration(40)).toBe(`40${NBSP}s`);
    expect(formatDuration(45 * 60)).toBe(`45${NBSP}min`);
    expect(formatDuration(2 * 3600 + 5 * 60)).toBe(`2${NBSP}h${NBSP}05${NBSP}min`);
    expect(formatDuration(5 * 3600)).toBe(`5${NBSP}h`);
    expect(formatDuration(59 * 60 + 50)).toBe(`1${NBSP}h`);
    expect(formatDuration(3 * 86400 + 4 * 3600)).toBe(`3${NBSP}j${NBSP}4${NBSP}h`);
  });

  it('reads dates on the site’s clock', () => {
    expect(formatDateTime('2026-11-02T13:05:00.000Z', 'Europe/Paris')).toBe('02/11/2026 14:05');
    expect(formatDateTime('2026-11-02T13:05:00.000Z', 'America/Martinique')).toBe('02/11/2026 09:05');
    expect(formatDayLabel('2026-11-02')).toBe('lun. 02/11');
    expect(formatMonth('2026-11')).toBe('Novembre 2026');
  });

  it('finds the start of a calendar day on the site’s clock, across a change of time', () => {
    expect(new Date(startOfDay('2026-10-25', 'Europe/Paris')).toISOString()).toBe('2026-10-24T22:00:00.000Z');
    expect(new Date(startOfDay('2026-10-26', 'Europe/Paris')).toISOString()).toBe('2026-10-25T23:00:00.000Z');
    expect(new Date(startOfDay('2026-03-29', 'Europe/Paris')).toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(new Date(startOfDay('2026-03-30', 'Europe/Paris')).toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(new Date(startOfDay('2026-11-02', 'Indian/Reunion')).toISOString()).toBe('2026-11-01T20:00:00.000Z');
  });
});
