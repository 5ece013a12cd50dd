import type { Ladder } from '@vigie/contract';
import type { PlannedAlert } from './notification-plan.ts';

/** A person of the rota, as the ladder reads them. */
export interface LadderPerson {
  id: string;
  name: string;
  /** Their verified phone (E.164), or null: they are only pushed to. */
  phone: string | null;
}

export type LadderChannel = 'push' | 'sms' | 'call';

/** One rung: tell this person by this channel at this time. `key` is its idempotency key. */
export interface LadderStep {
  key: string;
  person: LadderPerson;
  /** The person's place in the rota, from 0. */
  turn: number;
  channel: LadderChannel;
  at: Date;
}

const CHANNEL_TEXT: Record<LadderChannel, string> = {
  push: 'notification poussée',
  sms: 'SMS',
  call: 'appel',
};

/** « Astreinte : SMS à Marie Dupont (+33 6 12 34 56 78). » — the timeline's line for a rung. */
export function rungText(step: LadderStep, display: (phone: string) => string): string {
  const to = step.channel !== 'push' && step.person.phone ? ` (${display(step.person.phone)})` : '';
  const who = step.turn === 0 ? step.person.name : `${step.person.name}, personne suivante`;
  return `Astreinte : ${CHANNEL_TEXT[step.channel]} à ${who}${to}.`;
}

/**
 * Every rung of an episode's ladder, in time order: for the n-th person on call, their turn starts
 * n × `nextAfterMinutes` after the alert opened, with a push at once, an SMS then a call after the
 * ladder's delays; the rungs a person cannot take (no phone, no provider) are left out.
 */
export function ladderSteps(
  alertId: string,
  episode: number,
  start: Date,
  people: readonly LadderPerson[],
  ladder: Ladder,
  can: { sms: boolean; call: boolean },
): LadderStep[] {
  const steps: LadderStep[] = [];
  people.forEach((person, turn) => {
    const begins = start.getTime() + turn * ladder.nextAfterMinutes * 60_000;
    const rung = (channel: LadderChannel, afterMinutes: number) =>
      steps.push({
        key: `alert:${alertId}:e${episode}:oncall${turn}:${channel}`,
        person,
        turn,
        channel,
        at: new Date(begins + afterMinutes * 60_000),
      });
    rung('push', 0);
    if (person.phone && can.sms) rung('sms', ladder.smsAfterMinutes);
    if (person.phone && can.call) rung('call', ladder.callAfterMinutes);
  });
  return steps.sort((a, b) => a.at.getTime() - b.at.getTime() || a.turn - b.turn);
}

/**
 * The rungs due at `now` and when the next one falls due. Only an open alert climbs the ladder:
 * taken into account (or resolved), it stops where it is. Every due rung is returned on every call
 * (the outbox's keys keep each once), so an instance that was down catches up on restart.
 */
export function dueRungs(
  alert: PlannedAlert,
  people: readonly LadderPerson[],
  ladder: Ladder,
  can: { sms: boolean; call: boolean },
  now: Date,
): { due: LadderStep[]; next: Date | null } {
  const openings = alert.events.filter((event) => event.type === 'opened');
  const start = openings.at(-1)?.at;
  if (!start || alert.status !== 'open' || people.length === 0) return { due: [], next: null };
  const steps = ladderSteps(alert.id, openings.length, start, people, ladder, can);
  const due = steps.filter((step) => step.at.getTime() <= now.getTime());
  const next = steps.find((step) => step.at.getTime() > now.getTime())?.at ?? null;
  return { due, next };
}
