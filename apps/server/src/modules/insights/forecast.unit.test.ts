import { describe, expect, it } from 'vitest';
import {
  type FitOptions,
  type HoltWintersModel,
  type Series,
  detectPeriod,
  fillShortGaps,
  fitHoltWinters,
  forecastHoltWinters,
  mase,
  normalQuantile,
  resample,
  seasonalNaive,
  updateHoltWinters,
} from './forecast.ts';
import { random } from './anomaly-fixtures.ts';

function gaussian(rand: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
}

function fit(series: Series, options: FitOptions): HoltWintersModel {
  const model = fitHoltWinters(series, options);
  if (!model) throw new Error('no model');
  return model;
}

function next(model: HoltWintersModel, h: number) {
  const f = forecastHoltWinters(model, h)[h - 1];
  if (!f) throw new Error('no forecast');
  return f;
}

const sine = (n: number, p: number, from = 0) => Array.from({ length: n }, (_, i) => 5 + 2 * Math.sin((2 * Math.PI * (i + from)) / p));

describe('resample', () => {
  it('averages each bucket and leaves empty buckets null', () => {
    const readings = [
      { ts: 0, value: 1 },
      { ts: 100, value: 3 },
      { ts: 1000, value: 10 },
      { ts: 3500, value: 7 },
      { ts: 4000, value: 99 },
    ];
    expect(resample(readings, 1000, 0, 4000)).toEqual([2, 10, null, 7]);
  });

  it('fills gaps of one or two buckets for fitting, never a longer one', () => {
    expect(fillShortGaps([1, null, 3, null, null, 6, null, null, null, 10, null])).toEqual([1, 2, 3, 4, 5, 6, null, null, null, 10, null]);
  });
});

describe('seasonal naive and MASE', () => {
  it('repeats the last season', () => {
    expect(seasonalNaive([1, 2, 3, 4, 5, 6], 3, 5)).toEqual([4, 5, 6, 4, 5]);
    expect(seasonalNaive([1, 2, 3, null, 5, 6], 3, 1)).toEqual([1]);
  });

  it('scales the error by the in-sample seasonal-naive error', () => {
    const training = [0, 1, 0, 3];
    // Seasonal-naive (m = 1) in-sample MAE: (1 + 1 + 3) / 3.
    expect(mase([2, 4], [1, 5], training, 1)).toBeCloseTo(1 / (5 / 3), 10);
    expect(mase([2, null], [1, 5], training, 1)).toBeCloseTo(1 / (5 / 3), 10);
    expect(Number.isNaN(mase([1], [1], [2, 2, 2], 1))).toBe(true);
  });
});

describe('period detection', () => {
  it('finds the period of a sine, and the bucket count where a 22-minute cycle comes back in phase at 5-minute steps', () => {
    const rand = random(1);
    const noisy = sine(2000, 24).map((v) => v + 0.2 * gaussian(rand));
    expect(detectPeriod(noisy, 2, 200)).toBe(24);
    const compressor = Array.from({ length: 2000 }, (_, i) => Math.sin((2 * Math.PI * i * 5) / 22) + 0.1 * gaussian(rand));
    expect(detectPeriod(compressor, 2, 288)).toBe(22);
  });

  it('finds nothing in white noise', () => {
    const rand = random(2);
    expect(
      detectPeriod(
        Array.from({ length: 2000 }, () => gaussian(rand)),
        2,
        200,
      ),
    ).toBeNull();
  });
});

describe('Holt-Winters', () => {
  it('forecasts a pure sine almost perfectly', () => {
    const p = 24;
    const model = fit(sine(24 * 10, p), { periods: [p], horizon: 48 });
    expect(model.period).toBe(p);
    const forecast = forecastHoltWinters(model, 48);
    const truth = sine(48, p, 24 * 10);
    forecast.forEach((f, i) => expect(Math.abs(f.value - (truth[i] as number))).toBeLessThan(0.02));
  });

  it('forecasts a constant as a constant with a tight interval', () => {
    const model = fit(new Array<number>(500).fill(4), { periods: [24], horizon: 12 });
    for (const f of forecastHoltWinters(model, 30)) {
      expect(f.value).toBeCloseTo(4, 6);
      expect(f.high - f.low).toBeLessThan(1e-6);
    }
  });

  it('follows a linear trend', () => {
    const y = Array.from({ length: 300 }, (_, i) => 10 + 0.5 * i);
    const model = fit(y, { horizon: 10 });
    const forecast = forecastHoltWinters(model, 10);
    forecast.forEach((f, i) => expect(f.value).toBeCloseTo(10 + 0.5 * (300 + i), 0));
  });

  it('covers about the nominal share of held-out points on noise', () => {
    const rand = random(3);
    const n = 3000;
    const y = Array.from({ length: n }, (_, i) => 3 + Math.sin((2 * Math.PI * i) / 24) + 0.5 * gaussian(rand));
    for (const coverage of [0.8, 0.95]) {
      let model = fit(y.slice(0, 2000), { periods: [24], horizon: 6, coverage });
      let inside = 0;
      let count = 0;
      for (let t = 2000; t + 6 <= n; t += 1) {
        const f = next(model, 6);
        const actual = y[t + 5] as number;
        if (actual >= f.low && actual <= f.high) inside += 1;
        count += 1;
        model = updateHoltWinters(model, y[t] as number);
      }
      expect(Math.abs(inside / count - coverage)).toBeLessThan(0.04);
    }
  });

  it('fits through missing values and long gaps without interpolating them', () => {
    const y: Series = sine(24 * 12, 24);
    for (let i = 50; i < 52; i += 1) y[i] = null;
    for (let i = 100; i < 130; i += 1) y[i] = null;
    y[287] = null;
    const model = fit(y, { periods: [24], horizon: 24 });
    expect(model.period).toBe(24);
    const truth = sine(24, 24, 24 * 12);
    forecastHoltWinters(model, 24).forEach((f, i) => expect(Math.abs(f.value - (truth[i] as number))).toBeLessThan(0.1));
    expect(fitHoltWinters([1, null, 2], {})).toBeNull();
  });

  it('drops the season when there are fewer than two seasons of data', () => {
    const model = fit(sine(40, 24), { periods: [24], horizon: 4 });
    expect(model.period).toBe(1);
  });

  it('keeps its level through short spikes with the robust filter', () => {
    const rand = random(4);
    const y = Array.from({ length: 2000 }, (_, i) => 4 + 0.1 * gaussian(rand) + (i % 37 === 0 ? 3 : 0));
    const model = fit(y, { robust: true, horizon: 4 });
    expect(model.level).toBeCloseTo(4, 1);
    expect(next(model, 1).value).toBeCloseTo(4, 1);
  });

  it('fits 30 days of 5-minute buckets and follows their 22-minute cycle (its time is measured by eval:predict)', () => {
    const rand = random(5);
    const y = Array.from({ length: 30 * 288 }, (_, i) => 4 + Math.sin((2 * Math.PI * i * 5) / 22) + 0.1 * gaussian(rand));
    const model = fitHoltWinters(y, { periods: [288, 22], horizon: 24 });
    expect(model?.level).toBeCloseTo(4, 0);
  });
});

describe('normal quantile', () => {
  it('matches known values', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5);
    expect(normalQuantile(0.9)).toBeCloseTo(1.281552, 5);
    expect(normalQuantile(0.5)).toBeCloseTo(0, 8);
  });
});
