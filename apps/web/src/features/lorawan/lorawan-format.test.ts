import type { IntegrationType } from '@vigie/contract';
import { describe, expect, it } from 'vitest';
import {
  codecLabel,
  codecMeasuresText,
  decodedValueText,
  defaultSensorName,
  formatDevEui,
  formatRssi,
  formatSnr,
  INTEGRATION_TYPE_LABELS,
  integrationSteps,
  isPastedCodec,
  pendingModelText,
  seenText,
  suggestedUse,
} from './lorawan-format';

const em300 = { id: 'milesight-em300-th', vendor: 'Milesight', model: 'EM300-TH', measures: ['temperature', 'humidity', 'battery'] };

describe('LoRaWAN wording', () => {
  it('writes a DevEUI as on a label, in groups of four', () => {
    expect(formatDevEui('24e124136b502217')).toBe('24E1 2413 6B50 2217');
    expect(formatDevEui('24-E1-24-13-6B-50-22-17')).toBe('24E1 2413 6B50 2217');
    expect(formatDevEui('not-a-deveui')).toBe('not-a-deveui');
  });

  it('names codecs, their measures and a detected device’s model', () => {
    expect(codecLabel(em300)).toBe('Milesight EM300-TH');
    expect(codecLabel({ id: 'network', vendor: 'Serveur de réseau', model: 'Décodage fait par le serveur de réseau' })).toBe(
      'Décodage fait par le serveur de réseau',
    );
    const pasted = { id: 'custom:3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b', vendor: 'Décodeur de l’organisation', model: 'EM300 maison' };
    expect(codecLabel(pasted)).toBe('EM300 maison (décodeur de l’organisation)');
    expect(isPastedCodec(pasted)).toBe(true);
    expect(isPastedCodec(em300)).toBe(false);
    expect(codecMeasuresText(em300)).toBe('Température, humidité, batterie');
    expect(pendingModelText({ brand: 'milesight-iot', model: 'em300-th' }, em300)).toBe('Milesight EM300-TH');
    expect(pendingModelText({ brand: 'acme', model: 'x1' }, undefined)).toBe('acme x1');
    expect(pendingModelText({ brand: null, model: null }, undefined)).toBeNull();
  });

  it('proposes a name and a use', () => {
    expect(defaultSensorName('24e124136b502217', 'EM300-TH')).toBe('EM300-TH 502217');
    expect(defaultSensorName('24e124136b502217', null)).toBe('Capteur LoRaWAN 502217');
    expect(suggestedUse(em300)).toBe('chilled_very_perishable');
    expect(suggestedUse({ measures: ['open', 'temperature'] })).toBe('door');
    expect(suggestedUse({ measures: ['co2'] })).toBe('none');
    expect(suggestedUse(undefined)).toBe('none');
  });

  it('writes counts and the radio signal in French', () => {
    expect(seenText(1)).toBe('Vu 1 fois');
    expect(seenText(1200)).toBe('Vu 1\u202F200 fois');
    expect(formatRssi(-87)).toBe('\u221287\u00A0dBm');
    expect(formatSnr(9.5)).toBe('9,5\u00A0dB');
    expect(formatSnr(-2)).toBe('\u22122\u00A0dB');
  });

  it('writes a pasted codec’s decoded values as exact as they came', () => {
    expect(decodedValueText('temperature', 30.8)).toBe('30,8\u202F°C');
    expect(decodedValueText('humidity', 50.5)).toBe('50,5\u202F%');
    expect(decodedValueText('battery', 92)).toBe('92\u202F%');
    expect(decodedValueText('temperature', -18.25)).toBe('\u221218,25\u202F°C');
    expect(decodedValueText('open', 1)).toBe('Ouverte (1)');
    expect(decodedValueText('pressure', 1013.123456789)).toBe('1\u202F013,123457');
  });

  it('tells, for every network server, where to paste the address and the secret', () => {
    // Every type has its label (the record is checked against the contract's types).
    const types = Object.keys(INTEGRATION_TYPE_LABELS) as IntegrationType[];
    expect(types).toEqual(['tts', 'chirpstack', 'thingpark', 'liveobjects', 'loriot', 'helium']);
    for (const type of types) {
      const steps = integrationSteps(type).join(' ');
      expect(steps, type).toContain('l’adresse ci-dessus');
      expect(steps, type).toMatch(/Authorization.*Bearer suivi du secret/);
    }
    expect(integrationSteps('thingpark').join(' ')).toContain('JSON (pas XML)');
    expect(integrationSteps('loriot')[0]).toBe('Dans votre application Loriot, ouvrez Output → Add new output → HTTP Push.');
  });
});
