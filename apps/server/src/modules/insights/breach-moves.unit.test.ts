import type { Insights } from '@vigie/contract';
import { describe, expect, it } from 'vitest';
import { withMovedFrom } from './breach-moves.ts';

const RULE = '4b2c8f0e-0c1d-4f55-9a43-2f1c6f7b9d10';
const OTHER_RULE = '9d3e1a2b-7c4f-4e8a-b1d2-3c4e5f6a7b8c';

function insights(eta: string | null, ruleId = RULE, movedFrom?: string | null): Insights {
  return {
    key: 'temperature',
    computedAt: '2026-12-07T20:00:00.000Z',
    forecast: [],
    breach: eta === null ? null : { ruleId, threshold: 8, eta, ...(movedFrom === undefined ? {} : { movedFrom }) },
    anomalies: [],
    battery: null,
    defrosts: [],
    excursions: [],
  };
}

describe('withMovedFrom', () => {
  it('gives the hour announced before when the new one is 10 min or more away from it', () => {
    const next = withMovedFrom(insights('2026-12-07T20:55:00.000Z'), insights('2026-12-07T21:30:00.000Z'));
    expect(next.breach?.movedFrom).toBe('2026-12-07T21:30:00.000Z');
  });

  it('says nothing moved for a few minutes of difference, a first announcement or another rule', () => {
    expect(withMovedFrom(insights('2026-12-07T21:25:00.000Z'), insights('2026-12-07T21:30:00.000Z')).breach?.movedFrom).toBeNull();
    expect(withMovedFrom(insights('2026-12-07T21:25:00.000Z'), undefined).breach?.movedFrom).toBeNull();
    expect(withMovedFrom(insights('2026-12-07T21:25:00.000Z'), insights(null)).breach?.movedFrom).toBeNull();
    expect(
      withMovedFrom(insights('2026-12-07T21:25:00.000Z'), insights('2026-12-07T23:00:00.000Z', OTHER_RULE)).breach?.movedFrom,
    ).toBeNull();
  });

  it('keeps the hour it moved from while the new hour holds, and forgets it with the breach', () => {
    const moved = withMovedFrom(insights('2026-12-07T20:55:00.000Z'), insights('2026-12-07T21:30:00.000Z'));
    const held = withMovedFrom(insights('2026-12-07T20:57:00.000Z'), moved);
    expect(held.breach?.movedFrom).toBe('2026-12-07T21:30:00.000Z');
    expect(withMovedFrom(insights(null), held).breach).toBeNull();
  });
});
