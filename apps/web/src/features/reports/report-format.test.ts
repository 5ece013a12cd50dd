import type { Report } from '@vigie/contract';
import { describe, expect, it } from 'vitest';
import {
  awaitingSignature,
  countOf,
  currentMonth,
  formatCompliance,
  formatLimits,
  formatReportMonth,
  formatSeconds,
  formatSiteDateTime,
  groupReports,
  onDateAt,
  recentMonths,
  shortHash,
  unsignedLabel,
} from './report-format';
import { reportFixture } from './report-fixture';

const NNBSP = '\u202F';

describe('report formatting', () => {
  it('names a month in French', () => {
    expect(formatReportMonth('2026-11')).toBe('novembre 2026');
    expect(formatReportMonth('2027-01')).toBe('janvier 2027');
    expect(formatReportMonth('2026-02')).toBe('février 2026');
    expect(formatReportMonth('n’importe quoi')).toBe('n’importe quoi');
  });

  it('shows compliance with a decimal comma and a narrow space before %, rounded down', () => {
    expect(formatCompliance(99.25)).toBe(`99,2${NNBSP}%`);
    expect(formatCompliance(99.99)).toBe(`99,9${NNBSP}%`);
    expect(formatCompliance(100)).toBe(`100,0${NNBSP}%`);
    expect(formatCompliance(0)).toBe(`0,0${NNBSP}%`);
    expect(formatCompliance(null)).toBe('—');
  });

  it('says durations as a person reads them', () => {
    expect(formatSeconds(0)).toBe(`0${NNBSP}min`);
    expect(formatSeconds(40)).toBe(`40${NNBSP}s`);
    expect(formatSeconds(45 * 60)).toBe(`45${NNBSP}min`);
    expect(formatSeconds(2 * 3600)).toBe(`2${NNBSP}h`);
    expect(formatSeconds(2 * 3600 + 5 * 60)).toBe(`2${NNBSP}h${NNBSP}05${NNBSP}min`);
    expect(formatSeconds(3 * 86_400 + 4 * 3600)).toBe(`3${NNBSP}j${NNBSP}4${NNBSP}h`);
  });

  it('groups thousands with a narrow no-break space and agrees singular and plural', () => {
    expect(countOf(10_000, 'excursion')).toBe(`10${NNBSP}000 excursions`);
    expect(countOf(1, 'excursion')).toBe('1 excursion');
    expect(countOf(0, 'rapport')).toBe('0 rapport');
    expect(unsignedLabel(2)).toBe('2 non signés');
    expect(unsignedLabel(1)).toBe('1 non signé');
  });

  it('writes dates and times on the site’s clock', () => {
    expect(formatSiteDateTime('2026-11-02T13:05:00.000Z', 'Europe/Paris')).toBe('02/11/2026 à 14\u202Fh\u202F05');
    expect(formatSiteDateTime('2026-07-02T13:05:00.000Z', 'Europe/Paris')).toBe('02/07/2026 à 15\u202Fh\u202F05');
    expect(onDateAt('2026-12-01T02:00:00.000Z', 'America/Martinique')).toBe('le 30/11/2026 à 22\u202Fh');
    // An unknown zone falls back to the browser's clock rather than failing.
    expect(formatSiteDateTime('2026-11-02T13:05:00.000Z', 'Nulle/Part')).toMatch(/^\d{2}\/\d{2}\/2026 à \d{1,2}\u202Fh(\u202F\d{2})?$/);
  });

  it('writes limits with their sign and the real minus', () => {
    expect(formatLimits(null, 4)).toBe(`≤ +4,0${NNBSP}°C`);
    expect(formatLimits(null, -18)).toBe(`≤ \u221218,0${NNBSP}°C`);
    expect(formatLimits(2, 8)).toBe(`+2,0${NNBSP}°C à +8,0${NNBSP}°C`);
    expect(formatLimits(0, null)).toBe(`≥ 0,0${NNBSP}°C`);
    expect(formatLimits(null, null)).toBe('Aucune limite');
  });

  it('shortens the fingerprint to its two ends', () => {
    const sha = 'a'.repeat(8) + 'b'.repeat(48) + 'c'.repeat(8);
    expect(shortHash(sha)).toBe('aaaaaaaa…cccccccc');
  });

  it('reads the current month on a given clock', () => {
    const newYear = new Date('2026-12-31T23:30:00.000Z');
    expect(currentMonth(newYear, 'Europe/Paris')).toBe('2027-01');
    expect(currentMonth(newYear, 'America/Martinique')).toBe('2026-12');
    expect(currentMonth(new Date(2026, 10, 18))).toBe('2026-11');
  });

  it('lists a month and the twelve finished ones before it, across the new year', () => {
    const months = recentMonths('2027-02');
    expect(months).toHaveLength(13);
    expect(months.slice(0, 4)).toEqual(['2027-02', '2027-01', '2026-12', '2026-11']);
    expect(months.at(-1)).toBe('2026-02');
    expect(recentMonths('2026-11', 2)).toEqual(['2026-11', '2026-10', '2026-09']);
    expect(recentMonths('n’importe quoi')).toEqual([]);
  });
});

describe('report list order', () => {
  const shop = '7c1f6a2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b';
  const depot = '8d2a7b3f-4c5e-4f6a-9b0c-1d2e3f4a5b6c';
  const make = (id: string, siteId: string, month: string, createdAt: string, signed = false): Report =>
    reportFixture({ id, siteId, month, createdAt, ...(signed ? { signedAt: createdAt, signedBy: null, signedByName: 'X' } : {}) });
  const names: Record<string, string> = { [shop]: 'Boutique Opéra', [depot]: 'Atelier Bastille' };

  it('lists per site and month, latest months first, every version kept newest first', () => {
    const reports = [
      make('r1', shop, '2026-10', '2026-11-01T02:00:00.000Z', true),
      make('r2', shop, '2026-11', '2026-11-18T10:00:00.000Z'),
      make('r3', depot, '2026-11', '2026-11-20T10:00:00.000Z'),
      make('r4', shop, '2026-11', '2026-11-25T10:00:00.000Z'),
    ];
    const groups = groupReports(reports, (id) => names[id] ?? '');
    expect(groups.map((group) => [group.month, names[group.siteId], group.versions.map((report) => report.id)])).toEqual([
      ['2026-11', 'Atelier Bastille', ['r3']],
      ['2026-11', 'Boutique Opéra', ['r4', 'r2']],
      ['2026-10', 'Boutique Opéra', ['r1']],
    ]);
  });

  it('counts the reports awaiting a signature: the latest version of each month, unsigned', () => {
    expect(
      awaitingSignature([
        make('r1', shop, '2026-10', '2026-11-01T02:00:00.000Z', true),
        make('r2', shop, '2026-11', '2026-11-18T10:00:00.000Z'),
        make('r4', shop, '2026-11', '2026-11-25T10:00:00.000Z'),
        make('r3', depot, '2026-11', '2026-11-20T10:00:00.000Z'),
      ]),
    ).toBe(2);
    // A newer version signed: the older unsigned one no longer waits.
    expect(
      awaitingSignature([
        make('r2', shop, '2026-11', '2026-11-18T10:00:00.000Z'),
        make('r4', shop, '2026-11', '2026-11-25T10:00:00.000Z', true),
      ]),
    ).toBe(0);
  });
});
