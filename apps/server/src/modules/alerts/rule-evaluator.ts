import type { OpeningHours, RuleCondition, RuleSchedule } from '@vigie/contract';
import { scheduleActiveAt } from './opening-hours.ts';

/** What the evaluator needs of a rule. */
export interface WatchedRule {
  condition: RuleCondition;
  delaySeconds: number;
  hysteresis: number;
  schedule: RuleSchedule;
}

export interface SiteHours {
  timezone: string;
  openingHours: OpeningHours;
}

/**
 * Where one rule stands for one sensor: persisted between evaluations, so that a restart neither
 * loses a breach in progress nor opens its alert twice.
 * - `idle`: within limits (`resolvedAt`: when its last alert resolved by itself, for flap damping);
 * - `pending`: out of limits since `since`, waiting for the delay;
 * - `active`: an alert is open (or acknowledged) for this rule and sensor.
 */
export type TrackState =
  | { phase: 'idle'; lastAt: Date | null; resolvedAt: Date | null }
  | { phase: 'pending'; lastAt: Date; since: Date; peak: number | null; last: number | null; resolvedAt: Date | null }
  | { phase: 'active'; lastAt: Date; openedAt: Date; peak: number | null; last: number | null };

export const INITIAL_TRACK: TrackState = { phase: 'idle', lastAt: null, resolvedAt: null };

/**
 * What the evaluator is told:
 * - `reading`: a stored value of the rule's key (the battery level for `battery_below`), at its timestamp;
 *   for `offline` rules any reading of the sensor counts, its value is ignored;
 * - `tick`: the clock, so that a delay elapsing during silence, or silence itself, is noticed with no message.
 */
export type Observation =
  { type: 'reading'; at: Date; value: number } | { type: 'tick'; at: Date; lastSeenAt: Date | null; inactivityTimeoutSeconds: number };

/** What the caller must do: open (or reopen) the alert, refresh its peak and last value, or resolve it. */
export type Transition =
  | { type: 'open'; at: Date; since: Date; peak: number | null; last: number | null; reopen: boolean }
  | { type: 'update'; peak: number | null; last: number | null }
  | { type: 'resolve'; at: Date; last: number | null };

export interface EvaluationOptions {
  /** A breach that returns within this many seconds of an automatic resolution reopens the same alert. */
  flapWindowSeconds: number;
}

export const DEFAULT_FLAP_WINDOW_SECONDS = 300;

/** True when `value` breaks the condition (strictly beyond the limit: ≤ +4 °C is compliant at 4,0). */
export function breaches(condition: RuleCondition, value: number): boolean {
  switch (condition.type) {
    case 'above':
    case 'predicted_above':
      return value > condition.threshold;
    case 'below':
    case 'battery_below':
    case 'predicted_below':
      return value < condition.threshold;
    case 'outside':
      return value < condition.min || value > condition.max;
    case 'offline':
      return false;
  }
}

/** True when `value` is back within limits by at least the hysteresis, so an active alert may clear. */
export function clears(condition: RuleCondition, value: number, hysteresis: number): boolean {
  switch (condition.type) {
    case 'above':
    case 'predicted_above':
      return value <= condition.threshold - hysteresis;
    case 'below':
    case 'battery_below':
    case 'predicted_below':
      return value >= condition.threshold + hysteresis;
    case 'outside': {
      // A hysteresis wider than half the range would leave no value that clears: cap it.
      const margin = Math.min(hysteresis, (condition.max - condition.min) / 2);
      return value >= condition.min + margin && value <= condition.max - margin;
    }
    case 'offline':
      return true;
  }
}

/** The worse of two values for this condition: the one further out of limits. */
export function worse(condition: RuleCondition, a: number | null, b: number): number {
  if (a === null) return b;
  switch (condition.type) {
    case 'above':
    case 'predicted_above':
      return Math.max(a, b);
    case 'below':
    case 'battery_below':
    case 'predicted_below':
      return Math.min(a, b);
    case 'outside': {
      const distance = (v: number) => (v > condition.max ? v - condition.max : v < condition.min ? condition.min - v : 0);
      return distance(b) > distance(a) ? b : a;
    }
    case 'offline':
      return a;
  }
}

function delayElapsed(rule: WatchedRule, since: Date, at: Date): boolean {
  return at.getTime() - since.getTime() >= rule.delaySeconds * 1000;
}

function withinFlapWindow(resolvedAt: Date | null, at: Date, options: EvaluationOptions): boolean {
  return resolvedAt !== null && at.getTime() - resolvedAt.getTime() <= options.flapWindowSeconds * 1000;
}

/**
 * One step of a rule for one sensor. Pure: the caller persists the new state and carries out the
 * transitions (in one transaction, so the state and the alert never disagree).
 *
 * - An alert opens once the condition has held for `delaySeconds`, measured on reading timestamps
 *   and also on the clock, so a breach followed by silence still opens.
 * - Opening needs the schedule to be active; clearing is always allowed.
 * - An active alert clears only past the hysteresis band.
 * - A breach that comes back within the flap window after an automatic resolution reopens the same
 *   alert at once (the condition had already held for the delay).
 * - Readings older than the last one evaluated are late arrivals: they may raise the peak of an
 *   active alert but never move the state back in time.
 */
export function evaluate(
  rule: WatchedRule,
  site: SiteHours,
  state: TrackState,
  observation: Observation,
  options: EvaluationOptions = { flapWindowSeconds: DEFAULT_FLAP_WINDOW_SECONDS },
): { state: TrackState; transitions: Transition[] } {
  if (rule.condition.type === 'offline') return evaluateOffline(rule, site, state, observation, options);
  const { condition } = rule;
  const at = observation.at;

  if (observation.type === 'tick') {
    if (state.phase !== 'pending') return { state, transitions: [] };
    if (!scheduleActiveAt(rule.schedule, at, site)) {
      return { state: { phase: 'idle', lastAt: state.lastAt, resolvedAt: state.resolvedAt }, transitions: [] };
    }
    if (!delayElapsed(rule, state.since, at)) return { state, transitions: [] };
    return open(state, at, state.last, false);
  }

  const value = observation.value;
  if (state.lastAt !== null && at.getTime() < state.lastAt.getTime()) {
    if (state.phase === 'active' && breaches(condition, value)) {
      const peak = worse(condition, state.peak, value);
      if (peak !== state.peak) return { state: { ...state, peak }, transitions: [{ type: 'update', peak, last: state.last }] };
    }
    return { state, transitions: [] };
  }

  if (state.phase === 'active') {
    if (clears(condition, value, rule.hysteresis)) {
      return { state: { phase: 'idle', lastAt: at, resolvedAt: at }, transitions: [{ type: 'resolve', at, last: value }] };
    }
    const peak = breaches(condition, value) ? worse(condition, state.peak, value) : state.peak;
    return { state: { ...state, lastAt: at, peak, last: value }, transitions: [{ type: 'update', peak, last: value }] };
  }

  const watching = scheduleActiveAt(rule.schedule, at, site);
  if (!watching || !breaches(condition, value)) {
    return { state: { phase: 'idle', lastAt: at, resolvedAt: state.resolvedAt }, transitions: [] };
  }

  if (state.phase === 'idle' && withinFlapWindow(state.resolvedAt, at, options)) {
    return open({ since: at, peak: null }, at, value, true, condition);
  }
  const pending =
    state.phase === 'pending'
      ? { ...state, lastAt: at, peak: worse(condition, state.peak, value), last: value }
      : { phase: 'pending' as const, lastAt: at, since: at, peak: value, last: value, resolvedAt: state.resolvedAt };
  if (delayElapsed(rule, pending.since, at)) return open(pending, at, value, false, condition);
  return { state: pending, transitions: [] };
}

function open(
  from: { since: Date; peak: number | null },
  at: Date,
  value: number | null,
  reopen: boolean,
  condition?: RuleCondition,
): { state: TrackState; transitions: Transition[] } {
  const peak = condition && value !== null ? worse(condition, from.peak, value) : from.peak;
  return {
    state: { phase: 'active', lastAt: at, openedAt: at, peak, last: value },
    transitions: [{ type: 'open', at, since: from.since, peak, last: value, reopen }],
  };
}

/** `offline`: silence longer than the sensor's inactivity timeout, seen by the clock; any reading ends it. */
function evaluateOffline(
  rule: WatchedRule,
  site: SiteHours,
  state: TrackState,
  observation: Observation,
  options: EvaluationOptions,
): { state: TrackState; transitions: Transition[] } {
  const at = observation.at;
  if (observation.type === 'reading') {
    if (state.lastAt !== null && at.getTime() < state.lastAt.getTime()) return { state, transitions: [] };
    if (state.phase === 'active') {
      return { state: { phase: 'idle', lastAt: at, resolvedAt: at }, transitions: [{ type: 'resolve', at, last: null }] };
    }
    return { state: { phase: 'idle', lastAt: at, resolvedAt: state.resolvedAt }, transitions: [] };
  }
  // A sensor that has never spoken is « jamais connecté », not offline.
  if (state.phase === 'active' || observation.lastSeenAt === null) return { state, transitions: [] };
  const silentSince = new Date(observation.lastSeenAt.getTime() + observation.inactivityTimeoutSeconds * 1000);
  if (at.getTime() <= silentSince.getTime() || !scheduleActiveAt(rule.schedule, at, site)) {
    return { state: { phase: 'idle', lastAt: state.lastAt, resolvedAt: state.resolvedAt }, transitions: [] };
  }
  const since = state.phase === 'pending' ? state.since : silentSince;
  if (state.phase === 'idle' && withinFlapWindow(state.resolvedAt, at, options)) {
    return open({ since, peak: null }, at, null, true);
  }
  const pending: TrackState = { phase: 'pending', lastAt: state.lastAt ?? at, since, peak: null, last: null, resolvedAt: state.resolvedAt };
  if (delayElapsed(rule, since, at)) return open({ since, peak: null }, at, null, false);
  return { state: pending, transitions: [] };
}
