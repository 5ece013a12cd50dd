import { describe, expect, it } from 'vitest';
import { defrostWindows, measure, nextDefrost, shopSensors, type SimulatedSensor } from './shop-model.ts';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const START = Date.parse('2026-03-02T00:00:00+01:00');

const sensors = shopSensors('TEST', 8);
const fridges = sensors.filter((sensor) => sensor.profile === 'fridge');
const freezer = sensors.find((sensor) => sensor.profile === 'freezer') as SimulatedSensor;

function temperatures(sensor: SimulatedSensor, from: number, to: number, stepMs: number): { ts: number; value: number }[] {
  const out: { ts: number; value: number }[] = [];
  for (let ts = from; ts < to; ts += stepMs) out.push({ ts, value: measure(sensor, ts, stepMs / 1000)['temperature'] as number });
  return out;
}

/** Paris wall-clock hour and minute of an instant. */
function parisTime(t: number): { hour: number; minute: number } {
  const [hour = 0, minute = 0] = new Date(t)
    .toLocaleTimeString('en-GB', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    .split(':')
    .map(Number);
  return { hour, minute };
}

describe('the shop model', () => {
  it('gives the same values for the same serial and instant, whatever was asked before', () => {
    const t = START + 3.3 * DAY;
    const first = measure(fridges[0] as SimulatedSensor, t, 10);
    for (let s = t - 12 * HOUR; s < t + 12 * HOUR; s += 7 * MINUTE) measure(fridges[0] as SimulatedSensor, s, 10);
    expect(measure(fridges[0] as SimulatedSensor, t, 10)).toEqual(first);
  });

  it('keeps a healthy fridge between its setpoints, around 3.6 °C, and never above +8 °C, defrosts and doors included', () => {
    for (const fridge of fridges) {
      const values = temperatures(fridge, START, START + 14 * DAY, 20_000).map((r) => r.value);
      const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
      expect(mean).toBeGreaterThan(3.3);
      expect(mean).toBeLessThan(3.9);
      expect(Math.max(...values)).toBeLessThanOrEqual(8);
      expect(Math.min(...values)).toBeGreaterThan(1.5);
    }
  });

  it('keeps a healthy freezer at or below −18 °C (never ten minutes above it)', () => {
    const readings = temperatures(freezer, START, START + 14 * DAY, 20_000);
    const mean = readings.reduce((sum, r) => sum + r.value, 0) / readings.length;
    expect(mean).toBeGreaterThan(-21.5);
    expect(mean).toBeLessThan(-20.5);
    let since: number | null = null;
    let longest = 0;
    for (const r of readings) {
      if (r.value > -18) {
        since ??= r.ts;
        longest = Math.max(longest, r.ts - since);
      } else since = null;
    }
    expect(longest).toBeLessThan(10 * MINUTE);
  });

  it('cycles its compressor every 20 to 25 minutes', () => {
    for (const fridge of fridges) {
      // A night without defrost: 02:00–06:00, the shop closed.
      const night = temperatures(fridge, START + 2 * HOUR, START + 6 * HOUR, 10_000);
      let cycles = 0;
      let armed = false;
      for (const r of night) {
        if (r.value < 3) armed = true;
        if (armed && r.value > 4.2) {
          cycles += 1;
          armed = false;
        }
      }
      expect(cycles).toBeGreaterThanOrEqual(9);
      expect(cycles).toBeLessThanOrEqual(12);
    }
  });

  it('defrosts four times a day at fixed local times, summer and winter, up to about 6.5 °C', () => {
    const fridge = fridges[0] as SimulatedSensor;
    for (const day of [Date.parse('2026-01-15T00:00:00+01:00'), Date.parse('2026-07-15T00:00:00+02:00')]) {
      const windows = defrostWindows(fridge, day, day + DAY);
      expect(windows).toHaveLength(4);
      expect(windows.map((w) => parisTime(w.from).hour)).toEqual([1, 7, 13, 19]);
      const minute = parisTime(windows[0]?.from ?? 0).minute;
      expect(windows.every((w) => parisTime(w.from).minute === minute)).toBe(true);
      for (const w of windows) {
        expect((w.to - w.from) / MINUTE).toBeGreaterThan(25);
        expect((w.to - w.from) / MINUTE).toBeLessThan(50);
        const peak = Math.max(...temperatures(fridge, w.from, w.to, 10_000).map((r) => r.value));
        expect(peak).toBeGreaterThan(6);
        expect(peak).toBeLessThanOrEqual(8);
      }
    }
    expect(nextDefrost(fridge, START)).toBe(defrostWindows(fridge, START, START + DAY)[0]?.from);
    expect(nextDefrost(sensors.find((s) => s.profile === 'door') as SimulatedSensor, START)).toBeNull();
  });
});
