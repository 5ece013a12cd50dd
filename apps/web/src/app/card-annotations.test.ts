import type { Pause, Rule } from '@vigie/contract';
import { describe, expect, it } from 'vitest';
import { limitOfSensor, pauseLabel } from './card-annotations';

const SENSOR = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';
const SITE = '33333333-3333-4333-8333-333333333333';
const NNBSP = '\u202F';

const rule = (overrides: Partial<Rule>): Rule => ({
  id: '44444444-4444-4444-8444-444444444444',
  name: 'Règle',
  enabled: true,
  sensorId: null,
  siteId: null,
  condition: { type: 'above', key: 'temperature', threshold: 8 },
  delaySeconds: 300,
  hysteresis: 0.5,
  schedule: 'always',
  severity: 'critical',
  preset: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  ...overrides,
});
const fridge = {
  id: SENSOR,
  siteId: SITE,
  name: 'Meuble crèmerie 1',
  latest: { temperature: { value: 3.8, ts: '2026-11-28T08:00:00.000Z' } },
};

describe('limitOfSensor', () => {
  it('takes the sensor’s own limit before its shop’s, and skips what is not a limit of the value', () => {
    const rules = [
      rule({ siteId: SITE, condition: { type: 'above', key: 'temperature', threshold: 8 } }),
      rule({ sensorId: SENSOR, condition: { type: 'offline' } }),
      rule({ sensorId: SENSOR, condition: { type: 'predicted_above', key: 'temperature', threshold: 4, withinMinutes: 60 } }),
      rule({ sensorId: SENSOR, condition: { type: 'above', key: 'temperature', threshold: 4 } }),
    ];
    expect(limitOfSensor(rules, fridge)).toEqual({ key: 'temperature', words: `≤ +4,0${NNBSP}°C`, limits: [4] });
    expect(limitOfSensor(rules.slice(0, 3), fridge)?.words).toBe(`≤ +8,0${NNBSP}°C`);
  });

  it('ignores a disabled rule, another sensor’s, and a shop rule on a measure the sensor does not report', () => {
    expect(limitOfSensor([rule({ sensorId: SENSOR, enabled: false })], fridge)).toBeNull();
    expect(limitOfSensor([rule({ sensorId: OTHER })], fridge)).toBeNull();
    expect(limitOfSensor([rule({ siteId: SITE, condition: { type: 'above', key: 'co2', threshold: 1000 } })], fridge)).toBeNull();
  });

  it('takes a template’s shop rule only for the units it aims at, by a word of their name (case and accents aside)', () => {
    const creamery = rule({
      siteId: SITE,
      sensorNameContains: ['CREMERIE'],
      condition: { type: 'above', key: 'temperature', threshold: 4 },
    });
    expect(limitOfSensor([creamery], fridge)?.words).toBe(`≤ +4,0${NNBSP}°C`);
    expect(limitOfSensor([creamery], { ...fridge, name: 'Vitrine boucherie' })).toBeNull();
    expect(limitOfSensor([creamery, rule({ siteId: SITE })], { ...fridge, name: 'Vitrine boucherie' })?.words).toBe(`≤ +8,0${NNBSP}°C`);
  });

  it('gives both lines of a range', () => {
    const range = rule({ sensorId: SENSOR, condition: { type: 'outside', key: 'temperature', min: 2, max: 8 } });
    expect(limitOfSensor([range], fridge)).toEqual({ key: 'temperature', words: `entre +2,0${NNBSP}°C et +8,0${NNBSP}°C`, limits: [2, 8] });
  });
});

describe('pauseLabel', () => {
  const now = Date.parse('2026-11-28T10:00:00.000Z');
  const pause = (overrides: Partial<Pause>): Pause => ({
    id: '55555555-5555-4555-8555-555555555555',
    sensorId: SENSOR,
    siteId: SITE,
    reason: 'Nettoyage',
    from: '2026-11-28T09:30:00.000Z',
    until: '2026-11-28T13:30:00.000Z',
    createdBy: null,
    ...overrides,
  });

  it('says until when, on the shop’s clock, and whether the whole shop is paused', () => {
    expect(pauseLabel([pause({})], fridge, 'Europe/Paris', now)).toBe(`En pause jusqu’à 14${NNBSP}h${NNBSP}30`);
    expect(pauseLabel([pause({ sensorId: null, until: '2026-11-29T07:00:00.000Z' })], fridge, 'Europe/Paris', now)).toBe(
      `Magasin en pause jusqu’à demain 8${NNBSP}h`,
    );
    expect(pauseLabel([pause({ sensorId: OTHER })], fridge, 'Europe/Paris', now)).toBeNull();
  });
});
