import { describe, expect, it } from 'vitest';
import { sensorUse } from './sensor-use';

const at = (values: Record<string, number>) => ({
  latest: Object.fromEntries(Object.entries(values).map(([key, value]) => [key, { value, ts: '2026-11-28T08:00:00.000Z' }])),
});

describe('sensorUse', () => {
  it('reads a cold unit from its limit first, then from its temperature', () => {
    expect(sensorUse(at({ temperature: 3.8 }), 4)).toBe('fridge');
    expect(sensorUse(at({ temperature: -19 }), -18)).toBe('freezer');
    // A freezer defrosting at +2 °C stays a freezer: its limit says it.
    expect(sensorUse(at({ temperature: 2 }), -18)).toBe('freezer');
    expect(sensorUse(at({ temperature: -21 }))).toBe('freezer');
    expect(sensorUse(at({ temperature: 5.2, humidity: 60 }))).toBe('fridge');
    expect(sensorUse(at({ temperature: 21 }))).toBe('ambient');
    // Installed, nothing received yet, held to +8 °C.
    expect(sensorUse(at({}), 8)).toBe('fridge');
  });

  it('knows doors, counters and air quality by their measures', () => {
    expect(sensorUse(at({ open: 0, battery: 80 }))).toBe('door');
    expect(sensorUse(at({ door: 1, temperature: 4 }))).toBe('door');
    expect(sensorUse(at({ visitors: 148 }))).toBe('footfall');
    expect(sensorUse(at({ co2: 1240, temperature: 22 }))).toBe('air');
    expect(sensorUse(at({ humidity: 55 }))).toBe('humidity');
    expect(sensorUse(at({ rssi: -70 }))).toBe('other');
  });
});
