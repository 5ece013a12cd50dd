import { describe, expect, it } from 'vitest';
import { gaussian, random } from './anomaly-fixtures.ts';
import { SampleRing, tailQuantile } from './robust.ts';

const sortedSample = (n: number, draw: () => number) => Float64Array.from({ length: n }, draw).sort();

describe('tailQuantile (peaks over threshold)', () => {
  it('reads a quantile inside the sample as the empirical one', () => {
    const rand = random(1);
    const exponential = sortedSample(5000, () => -Math.log(1 - rand()));
    // P(X > ln 10) = 0,1.
    expect(tailQuantile(exponential, 0.1)).toBeCloseTo(Math.log(10), 1);
  });

  it('extrapolates beyond the sample along its own tail', () => {
    const rand = random(2);
    // Four weeks of five-minute values; once in 100 000 is ln(100 000) = 11,5, twelve times rarer
    // than the sample's largest value (the estimate's spread is some ±15 % from seed to seed).
    const exponential = sortedSample(8064, () => -Math.log(1 - rand()));
    expect(tailQuantile(exponential, 1e-5)).toBeGreaterThan(0.8 * Math.log(1e5));
    expect(tailQuantile(exponential, 1e-5)).toBeLessThan(1.2 * Math.log(1e5));
    // Pareto with α = 2: P(X > x) = x^−2, so once in 10 000 is 100.
    const pareto = sortedSample(2000, () => (1 - rand()) ** -0.5);
    const heavy = tailQuantile(pareto, 1e-4);
    expect(heavy).toBeGreaterThan(50);
    expect(heavy).toBeLessThan(200);
  });

  it('sets a heavy tail far higher than a gaussian one of the same median', () => {
    const rand = random(3);
    const gaussianAbs = sortedSample(2000, () => Math.abs(gaussian(rand)));
    const median = gaussianAbs[1000] as number;
    const pareto = sortedSample(2000, () => (median / Math.SQRT2) * (1 - rand()) ** -0.5);
    expect(tailQuantile(pareto, 1e-4)).toBeGreaterThan(3 * tailQuantile(gaussianAbs, 1e-4));
    // |N(0, 1)| exceeds 3,9 once in 10 000.
    expect(tailQuantile(gaussianAbs, 1e-4)).toBeGreaterThan(3.3);
    expect(tailQuantile(gaussianAbs, 1e-4)).toBeLessThan(4.6);
  });

  it('is NaN on an empty sample and the value itself on a constant one', () => {
    expect(tailQuantile(new Float64Array(0), 0.01)).toBeNaN();
    expect(tailQuantile(new Float64Array(500).fill(2), 1e-4)).toBe(2);
  });
});

describe('SampleRing', () => {
  it('keeps every value up to `keep` and sorts them', () => {
    const ring = new SampleRing(5000, 5000, 5000);
    for (let i = 5000; i > 0; i -= 1) ring.add(i);
    const sorted = ring.sorted();
    expect(sorted.length).toBe(5000);
    expect(sorted[0]).toBe(1);
    expect(sorted[4999]).toBe(5000);
    expect(ring.quantiles([0.5])[0]).toBeCloseTo(2500.5, 6);
  });
});
