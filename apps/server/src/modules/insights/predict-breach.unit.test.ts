import type { Rule } from '@vigie/contract';
import { describe, expect, it } from 'vitest';
import { predictBreach, STEP_MS } from './insights-compute.ts';

const rule: Rule = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Froid positif',
  enabled: true,
  sensorId: '00000000-0000-4000-8000-000000000002',
  siteId: null,
  condition: { type: 'above', key: 'temperature', threshold: 8 },
  delaySeconds: 0,
  hysteresis: 0.5,
  schedule: 'always',
  severity: 'critical',
  preset: 'chilled_perishable',
  createdAt: new Date(0).toISOString(),
  updatedAt: new Date(0).toISOString(),
};

describe('the predicted breach', () => {
  const start = Date.UTC(2026, 10, 28, 14, 0);
  const forecast = [6, 6.8, 7.6, 8.4, 9.2].map((value, i) => ({
    ts: new Date(start + i * STEP_MS).toISOString(),
    value,
    low: value - 1,
    high: value + 1,
  }));

  it('places the crossing between the middles of the buckets either side of the limit, to the minute', () => {
    // 7,6 °C at 14 h 12 min 30 s, 8,4 °C at 14 h 17 min 30 s: +8 °C halfway, at 14 h 15.
    expect(predictBreach([rule], 'temperature', forecast)).toMatchObject({
      ruleId: rule.id,
      threshold: 8,
      eta: new Date(Date.UTC(2026, 10, 28, 14, 15)).toISOString(),
    });
  });

  it('gives the start of the forecast when its first bucket is already beyond, and nothing when none is', () => {
    const beyond = forecast.map((point) => ({ ...point, value: point.value + 3 }));
    expect(predictBreach([rule], 'temperature', beyond)?.eta).toBe(new Date(start).toISOString());
    const within = forecast.map((point) => ({ ...point, value: point.value - 3 }));
    expect(predictBreach([rule], 'temperature', within)).toBeNull();
    expect(predictBreach([{ ...rule, enabled: false }], 'temperature', forecast)).toBeNull();
  });

  it('gives the hours the interval allows and the chance of crossing', () => {
    // high = value + 1 crosses 8 a quarter of the way from 7,8 (14 h 7 min 30 s) to 8,6 (14 h 12 min 30 s): 14 h 9
    // (to the minute); low = value − 1 three quarters of the way from 7,4 (14 h 17 min 30 s) to 8,2: 14 h 21.
    const breach = predictBreach([rule], 'temperature', forecast);
    expect(breach?.earliest).toBe(new Date(Date.UTC(2026, 10, 28, 14, 9)).toISOString());
    expect(breach?.latest).toBe(new Date(Date.UTC(2026, 10, 28, 14, 21)).toISOString());
    // The last point stands 1,2 K beyond with σ = 1/1,2816: Φ(1,54) ≈ 0,938.
    expect(breach?.probability).toBeCloseTo(0.938, 2);
    // A favourable side that never crosses: no latest, and a smaller chance.
    const wide = forecast.map((point) => ({ ...point, low: point.value - 3, high: point.value + 3 }));
    const uncertain = predictBreach([rule], 'temperature', wide);
    expect(uncertain?.latest).toBeNull();
    expect(uncertain?.probability).toBeLessThan(0.75);
    expect(uncertain?.earliest).toBe(new Date(start).toISOString());
  });
});
