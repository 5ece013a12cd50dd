import { describe, expect, it } from 'vitest';
import { formatAge, formatMeasure, mainMeasureKey, secondaryMeasureKey } from '@/lib/measure-format';

const NNBSP = '\u202F';
const now = Date.parse('2024-06-01T12:00:00Z');

describe('formatMeasure', () => {
  it('writes each known measure with its unit after a narrow no-break space, in French notation', () => {
    expect(formatMeasure('temperature', 4.25)).toBe(`4,3${NNBSP}°C`);
    expect(formatMeasure('temperature', -18)).toBe(`\u221218,0${NNBSP}°C`);
    expect(formatMeasure('humidity', 54.4)).toBe(`54${NNBSP}%`);
    expect(formatMeasure('co2', 1250)).toBe(`1${NNBSP}250${NNBSP}ppm`);
    expect(formatMeasure('visitors', 37)).toBe(`37${NNBSP}visiteurs`);
    expect(formatMeasure('battery', 87)).toBe(`87${NNBSP}%`);
    expect(formatMeasure('rssi', -71)).toBe(`\u221271${NNBSP}dBm`);
  });

  it('writes the French singular for 0 and 1 visitor', () => {
    expect(formatMeasure('visitors', 0)).toBe(`0${NNBSP}visiteur`);
    expect(formatMeasure('visitors', 1)).toBe(`1${NNBSP}visiteur`);
    expect(formatMeasure('visitors', 2)).toBe(`2${NNBSP}visiteurs`);
  });

  it('shows a measure with the same decimals everywhere and groups thousands', () => {
    expect(formatMeasure('temperature', 4)).toBe(`4,0${NNBSP}°C`);
    expect(formatMeasure('visitors', 10000)).toBe(`10${NNBSP}000${NNBSP}visiteurs`);
  });

  it('says whether a door is open', () => {
    expect(formatMeasure('open', 1)).toBe('Ouverte');
    expect(formatMeasure('open', 0)).toBe('Fermée');
  });

  it('shows an unknown measure raw', () => {
    expect(formatMeasure('pressure', 1013.25)).toBe(`1${NNBSP}013,25`);
  });
});

describe('mainMeasureKey', () => {
  it('puts a known measure before battery and signal', () => {
    expect(mainMeasureKey({ battery: 1, rssi: 1, humidity: 1, temperature: 1 })).toBe('temperature');
    expect(mainMeasureKey({ battery: 1, pressure: 1 })).toBe('pressure');
    expect(mainMeasureKey({ battery: 1 })).toBe('battery');
    expect(mainMeasureKey({})).toBeNull();
  });
});

describe('formatAge', () => {
  it('says how long ago in French', () => {
    expect(formatAge(now - 5_000, now)).toBe('à l’instant');
    expect(formatAge(now - 40_000, now)).toBe('il\u00A0y\u00A0a\u00A040\u00A0s');
    expect(formatAge(now - 2 * 60_000, now)).toBe('il\u00A0y\u00A0a\u00A02\u00A0min');
    expect(formatAge(new Date(now - 3 * 3600_000).toISOString(), now)).toBe('il\u00A0y\u00A0a\u00A03\u00A0h');
    expect(formatAge(now - 5 * 86400_000, now)).toMatch(/^il\u00A0y\u00A0a\u00A05\u00A0j/);
  });
});

describe('secondaryMeasureKey', () => {
  it('gives a cold room’s humidity beside its temperature, and nothing for a lone measure or battery and signal', () => {
    expect(secondaryMeasureKey({ temperature: 1, humidity: 1, battery: 1 }, 'temperature')).toBe('humidity');
    expect(secondaryMeasureKey({ temperature: 1, battery: 1, rssi: 1 }, 'temperature')).toBeNull();
    expect(secondaryMeasureKey({ open: 1 }, 'open')).toBeNull();
    expect(secondaryMeasureKey({ probe_temperature: 1, temperature: 1 }, 'probe_temperature')).toBeNull();
    expect(secondaryMeasureKey({}, null)).toBeNull();
  });
});
