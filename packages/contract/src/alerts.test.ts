import { describe, expect, it } from 'vitest';
import { nameHoldsOneOf, ruleWatches } from './alerts.ts';

describe('nameHoldsOneOf', () => {
  it.each([
    [['crèmerie'], 'Meuble CRE\u0300MERIE 1', true],
    [['Crémerie'], 'Vitrine crèmerie', true],
    [['yaourt'], 'Yaourts libre-service', true],
    [['boeuf'], 'Vitrine bœuf', true],
    [['cœur'], 'Coeur de gamme', true],
    [['froid  positif'], 'Froid positif 2', true],
    [['boucherie'], 'Vitrine crèmerie', false],
    [[], 'Surface de vente', true],
  ] as const)('%j in « %s »: %s', (words, name, expected) => {
    expect(nameHoldsOneOf(words, name)).toBe(expected);
  });
});

describe('ruleWatches', () => {
  const sensor = { id: 's1', siteId: 'lyon', name: 'Meuble crèmerie' };
  it('watches its own sensor, and its site’s sensors whose name holds one of its words', () => {
    expect(ruleWatches({ sensorId: 's1', siteId: null }, sensor)).toBe(true);
    expect(ruleWatches({ sensorId: 's2', siteId: null }, sensor)).toBe(false);
    expect(ruleWatches({ sensorId: null, siteId: 'lyon' }, sensor)).toBe(true);
    expect(ruleWatches({ sensorId: null, siteId: 'lyon', sensorNameContains: ['boucherie'] }, sensor)).toBe(false);
    expect(ruleWatches({ sensorId: null, siteId: 'lille', sensorNameContains: ['crèmerie'] }, sensor)).toBe(false);
    expect(ruleWatches({ sensorId: null, siteId: null }, sensor)).toBe(false);
  });
});
