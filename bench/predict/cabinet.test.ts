import { describe, expect, it } from 'vitest';
import { type CabinetParams, DAY, drawCabinet, HOUR, MINUTE, simulate, wallConductance, warmest } from './cabinet.ts';
import { randomStream } from './random.ts';
import { buildScenario, sampleScenario } from './scenarios.ts';

const ORIGIN = Date.UTC(2026, 0, 5);

/** A cabinet in a still room, without doors or defrosts: only its physics. */
function still(): CabinetParams {
  const params = drawCabinet(randomStream('cabinet test', 1), ORIGIN, 'fridge');
  return {
    ...params,
    ambientSwing: 0,
    ambientDays: params.ambientDays.map(() => 0),
    doors: null,
    defrostEveryHours: 1e6,
    defrostOrigin: ORIGIN - DAY,
  };
}

/** The slow rate of the two heat capacities with the cooling off (per hour): the smaller eigenvalue of their system. */
function slowRate(p: CabinetParams): number {
  const k = wallConductance(p);
  const g = (p.airShare * (1 - p.airShare)) / p.couplingHours;
  const a = -(k + g) / p.airShare;
  const b = g / p.airShare;
  const c = g / (1 - p.airShare);
  const d = -g / (1 - p.airShare);
  const trace = a + d;
  const det = a * d - b * c;
  return -(trace + Math.sqrt(trace * trace - 4 * det)) / 2;
}

describe('cabinet model', () => {
  it('with the compressor stopped, warms toward the room exponentially, at the rate its time constant gives', () => {
    const p = still();
    const at = ORIGIN + 12 * HOUR;
    const trace = simulate(p, { kind: 'compressor_stop', at }, ORIGIN, at + 5 * p.tauHours * HOUR);
    const room = p.ambientMean;
    const gap = (t: number) => room - (trace.sensed[Math.round((t - ORIGIN) / trace.stepMs)] ?? Number.NaN);
    // Once the air has settled on the load (a few coupling times), ln(room − T) falls on a line.
    const from = at + 5 * p.couplingHours * HOUR;
    const hours = [0, 0.5, 1, 1.5, 2, 2.5, 3].map((f) => f * p.tauHours);
    const logs = hours.map((h) => Math.log(gap(from + h * HOUR)));
    const slope = ((logs.at(-1) as number) - (logs[0] as number)) / ((hours.at(-1) as number) - (hours[0] as number));
    for (const [i, h] of hours.entries()) expect(Math.abs((logs[i] as number) - ((logs[0] as number) + slope * h))).toBeLessThan(0.01);
    // The walls are sized for the slow rate to be 1/τ; the temperature follows it.
    expect(slowRate(p) * p.tauHours).toBeCloseTo(1, 6);
    expect(-slope * p.tauHours).toBeGreaterThan(0.98);
    expect(-slope * p.tauHours).toBeLessThan(1.02);
    expect(gap(at + 5 * p.tauHours * HOUR - trace.stepMs)).toBeLessThan(0.02 * gap(at));
  });

  it('cycles its compressor 30 to 60 % of the time or near it, and holds a healthy unit below its limit through its defrosts', () => {
    for (let seed = 0; seed < 12; seed += 1) {
      const p = drawCabinet(randomStream('cabinet test', 'duty', seed), ORIGIN);
      const trace = simulate(p, null, ORIGIN, ORIGIN + 4 * DAY);
      let on = 0;
      let counted = 0;
      let starts = 0;
      const settled = (12 * HOUR) / trace.stepMs;
      for (let i = settled; i < trace.running.length; i += 1) {
        if (trace.defrosting[i]) continue;
        counted += 1;
        on += trace.running[i] ?? 0;
        if (trace.running[i] && !trace.running[i - 1]) starts += 1;
      }
      const duty = on / counted;
      expect(duty, `graine ${seed}`).toBeGreaterThan(0.25);
      expect(duty, `graine ${seed}`).toBeLessThan(0.8);
      // Between 1 and 12 compressor starts an hour.
      const perHour = starts / ((counted * trace.stepMs) / HOUR);
      expect(perHour).toBeGreaterThan(0.5);
      expect(perHour).toBeLessThan(12);
      expect(warmest(trace, ORIGIN + 12 * HOUR, ORIGIN + 4 * DAY)).toBeLessThan(p.limit - 0.5);
    }
  });

  it('reports at the cadence asked, to 0,1 °C, and a frozen sensor repeats its last value', () => {
    const scenario = buildScenario(7, 'sensor_frozen', 0);
    for (const cadence of [1, 5, 10, 15]) {
      const { readings } = sampleScenario(7, scenario, cadence);
      for (const r of readings) {
        expect(Math.abs(r.value * 10 - Math.round(r.value * 10))).toBeLessThan(1e-9);
        expect(r.arrival).toBeGreaterThanOrEqual(r.ts);
      }
      const steps = readings.slice(1).map((r, i) => r.ts - (readings[i]?.ts ?? 0));
      steps.sort((a, b) => a - b);
      expect(Math.abs((steps[Math.floor(steps.length / 2)] ?? 0) - cadence * MINUTE)).toBeLessThan(0.05 * cadence * MINUTE);
      const after = new Set(readings.filter((r) => r.ts >= scenario.onset).map((r) => r.value));
      expect(after.size).toBe(1);
      // A week of history at least before the fault.
      expect(scenario.onset - (readings[0]?.ts ?? Infinity)).toBeGreaterThan(7 * DAY);
    }
  });

  it('draws the same scenarios from the same seed, others from another, and keeps the faults it promises', () => {
    const a = buildScenario(11, 'compressor_stop', 2);
    const b = buildScenario(11, 'compressor_stop', 2);
    const c = buildScenario(12, 'compressor_stop', 2);
    expect(a.params).toEqual(b.params);
    expect(Array.from(a.trace.sensed.slice(0, 1000))).toEqual(Array.from(b.trace.sensed.slice(0, 1000)));
    expect(c.params.setpoint).not.toBe(a.params.setpoint);
    for (const scenario of [a, c]) {
      const after = (scenario.crossing ?? Infinity) - scenario.onset;
      expect(after).toBeGreaterThanOrEqual(90 * MINUTE);
      expect(after).toBeLessThanOrEqual(8 * HOUR);
    }
    const drift = buildScenario(11, 'sensor_drift', 0);
    // The cabinet is fine: the probe's true temperature never crosses the limit.
    expect(drift.crossing).toBeNull();
    const healthy = buildScenario(11, 'healthy', 0);
    expect(healthy.crossing).toBeNull();
  });
});
