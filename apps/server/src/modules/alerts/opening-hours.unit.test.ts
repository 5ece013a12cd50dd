import { DEFAULT_OPENING_HOURS, type OpeningHours } from '@vigie/contract';
import { describe, expect, it } from 'vitest';
import { isOpenAt, localTime, scheduleActiveAt } from './opening-hours.ts';

const closed: OpeningHours = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
const paris = 'Europe/Paris';

describe('opening hours on the site’s wall clock', () => {
  it('reads the local weekday and time across daylight saving in Europe/Paris', () => {
    // Winter: UTC+1. Summer: UTC+2. 2026-03-29 02:00 local jumps to 03:00; 2026-10-25 03:00 falls back to 02:00.
    expect(localTime(new Date('2026-01-05T07:59:00Z'), paris)).toEqual({ weekday: 'mon', minutes: 8 * 60 + 59 });
    expect(localTime(new Date('2026-07-06T07:59:00Z'), paris)).toEqual({ weekday: 'mon', minutes: 9 * 60 + 59 });
    expect(localTime(new Date('2026-03-29T00:59:00Z'), paris)).toEqual({ weekday: 'sun', minutes: 1 * 60 + 59 });
    expect(localTime(new Date('2026-03-29T01:00:00Z'), paris)).toEqual({ weekday: 'sun', minutes: 3 * 60 });
    expect(localTime(new Date('2026-10-25T00:30:00Z'), paris)).toEqual({ weekday: 'sun', minutes: 2 * 60 + 30 });
    expect(localTime(new Date('2026-10-25T01:30:00Z'), paris)).toEqual({ weekday: 'sun', minutes: 2 * 60 + 30 });
  });

  it('opens at the local hour on both sides of the spring change', () => {
    // Saturday 28 March 2026 (UTC+1) and Monday 30 March 2026 (UTC+2), opening at 09:00 local.
    expect(isOpenAt(new Date('2026-03-28T07:59:00Z'), paris, DEFAULT_OPENING_HOURS)).toBe(false);
    expect(isOpenAt(new Date('2026-03-28T08:00:00Z'), paris, DEFAULT_OPENING_HOURS)).toBe(true);
    expect(isOpenAt(new Date('2026-03-30T06:59:00Z'), paris, DEFAULT_OPENING_HOURS)).toBe(false);
    expect(isOpenAt(new Date('2026-03-30T07:00:00Z'), paris, DEFAULT_OPENING_HOURS)).toBe(true);
    // Closes at 19:00 local, i.e. 17:00 UTC in summer.
    expect(isOpenAt(new Date('2026-03-30T16:59:00Z'), paris, DEFAULT_OPENING_HOURS)).toBe(true);
    expect(isOpenAt(new Date('2026-03-30T17:00:00Z'), paris, DEFAULT_OPENING_HOURS)).toBe(false);
    // Sunday is closed.
    expect(isOpenAt(new Date('2026-03-29T10:00:00Z'), paris, DEFAULT_OPENING_HOURS)).toBe(false);
  });

  it('runs a window past midnight into the next day, including the week’s wrap from Sunday to Monday', () => {
    const night: OpeningHours = { ...closed, fri: [['22:00', '06:00']], sun: [['23:00', '01:30']] };
    // Friday 9 January 2026, 22:00 local = 21:00 UTC.
    expect(isOpenAt(new Date('2026-01-09T20:59:00Z'), paris, night)).toBe(false);
    expect(isOpenAt(new Date('2026-01-09T21:00:00Z'), paris, night)).toBe(true);
    expect(isOpenAt(new Date('2026-01-10T04:59:00Z'), paris, night)).toBe(true); // Saturday 05:59
    expect(isOpenAt(new Date('2026-01-10T05:00:00Z'), paris, night)).toBe(false); // Saturday 06:00
    expect(isOpenAt(new Date('2026-01-11T22:30:00Z'), paris, night)).toBe(true); // Sunday 23:30
    expect(isOpenAt(new Date('2026-01-12T00:29:00Z'), paris, night)).toBe(true); // Monday 01:29
    expect(isOpenAt(new Date('2026-01-12T00:30:00Z'), paris, night)).toBe(false); // Monday 01:30
  });

  it('keeps a night window on local time through the autumn change', () => {
    // Saturday 24 October 2026 22:00 (UTC+2) to Sunday 06:00 (UTC+1): the night lasts 9 hours of real time.
    const night: OpeningHours = { ...closed, sat: [['22:00', '06:00']] };
    expect(isOpenAt(new Date('2026-10-24T19:59:00Z'), paris, night)).toBe(false);
    expect(isOpenAt(new Date('2026-10-24T20:00:00Z'), paris, night)).toBe(true);
    expect(isOpenAt(new Date('2026-10-25T04:59:00Z'), paris, night)).toBe(true);
    expect(isOpenAt(new Date('2026-10-25T05:00:00Z'), paris, night)).toBe(false);
  });

  it('treats 24:00 as the end of the day', () => {
    const late: OpeningHours = { ...closed, wed: [['18:00', '24:00']] };
    expect(isOpenAt(new Date('2026-01-07T22:59:00Z'), paris, late)).toBe(true); // Wednesday 23:59
    expect(isOpenAt(new Date('2026-01-07T23:00:00Z'), paris, late)).toBe(false); // Thursday 00:00
  });

  it('applies a rule schedule: always, opening hours or closed hours', () => {
    const site = { timezone: paris, openingHours: DEFAULT_OPENING_HOURS };
    const open = new Date('2026-01-05T10:00:00Z');
    const shut = new Date('2026-01-05T20:00:00Z');
    expect([scheduleActiveAt('always', open, site), scheduleActiveAt('always', shut, site)]).toEqual([true, true]);
    expect([scheduleActiveAt('opening_hours', open, site), scheduleActiveAt('opening_hours', shut, site)]).toEqual([true, false]);
    expect([scheduleActiveAt('closed_hours', open, site), scheduleActiveAt('closed_hours', shut, site)]).toEqual([false, true]);
  });
});
