import { describe, expect, it } from 'vitest';
import { dueRungs, type LadderPerson, rungText } from './on-call-plan.ts';
import type { PlannedAlert } from './notification-plan.ts';

const opened = new Date('2026-11-28T02:00:00Z');
const at = (minutes: number) => new Date(opened.getTime() + minutes * 60_000);
const marie: LadderPerson = { id: 'u1', name: 'Marie Dupont', phone: '+33612345678' };
const paul: LadderPerson = { id: 'u2', name: 'Paul Martin', phone: '+33698765432' };
const lea: LadderPerson = { id: 'u3', name: 'Léa Petit', phone: null };
const ladder = { smsAfterMinutes: 5, callAfterMinutes: 10, nextAfterMinutes: 15 };
const all = { sms: true, call: true };

const alert = (status: PlannedAlert['status'] = 'open', extra: PlannedAlert['events'] = []): PlannedAlert => ({
  id: 'a1',
  status,
  resolvedAt: null,
  events: [{ type: 'opened', at: opened }, ...extra],
});
const names = (minutes: number, people = [marie, paul], can = all) =>
  dueRungs(alert(), people, ladder, can, at(minutes)).due.map((step) => `${step.person.name}:${step.channel}`);

describe('the on-call ladder', () => {
  it('goes push → SMS → call → next person, each at its time', () => {
    expect(names(0)).toEqual(['Marie Dupont:push']);
    expect(names(4.9)).toEqual(['Marie Dupont:push']);
    expect(names(5)).toEqual(['Marie Dupont:push', 'Marie Dupont:sms']);
    expect(names(10)).toEqual(['Marie Dupont:push', 'Marie Dupont:sms', 'Marie Dupont:call']);
    expect(names(15)).toEqual(['Marie Dupont:push', 'Marie Dupont:sms', 'Marie Dupont:call', 'Paul Martin:push']);
    expect(names(25).at(-1)).toBe('Paul Martin:call');
    expect(dueRungs(alert(), [marie, paul], ladder, all, at(12)).next).toEqual(at(15));
    expect(dueRungs(alert(), [marie, paul], ladder, all, at(25)).next).toBeNull();
  });

  it('keeps one key per rung and episode', () => {
    const keys = dueRungs(alert(), [marie, paul], ladder, all, at(30)).due.map((step) => step.key);
    expect(new Set(keys).size).toBe(6);
    expect(keys[0]).toBe('alert:a1:e1:oncall0:push');
    const reopened = alert('open', [{ type: 'opened', at: at(60) }]);
    expect(dueRungs(reopened, [marie], ladder, all, at(60)).due.map((step) => step.key)).toEqual(['alert:a1:e2:oncall0:push']);
  });

  it('skips what a person or the server cannot take', () => {
    expect(names(30, [lea, paul])).toEqual(['Léa Petit:push', 'Paul Martin:push', 'Paul Martin:sms', 'Paul Martin:call']);
    expect(names(30, [marie], { sms: true, call: false })).toEqual(['Marie Dupont:push', 'Marie Dupont:sms']);
  });

  it('stops at the acknowledgement, and never starts for a resolved alert', () => {
    const taken = alert('acknowledged', [{ type: 'acknowledged', at: at(7) }]);
    expect(dueRungs(taken, [marie, paul], ladder, all, at(30))).toEqual({ due: [], next: null });
    expect(dueRungs(alert('resolved'), [marie], ladder, all, at(30))).toEqual({ due: [], next: null });
  });

  it('writes the timeline’s line', () => {
    const [, sms] = dueRungs(alert(), [marie], ladder, all, at(5)).due;
    expect(sms && rungText(sms, () => '+33 6 12 34 56 78')).toBe('Astreinte : SMS à Marie Dupont (+33 6 12 34 56 78).');
    const paulPush = dueRungs(alert(), [marie, paul], ladder, all, at(15)).due.at(-1);
    expect(paulPush && rungText(paulPush, String)).toBe('Astreinte : notification poussée à Paul Martin, personne suivante.');
  });
});
