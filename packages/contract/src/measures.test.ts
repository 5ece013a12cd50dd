import { describe, expect, it } from 'vitest';
import { MEASURE_RANGES, measureNameProblem, measureRange, measureValueProblem } from './measures.ts';

describe('measures (docs/protocole-appareils.md, Mesures : noms et plages)', () => {
  it('keeps each named measure within its range, its bounds included, and any other within ±10⁹', () => {
    expect(measureValueProblem('temperature', -100)).toBeNull();
    expect(measureValueProblem('temperature', 200)).toBeNull();
    expect(measureValueProblem('temperature', 200.01)).toBe(
      'la mesure « temperature » vaut 200,01, hors de sa plage physique (de −100 à 200 °C)',
    );
    expect(measureValueProblem('temperature', 1e200)).toBe(
      'la mesure « temperature » vaut 1 × 10^200, hors de sa plage physique (de −100 à 200 °C)',
    );
    expect(measureValueProblem('humidity', -0.1)).toMatch(/de 0 à 100 %\)$/);
    expect(measureValueProblem('door', 1)).toBeNull();
    expect(measureValueProblem('door', 0.5)).toBe('la mesure « door » vaut 0,5 : 0 ou 1 (ou un booléen) est attendu');
    expect(measureValueProblem('ma_jauge', -1e9)).toBeNull();
    expect(measureValueProblem('ma_jauge', 1.5e9)).toMatch(/de −1 × 10\^9 à 1 × 10\^9\)$/);
    for (const [name, range] of MEASURE_RANGES) expect(range.min, name).toBeLessThan(range.max);
    // The ranges are read from a map: a name of the object prototype is no measure of its own.
    expect(measureRange('constructor')).toEqual({ min: -1e9, max: 1e9, unit: '' });
  });

  it('follows one grammar for names, and refuses those of the object prototype', () => {
    for (const name of ['temperature', 'co2', 'probe_temperature', 'a', 'x'.repeat(32)]) expect(measureNameProblem(name), name).toBeNull();
    for (const name of ['Temperature', '_x', '9lives', 'x'.repeat(33), 'temp rature', '__proto__', '']) {
      expect(measureNameProblem(name), name).toMatch(/^nom de mesure « .* » invalide/);
    }
    for (const name of ['constructor', 'prototype', 'tostring', 'valueof', 'hasownproperty']) {
      expect(measureNameProblem(name), name).toBe(`nom de mesure « ${name} » réservé : choisissez-en un autre`);
    }
  });
});
