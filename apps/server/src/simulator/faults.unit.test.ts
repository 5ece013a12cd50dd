import { describe, expect, it } from 'vitest';
import {
  FAULT_KINDS,
  type Fault,
  type FaultKind,
  firstCrossing,
  labelledScenario,
  parseFaultOption,
  SCENARIO_START,
  scenarioSensor,
  standardScenarios,
} from './faults.ts';
import { defrostWindows, measure, SENSOR_DRIFT_PER_DAY } from './shop-model.ts';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const FROM = SCENARIO_START + 3 * DAY + 10 * HOUR;

const fridge = scenarioSensor('fridge', 7);
const temperature = (t: number, faults: Fault[] = []) => measure(fridge, t, 10, faults)['temperature'] as number;
const fault = (kind: FaultKind, hours: number, from = FROM): Fault => ({ kind, from, to: from + hours * HOUR });
const series = (from: number, to: number, faults: Fault[], stepMs = 10_000) => {
  const out: { ts: number; value: number }[] = [];
  for (let ts = from; ts < to; ts += stepMs) out.push({ ts, value: temperature(ts, faults) });
  return out;
};
const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

describe('faults of the simulated cold chain', () => {
  it('change nothing before they start', () => {
    for (const kind of FAULT_KINDS) {
      const faults = [fault(kind, 4)];
      for (let t = FROM - 6 * HOUR; t < FROM; t += 7 * MINUTE) expect(temperature(t, faults)).toBe(temperature(t));
    }
  });

  it('a failing compressor: longer and longer cycles, then past +8 °C a few hours after the start, and back once repaired', () => {
    const failing = fault('compressor_failing', 12);
    const readings = series(FROM - HOUR, failing.to + 6 * HOUR, [failing]);
    const crossing = firstCrossing(readings, 8) as number;
    expect(crossing).not.toBeNull();
    expect(crossing - failing.from).toBeGreaterThan(3 * HOUR);
    expect(crossing - failing.from).toBeLessThan(8 * HOUR);
    expect(firstCrossing(readings, 8, { after: crossing + 1 })).toBe(crossing + 10_000);
    // Warmer and warmer: each hour's mean above the one before, once the decline has started.
    const hourly = [1, 2, 3, 4].map((h) =>
      mean(readings.filter((r) => r.ts >= failing.from + h * HOUR && r.ts < failing.from + (h + 1) * HOUR).map((r) => r.value)),
    );
    expect(hourly[3]).toBeGreaterThan((hourly[0] ?? 0) + 0.5);
    const after = readings.filter((r) => r.ts >= failing.to + 4 * HOUR).map((r) => r.value);
    expect(Math.max(...after)).toBeLessThan(8);
    expect(mean(after)).toBeLessThan(4.5);
  });

  it('a door left open: the fridge settles about 4 °C warmer, and the door contact says open all along', () => {
    const open = fault('door_left_open', 2, SCENARIO_START + 3 * DAY + 21 * HOUR);
    const late = (faults: Fault[]) => mean(series(open.from + HOUR, open.to, faults).map((r) => r.value));
    expect(late([open]) - late([])).toBeGreaterThan(3.4);
    expect(late([open]) - late([])).toBeLessThan(4.2);
    const door = scenarioSensor('door', 7);
    for (let t = open.from; t < open.to; t += MINUTE) expect(measure(door, t, 60, [open])['open']).toBe(true);
    expect(measure(door, open.to + 5 * MINUTE, 60, [open])['open']).toBe(false);
  });

  it('a stuck defrost heats well beyond a defrost’s usual peak, then the unit pulls down', () => {
    const defrost = defrostWindows(fridge, FROM, FROM + DAY)[0];
    const stuck = fault('defrost_stuck', 3, defrost?.from);
    const readings = series(stuck.from, stuck.to + 4 * HOUR, [stuck]);
    expect(Math.max(...readings.filter((r) => r.ts < stuck.to).map((r) => r.value))).toBeGreaterThan(12);
    expect(Math.max(...readings.filter((r) => r.ts > stuck.to + 2 * HOUR).map((r) => r.value))).toBeLessThan(8);
    expect(defrostWindows(fridge, FROM, FROM + DAY, [stuck])[0]?.from).toBeGreaterThan(stuck.to);
  });

  it('a drifting probe: its offset grows steadily while the unit is fine', () => {
    const drift = fault('sensor_drift', 24);
    for (const hours of [1, 6, 12, 23]) {
      const t = drift.from + hours * HOUR;
      expect(temperature(t, [drift]) - temperature(t)).toBeCloseTo((SENSOR_DRIFT_PER_DAY * hours) / 24, 1);
    }
    expect(temperature(drift.to + HOUR, [drift])).toBe(temperature(drift.to + HOUR));
  });

  it('a stuck probe repeats the value it read at the start', () => {
    const stuck = fault('sensor_stuck', 6);
    const first = temperature(stuck.from);
    for (let t = stuck.from; t < stuck.to; t += 13 * MINUTE) expect(temperature(t, [stuck])).toBe(first);
    expect(temperature(stuck.to + HOUR, [stuck])).toBe(temperature(stuck.to + HOUR));
  });

  it('a power cut: the unit warms towards the shop’s air over hours, then cools back', () => {
    const cut = fault('power_cut', 4);
    const at = (minutes: number) => temperature(cut.from + minutes * MINUTE, [cut]);
    expect(at(30)).toBeGreaterThan(5);
    expect(at(30)).toBeLessThan(8.5);
    expect(at(120)).toBeGreaterThan(9);
    expect(at(239)).toBeGreaterThan(at(120));
    expect(at(239)).toBeLessThan(18);
    const after = series(cut.to + 2 * HOUR, cut.to + 5 * HOUR, [cut]).map((r) => r.value);
    expect(Math.max(...after)).toBeLessThan(8);
  });

  it('moves smoothly across the start and end of physical faults', () => {
    for (const kind of ['compressor_failing', 'door_left_open', 'defrost_stuck', 'power_cut'] as const) {
      const readings = series(FROM - HOUR, FROM + 10 * HOUR, [fault(kind, 5)]);
      for (let i = 1; i < readings.length; i += 1)
        expect(Math.abs((readings[i]?.value ?? 0) - (readings[i - 1]?.value ?? 0))).toBeLessThan(1.2);
    }
  });

  it('finds the first crossing of a threshold, above or below', () => {
    const readings = [1, 5, 9, 7, 10].map((value, i) => ({ ts: i * 1000, value }));
    expect(firstCrossing(readings, 8)).toBe(2000);
    expect(firstCrossing(readings, 8, { after: 3000 })).toBe(4000);
    expect(firstCrossing(readings, 12)).toBeNull();
    expect(firstCrossing(readings, 2, { direction: 'below' })).toBe(0);
  });

  it('reads the simulator’s --fault option', () => {
    expect(parseFaultOption('compressor_failing')).toEqual({ kind: 'compressor_failing', serial: null });
    expect(parseFaultOption('power_cut:DEMO-S001')).toEqual({ kind: 'power_cut', serial: 'DEMO-S001' });
    expect(() => parseFaultOption('meteor')).toThrow(/Panne inconnue/);
  });
});

describe('labelled scenarios', () => {
  it('cover every kind of fault on several fridges, each after three days of healthy history, at different times of day', () => {
    const specs = standardScenarios();
    for (const kind of FAULT_KINDS) {
      const withKind = specs.filter((spec) => spec.profile === 'fridge' && spec.faults?.some((f) => f.kind === kind));
      expect(withKind.length).toBeGreaterThanOrEqual(3);
      expect(new Set(withKind.map((spec) => spec.seed)).size).toBe(withKind.length);
      const hours = new Set(withKind.map((spec) => new Date(spec.faults?.[0]?.from ?? 0).getUTCHours()));
      expect(hours.size).toBe(withKind.length);
      for (const spec of withKind)
        for (const f of spec.faults ?? []) {
          expect(f.from - SCENARIO_START).toBeGreaterThanOrEqual(3 * DAY);
          expect(f.to).toBeLessThanOrEqual(SCENARIO_START + spec.days * DAY);
        }
    }
    const healthy = specs.filter((spec) => !spec.faults?.length);
    expect(healthy.map((spec) => [spec.profile, spec.days])).toEqual([
      ['fridge', 7],
      ['freezer', 7],
    ]);
    expect(specs.some((spec) => spec.profile === 'door' && spec.faults?.[0]?.kind === 'door_left_open')).toBe(true);
  });

  it('generate the readings, the faults and the defrosts that happened', () => {
    const scenario = labelledScenario({
      profile: 'fridge',
      seed: 3,
      days: 2,
      stepSeconds: 60,
      faults: [fault('power_cut', 2, SCENARIO_START + DAY + 12 * HOUR)],
    });
    expect(scenario.readings).toHaveLength(2 * 1440);
    expect(scenario.readings[1]?.ts).toBe(SCENARIO_START + MINUTE);
    // Eight defrosts in two days, less the one the power cut prevented.
    expect(scenario.defrosts).toHaveLength(7);
    const door = labelledScenario({ profile: 'door', seed: 3, days: 1, stepSeconds: 60 });
    expect(new Set(door.readings.map((r) => r.value))).toEqual(new Set([0, 1]));
  });
});
