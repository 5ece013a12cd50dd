import type { TaskSchedule } from '@vigie/contract';
import { describe, expect, it } from 'vitest';
import { localInstant, occurrences } from './schedule.ts';

const iso = (list: { dueAt: Date }[]) => list.map((occurrence) => occurrence.dueAt.toISOString());
const window = { windowMinutes: 60, graceMinutes: 30 };

describe('the occurrences of a task schedule on a site’s wall clock', () => {
  it('keeps 8 h in Paris across the change to summer time (7 h UTC, then 6 h UTC)', () => {
    const schedule: TaskSchedule = { frequency: 'daily', times: ['08:00'], ...window };
    const days = occurrences(schedule, 'Europe/Paris', Date.parse('2026-03-28T00:00:00Z'), Date.parse('2026-03-30T00:00:00Z'));
    expect(iso(days)).toEqual(['2026-03-28T07:00:00.000Z', '2026-03-29T06:00:00.000Z']);
    expect(days[0]?.windowEndsAt.toISOString()).toBe('2026-03-28T08:00:00.000Z');
    expect(days[0]?.graceEndsAt.toISOString()).toBe('2026-03-28T08:30:00.000Z');
  });

  it('reads a time skipped by the clocks an hour later, and a time they repeat at its first pass', () => {
    expect(new Date(localInstant(2026, 3, 29, 2, 30, 'Europe/Paris')).toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(new Date(localInstant(2026, 10, 25, 2, 30, 'Europe/Paris')).toISOString()).toBe('2026-10-25T00:30:00.000Z');
    expect(new Date(localInstant(2026, 12, 7, 23, 45, 'America/Cayenne')).toISOString()).toBe('2026-12-08T02:45:00.000Z');
  });

  it('keeps to the weekdays of a weekly schedule, several times a day', () => {
    // Monday 7 to Sunday 13 December 2026; Monday and Thursday at 6 h and 14 h.
    const schedule: TaskSchedule = { frequency: 'weekly', times: ['14:00', '06:00'], weekdays: [1, 4], ...window };
    const week = occurrences(schedule, 'Europe/Paris', Date.parse('2026-12-06T23:00:00Z'), Date.parse('2026-12-13T23:00:00Z'));
    expect(iso(week)).toEqual([
      '2026-12-07T05:00:00.000Z',
      '2026-12-07T13:00:00.000Z',
      '2026-12-10T05:00:00.000Z',
      '2026-12-10T13:00:00.000Z',
    ]);
  });

  it('reads a monthly day past the month’s end as its last day', () => {
    const schedule: TaskSchedule = { frequency: 'monthly', times: ['09:00'], dayOfMonth: 31, ...window };
    const months = occurrences(schedule, 'Europe/Paris', Date.parse('2027-01-01T00:00:00Z'), Date.parse('2027-05-01T00:00:00Z'));
    expect(iso(months)).toEqual([
      '2027-01-31T08:00:00.000Z',
      '2027-02-28T08:00:00.000Z',
      '2027-03-31T07:00:00.000Z',
      '2027-04-30T07:00:00.000Z',
    ]);
  });

  it('gives a one-off task once, only when its time falls in the period', () => {
    const schedule: TaskSchedule = { frequency: 'once', dueAt: '2026-12-09T10:00:00+01:00', ...window };
    expect(iso(occurrences(schedule, 'Europe/Paris', Date.parse('2026-12-09T00:00:00Z'), Date.parse('2026-12-10T00:00:00Z')))).toEqual([
      '2026-12-09T09:00:00.000Z',
    ]);
    expect(occurrences(schedule, 'Europe/Paris', Date.parse('2026-12-09T09:00:01Z'), Date.parse('2026-12-10T00:00:00Z'))).toEqual([]);
  });
});
