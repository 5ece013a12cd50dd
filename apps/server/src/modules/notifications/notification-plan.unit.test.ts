import type { AlertEventType, AlertStatus } from '@vigie/contract';
import { describe, expect, it } from 'vitest';
import { nextDueAt, type PlanPolicy, planNotifications } from './notification-plan.ts';

const T0 = Date.parse('2026-01-05T10:00:00Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000);
const policy: PlanPolicy = {
  steps: [
    { afterMinutes: 0, emails: null },
    { afterMinutes: 120, emails: ['responsable@boutique.fr'] },
    { afterMinutes: 180, emails: ['region@enseigne.fr'] },
  ],
  repeatMinutes: 60,
  reacknowledgeMinutes: 240,
};

function alert(status: AlertStatus, events: [AlertEventType, number][], resolvedAt: number | null = null) {
  return {
    id: 'a1',
    status,
    resolvedAt: resolvedAt === null ? null : at(resolvedAt),
    events: events.map(([type, m]) => ({ type, at: at(m) })),
  };
}

describe('notification planning', () => {
  it('tells the team when the alert opens, then escalates step by step while nobody acknowledges', () => {
    const open = alert('open', [['opened', 0]]);
    expect(planNotifications(open, policy, at(0)).map((n) => [n.key, n.reason, n.recipients])).toEqual([
      ['alert:a1:e1:step0', 'opened', 'team'],
    ]);
    const later = planNotifications(open, policy, at(185));
    expect(later.map((n) => n.key)).toEqual(['alert:a1:e1:step0', 'alert:a1:e1:step1', 'alert:a1:e1:step2', 'alert:a1:e1:repeat3']);
    expect(later[1]).toMatchObject({ reason: 'escalated', recipients: ['responsable@boutique.fr'] });
    expect(later[1]?.timeline?.text).toBe('Sans acquittement depuis 2\u00a0h : escalade à responsable@boutique.fr.');
  });

  it('repeats only the latest reminder, never a burst after downtime', () => {
    const repeats = planNotifications(alert('open', [['opened', 0]]), { ...policy, steps: [{ afterMinutes: 0, emails: null }] }, at(600));
    expect(repeats.map((n) => n.key)).toEqual(['alert:a1:e1:step0', 'alert:a1:e1:repeat10']);
    expect(planNotifications(alert('open', [['opened', 0]]), { ...policy, repeatMinutes: null }, at(59)).map((n) => n.key)).toEqual([
      'alert:a1:e1:step0',
    ]);
  });

  it('stops escalating once acknowledged, and reminds once if still active after the acknowledgement delay', () => {
    const acked = alert('acknowledged', [
      ['opened', 0],
      ['acknowledged', 30],
    ]);
    expect(planNotifications(acked, policy, at(200))).toEqual([]);
    const reminder = planNotifications(acked, policy, at(270));
    expect(reminder).toHaveLength(1);
    expect(reminder[0]).toMatchObject({ key: `alert:a1:ack${at(30).getTime()}:reminder`, reason: 'reminder', recipients: 'team' });
    expect(reminder[0]?.timeline?.text).toBe('Toujours active 4\u00a0h après l’acquittement : l’équipe prévenu(e) à nouveau.');
  });

  it('starts a new episode when the alert reopens, and sends one resolution notice within a day', () => {
    const reopened = alert('open', [
      ['opened', 0],
      ['resolved', 10],
      ['opened', 12],
    ]);
    // Reopened within the quiet time after it was told: told again at its end, if still open then.
    expect(planNotifications(reopened, policy, at(12)).map((n) => n.key)).toEqual([]);
    expect(planNotifications(reopened, policy, at(30)).map((n) => n.key)).toEqual(['alert:a1:e2:step0']);
    const resolved = alert(
      'resolved',
      [
        ['opened', 0],
        ['resolved', 10],
      ],
      10,
    );
    expect(planNotifications(resolved, policy, at(11)).map((n) => [n.key, n.reason])).toEqual([['alert:a1:e1:resolved', 'resolved']]);
    expect(planNotifications(resolved, policy, at(10 + 24 * 60 + 1))).toEqual([]);
  });

  it('sends two e-mails, not six, for a display case whose door opens again and again within 25 minutes', () => {
    // Opened at 0, 8 and 16 min, back to normal 4 min after each: three episodes.
    const events: [AlertEventType, number][] = [];
    const sent = new Set<string>();
    for (let minute = 0; minute <= 25; minute += 1) {
      if (minute % 8 === 0 && minute <= 16) events.push(['opened', minute]);
      if (minute % 8 === 4 && minute <= 20) events.push(['resolved', minute]);
      const last = events.at(-1);
      const state = last?.[0] === 'resolved' ? alert('resolved', events, last[1]) : alert('open', events);
      for (const notification of planNotifications(state, { ...policy, repeatMinutes: null }, at(minute))) sent.add(notification.key);
    }
    expect([...sent]).toEqual(['alert:a1:e1:step0', 'alert:a1:e1:resolved']);
  });

  it('tells a reopened alert once the quiet time is over when it is still open, and its end after', () => {
    const events: [AlertEventType, number][] = [
      ['opened', 0],
      ['resolved', 4],
      ['opened', 10],
    ];
    expect(planNotifications(alert('open', events), policy, at(29)).map((n) => n.key)).toEqual([]);
    expect(nextDueAt(alert('open', events), policy, at(12))).toEqual(at(30));
    expect(planNotifications(alert('open', events), policy, at(30)).map((n) => n.key)).toEqual(['alert:a1:e2:step0']);
    expect(planNotifications(alert('resolved', [...events, ['resolved', 45]], 45), policy, at(46)).map((n) => n.key)).toEqual([
      'alert:a1:e2:resolved',
    ]);
  });

  it('names when the next notification falls due: nothing new before it, something new at it', () => {
    const keys = (a: ReturnType<typeof alert>, minute: number) => new Set(planNotifications(a, policy, at(minute)).map((n) => n.key));
    const scenarios = [
      alert('open', [['opened', 0]]),
      alert('acknowledged', [
        ['opened', 0],
        ['acknowledged', 30],
      ]),
      alert('open', [
        ['opened', 0],
        ['resolved', 20],
        ['opened', 50],
      ]),
    ];
    for (const scenario of scenarios) {
      for (let minute = 0; minute <= 400; minute += 7) {
        const due = nextDueAt(scenario, policy, at(minute));
        const before = keys(scenario, minute);
        const horizon = due ? (due.getTime() - T0) / 60_000 : 500;
        expect(horizon).toBeGreaterThan(minute);
        for (let later = minute + 1; later < horizon && later <= 500; later += 1) {
          for (const key of keys(scenario, later)) expect(before.has(key), `${key} at ${later} before ${horizon}`).toBe(true);
        }
        if (due) expect([...keys(scenario, horizon)].some((key) => !before.has(key))).toBe(true);
      }
    }
    expect(nextDueAt(alert('resolved', [['opened', 0]], 10), policy, at(11))).toBeNull();
    expect(
      nextDueAt(
        alert('acknowledged', [
          ['opened', 0],
          ['acknowledged', 5],
        ]),
        policy,
        at(300),
      ),
    ).toBeNull();
  });
});
