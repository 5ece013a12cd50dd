import type { Insights } from '@vigie/contract';

/** A predicted hour that moves by this much or more between two analyses is said to have moved. */
export const MOVE_MS = 10 * 60_000;

/**
 * The new figures with `breach.movedFrom` set: the hour the previous analysis announced for the same
 * rule when the new one differs from it by `MOVE_MS` or more; while the hour then holds (within
 * `MOVE_MS` of the previous one), the hour it moved from is still given, so that a screen opened a
 * few minutes later still says why it changed. Null when there was no earlier hour for this rule.
 */
export function withMovedFrom(next: Insights, previous: Insights | undefined): Insights {
  const breach = next.breach;
  if (!breach) return next;
  const before = previous?.breach;
  if (!before || before.ruleId !== breach.ruleId) return { ...next, breach: { ...breach, movedFrom: null } };
  const moved = Math.abs(Date.parse(breach.eta) - Date.parse(before.eta)) >= MOVE_MS;
  return { ...next, breach: { ...breach, movedFrom: moved ? before.eta : (before.movedFrom ?? null) } };
}
