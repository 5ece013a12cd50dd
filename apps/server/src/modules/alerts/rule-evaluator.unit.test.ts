import { DEFAULT_OPENING_HOURS, type OpeningHours, type RuleCondition } from '@vigie/contract';
import { describe, expect, it } from 'vitest';
import {
  evaluate,
  INITIAL_TRACK,
  type Observation,
  type SiteHours,
  type TrackState,
  type Transition,
  type WatchedRule,
} from './rule-evaluator.ts';

const site: SiteHours = { timezone: 'Europe/Paris', openingHours: DEFAULT_OPENING_HOURS };
const T0 = Date.parse('2026-01-05T10:00:00Z'); // Monday 11:00 in Paris, open.
const at = (seconds: number) => new Date(T0 + seconds * 1000);

function rule(condition: RuleCondition, extra: Partial<WatchedRule> = {}): WatchedRule {
  return { condition, delaySeconds: 0, hysteresis: 0, schedule: 'always', ...extra };
}

const reading = (seconds: number, value: number): Observation => ({ type: 'reading', at: at(seconds), value });
const tick = (seconds: number, lastSeen: number | null = null, timeout = 600): Observation => ({
  type: 'tick',
  at: at(seconds),
  lastSeenAt: lastSeen === null ? null : at(lastSeen),
  inactivityTimeoutSeconds: timeout,
});

/** Runs the observations in order and returns every transition with the final state. */
function run(watched: WatchedRule, observations: Observation[], where: SiteHours = site, from: TrackState = INITIAL_TRACK) {
  let state = from;
  const transitions: Transition[] = [];
  for (const observation of observations) {
    const step = evaluate(watched, where, state, observation);
    state = step.state;
    transitions.push(...step.transitions);
  }
  return { state, transitions, types: transitions.map((t) => t.type) };
}

const above4 = { type: 'above', key: 'temperature', threshold: 4 } as const;

describe('alert rule evaluation', () => {
  it('opens at once without a delay, strictly above the limit, and keeps the peak and the last value', () => {
    const { types, transitions, state } = run(rule(above4), [reading(0, 4), reading(60, 4.5), reading(120, 7.2), reading(180, 6.1)]);
    expect(types).toEqual(['open', 'update', 'update']);
    expect(transitions[0]).toMatchObject({ type: 'open', at: at(60), reopen: false, peak: 4.5 });
    expect(state).toMatchObject({ phase: 'active', peak: 7.2, last: 6.1 });
  });

  it('waits for the delay measured on reading timestamps, and forgets a breach that clears before it', () => {
    const watched = rule(above4, { delaySeconds: 600 });
    expect(run(watched, [reading(0, 6), reading(300, 6), reading(599, 6)]).types).toEqual([]);
    const opened = run(watched, [reading(0, 6), reading(300, 6), reading(600, 6)]);
    expect(opened.transitions).toEqual([{ type: 'open', at: at(600), since: at(0), peak: 6, last: 6, reopen: false }]);
    // A door opening: 10 minutes above are needed, the cabinet is back after 5.
    expect(run(watched, [reading(0, 9), reading(300, 3), reading(600, 9), reading(900, 9)]).types).toEqual([]);
  });

  it('opens on the clock when the delay elapses during silence after a breach', () => {
    const watched = rule(above4, { delaySeconds: 900 });
    const { transitions } = run(watched, [reading(0, 8.5), tick(600), tick(899), tick(900), tick(960)]);
    expect(transitions).toEqual([{ type: 'open', at: at(900), since: at(0), peak: 8.5, last: 8.5, reopen: false }]);
  });

  it('clears only past the hysteresis band, then resolves', () => {
    const watched = rule(above4, { hysteresis: 0.5 });
    const { types, transitions, state } = run(watched, [reading(0, 5), reading(60, 4), reading(120, 3.6), reading(180, 3.5)]);
    expect(types).toEqual(['open', 'update', 'update', 'resolve']);
    expect(transitions.at(-1)).toEqual({ type: 'resolve', at: at(180), last: 3.5 });
    expect(state.phase).toBe('idle');
  });

  it('mirrors the hysteresis for below and outside conditions', () => {
    // Produce must not freeze: below 0 °C opens, and it clears from +1 °C.
    const below = rule({ type: 'below', key: 'temperature', threshold: 0 }, { hysteresis: 1 });
    expect(run(below, [reading(0, 0), reading(60, 0.5)]).types).toEqual([]);
    expect(run(below, [reading(0, -0.5), reading(60, 0.5), reading(120, 0.9), reading(180, 1)]).types).toEqual([
      'open',
      'update',
      'update',
      'resolve',
    ]);
    const outside = rule({ type: 'outside', key: 'humidity', min: 30, max: 60 }, { hysteresis: 2 });
    const swing = run(outside, [reading(0, 25), reading(60, 31), reading(120, 66), reading(180, 59), reading(240, 58)]);
    expect(swing.types).toEqual(['open', 'update', 'update', 'update', 'resolve']);
    expect(swing.transitions[2]).toEqual({ type: 'update', peak: 66, last: 66 });
  });

  it('keeps one alert per rule and sensor however long the breach lasts', () => {
    const observations = Array.from({ length: 200 }, (_, i) => reading(i * 30, 6 + (i % 7)));
    const { types } = run(rule(above4), observations);
    expect(types.filter((type) => type === 'open')).toHaveLength(1);
    expect(types.filter((type) => type === 'resolve')).toHaveLength(0);
  });

  it('reopens the same alert when a breach comes back within the flap window, and opens a new one after it', () => {
    const watched = rule(above4, { delaySeconds: 600 });
    const flapping = run(watched, [reading(0, 6), reading(600, 6), reading(660, 3), reading(800, 6)]);
    expect(flapping.types).toEqual(['open', 'resolve', 'open']);
    expect(flapping.transitions[2]).toMatchObject({ type: 'open', at: at(800), reopen: true });
    const later = run(watched, [reading(0, 6), reading(600, 6), reading(660, 3), reading(1000, 6), reading(1600, 6)]);
    expect(later.types).toEqual(['open', 'resolve', 'open']);
    expect(later.transitions[2]).toMatchObject({ at: at(1600), reopen: false });
  });

  it('opens only while the schedule watches, across midnight and the spring daylight-saving change', () => {
    const nights: OpeningHours = { ...DEFAULT_OPENING_HOURS, sat: [['22:00', '06:00']] };
    const where = { timezone: 'Europe/Paris', openingHours: nights };
    const watched = rule(above4, { schedule: 'opening_hours', delaySeconds: 1800 });
    // Saturday 28 March 2026 22:30 local (21:30 UTC) to Sunday 29 March 06:00 local (04:00 UTC, after the change to UTC+2).
    const obs = (iso: string, value: number): Observation => ({ type: 'reading', at: new Date(iso), value });
    const night = run(watched, [obs('2026-03-28T21:30:00Z', 7), obs('2026-03-28T22:00:00Z', 7)], where);
    expect(night.types).toEqual(['open']);
    const dawn = run(watched, [obs('2026-03-29T03:30:00Z', 7), obs('2026-03-29T03:59:00Z', 7)], where);
    expect(dawn.state.phase).toBe('pending');
    // 06:00 local: the shop's night window has ended, the breach no longer counts and nothing opens.
    expect(run(watched, [obs('2026-03-29T03:30:00Z', 7), obs('2026-03-29T04:00:00Z', 7)], where).types).toEqual([]);
    const closedHours = rule(above4, { schedule: 'closed_hours' });
    expect(run(closedHours, [obs('2026-03-29T04:00:00Z', 7)], where).types).toEqual(['open']);
  });

  it('resolves outside the schedule when the value clears, but never opens there', () => {
    const watched = rule(above4, { schedule: 'opening_hours' });
    const evening = (hoursAfterOpen: number, value: number): Observation => ({
      type: 'reading',
      at: new Date(T0 + hoursAfterOpen * 3600_000),
      value,
    });
    // Opens at 11:00 local, still breaching at 20:00 (closed), clears at 21:00 (closed).
    expect(run(watched, [evening(0, 6), evening(9, 6), evening(10, 3)]).types).toEqual(['open', 'update', 'resolve']);
    expect(run(watched, [evening(9, 6), evening(10, 7)]).types).toEqual([]);
  });

  it('opens an offline alert from the clock alone, one timeout after the last reading, and resolves on the next reading', () => {
    const watched = rule({ type: 'offline' });
    const silent = run(watched, [reading(0, 1), tick(300, 0), tick(600, 0), tick(601, 0), tick(3600, 0)]);
    expect(silent.transitions).toEqual([{ type: 'open', at: at(601), since: at(600), peak: null, last: null, reopen: false }]);
    const back = run(watched, [reading(0, 1), tick(601, 0), reading(700, 1)]);
    expect(back.types).toEqual(['open', 'resolve']);
    // With a delay, silence must last the timeout plus the delay.
    const delayed = run(rule({ type: 'offline' }, { delaySeconds: 300 }), [tick(601, 0), tick(899, 0), tick(900, 0)]);
    expect(delayed.transitions).toEqual([{ type: 'open', at: at(900), since: at(600), peak: null, last: null, reopen: false }]);
    // A sensor that never spoke is not offline.
    expect(run(watched, [tick(10_000, null)]).types).toEqual([]);
  });

  it('watches the battery level with its own hysteresis', () => {
    const watched = rule({ type: 'battery_below', threshold: 20 }, { hysteresis: 5 });
    expect(run(watched, [reading(0, 25), reading(60, 19), reading(120, 12), reading(180, 22), reading(240, 26)]).types).toEqual([
      'open',
      'update',
      'update',
      'resolve',
    ]);
  });

  it('lets a late reading raise the peak but never move the state back in time', () => {
    const watched = rule(above4);
    const { types, state } = run(watched, [reading(0, 6), reading(120, 5), reading(60, 9), reading(30, 2)]);
    expect(types).toEqual(['open', 'update', 'update']);
    expect(state).toMatchObject({ phase: 'active', peak: 9, last: 5 });
  });

  it('survives a restart: evaluation resumes from the persisted state without opening twice', () => {
    const watched = rule(above4, { delaySeconds: 600 });
    const before = run(watched, [reading(0, 6), reading(300, 6)]);
    const persisted = JSON.parse(JSON.stringify(before.state), (key, value) =>
      ['lastAt', 'since', 'openedAt', 'resolvedAt'].includes(key) && value ? new Date(value) : value,
    ) as TrackState;
    const after = run(watched, [reading(600, 6), reading(900, 6)], site, persisted);
    expect(after.types).toEqual(['open', 'update']);
    expect(after.transitions[0]).toMatchObject({ since: at(0) });
  });
});
