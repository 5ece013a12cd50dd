import { describe, expect, it } from 'vitest';
import { offlineText } from './offline-text';

const PARIS = 'Europe/Paris';
const NNBSP = '\u202F';
// 14 h 02 in Paris on 12 March 2026 (UTC+1).
const at1402 = Date.parse('2026-03-12T13:02:00Z');

describe('offline banner text', () => {
  it('gives the time of the last values, as a French clock reads it', () => {
    expect(offlineText(at1402, at1402 + 3_600_000, PARIS)).toBe(`Hors connexion — dernières valeurs de 14${NNBSP}h${NNBSP}02`);
    expect(offlineText(Date.parse('2026-03-12T08:00:00Z'), at1402, PARIS)).toBe(`Hors connexion — dernières valeurs de 9${NNBSP}h`);
  });

  it('names the day when it is not today', () => {
    expect(offlineText(at1402, at1402 + 86_400_000, PARIS)).toBe(`Hors connexion — dernières valeurs d’hier à 14${NNBSP}h${NNBSP}02`);
    expect(offlineText(at1402, at1402 + 5 * 86_400_000, PARIS)).toBe(
      `Hors connexion — dernières valeurs du 12\u00A0mars à 14${NNBSP}h${NNBSP}02`,
    );
  });

  it('says only « Hors connexion » when their age is unknown', () => {
    expect(offlineText(null, at1402, PARIS)).toBe('Hors connexion');
    expect(offlineText(Number.NaN, at1402, PARIS)).toBe('Hors connexion');
  });
});
