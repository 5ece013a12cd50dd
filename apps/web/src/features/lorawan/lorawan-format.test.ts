import { describe, expect, it } from 'vitest';
import {
  codecLabel,
  codecMeasuresText,
  defaultSensorName,
  formatDevEui,
  formatRssi,
  formatSnr,
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
});
