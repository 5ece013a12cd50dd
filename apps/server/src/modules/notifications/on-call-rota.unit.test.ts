import type { OnCallSlot } from '@vigie/contract';
import { describe, expect, it } from 'vitest';
import { easterSunday, frenchHolidays, localTime, slotAt } from './on-call-rota.ts';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const C = '33333333-3333-4333-8333-333333333333';

const slots: OnCallSlot[] = [
  { name: 'Jours fériés', days: ['holiday'], from: '00:00', to: '00:00', people: [C] },
  { name: 'Week-end', days: ['sat', 'sun'], from: '00:00', to: '00:00', people: [B, A] },
  { name: 'Nuits de semaine', days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '20:00', to: '07:00', people: [A, B] },
];
const PARIS = 'Europe/Paris';
const who = (iso: string, zone = PARIS) => slotAt(slots, new Date(iso), zone)?.slot.name ?? null;

describe('French public holidays', () => {
  it('knows Easter and the holidays that follow it', () => {
    expect(new Date(easterSunday(2026)).toISOString().slice(0, 10)).toBe('2026-04-05');
    expect(new Date(easterSunday(2027)).toISOString().slice(0, 10)).toBe('2027-03-28');
    const y2026 = frenchHolidays(2026);
    expect(y2026.size).toBe(11);
    expect(y2026.get('2026-04-06')).toBe('Lundi de Pâques');
    expect(y2026.get('2026-05-14')).toBe('Ascension');
    expect(y2026.get('2026-05-25')).toBe('Lundi de Pentecôte');
    expect(y2026.get('2026-07-14')).toBe('Fête nationale');
    expect(y2026.get('2026-12-26')).toBeUndefined();
  });
});

describe('who is on call', () => {
  it('reads the site’s wall clock, across a daylight-saving change', () => {
    // 29 March 2026: Paris goes from UTC+1 to UTC+2 at 02:00 (01:00 UTC).
    expect(localTime(new Date('2026-03-29T00:30:00Z'), PARIS)).toEqual({ day: '2026-03-29', minutes: 90 });
    expect(localTime(new Date('2026-03-29T01:30:00Z'), PARIS)).toEqual({ day: '2026-03-29', minutes: 210 });
    // 25 October 2026: back to UTC+1 at 03:00.
    expect(localTime(new Date('2026-10-25T02:30:00Z'), PARIS)).toEqual({ day: '2026-10-25', minutes: 210 });
  });

  it('runs a night slot past midnight and gives it to the day it started', () => {
    // Tuesday 24 November 2026, 21:00 in Paris (20:00 UTC), then Wednesday 03:00 (02:00 UTC).
    expect(who('2026-11-24T20:00:00Z')).toBe('Nuits de semaine');
    expect(who('2026-11-25T02:00:00Z')).toBe('Nuits de semaine');
    // Wednesday 08:00 and 12:00: nobody.
    expect(who('2026-11-25T07:00:00Z')).toBeNull();
    expect(who('2026-11-25T11:00:00Z')).toBeNull();
    // 06:59 is in, 07:00 is out.
    expect(who('2026-11-25T05:59:00Z')).toBe('Nuits de semaine');
    expect(who('2026-11-25T06:00:00Z')).toBeNull();
  });

  it('keeps Friday night for the weekday slot until Saturday begins, then the weekend', () => {
    // Friday 27 November 2026 23:30 Paris: Friday's night. Saturday 03:00: Saturday is the weekend, which comes first.
    expect(who('2026-11-27T22:30:00Z')).toBe('Nuits de semaine');
    expect(who('2026-11-28T02:00:00Z')).toBe('Week-end');
    // Sunday night into Monday: Monday 03:00 is neither Sunday's slot (whole days end at midnight) nor a Monday night yet.
    expect(who('2026-11-30T02:00:00Z')).toBeNull();
    expect(who('2026-11-30T20:00:00Z')).toBe('Nuits de semaine');
  });

  it('puts a public holiday before its weekday when listed first, night included', () => {
    // Wednesday 11 November 2026 (Armistice), noon and 21:00 Paris.
    const noon = slotAt(slots, new Date('2026-11-11T11:00:00Z'), PARIS);
    expect(noon?.slot.name).toBe('Jours fériés');
    expect(noon?.holiday).toBe('Armistice 1918');
    expect(who('2026-11-11T20:00:00Z')).toBe('Jours fériés');
    // Thursday 12 at 02:00: the holiday is over at midnight; Wednesday's night slot still runs.
    expect(who('2026-11-12T01:00:00Z')).toBe('Nuits de semaine');
  });

  it('follows the clock change inside a night slot', () => {
    // Sunday 25 October 2026 is a weekend day: whole day. Monday 26 October 06:30 Paris = 05:30 UTC (UTC+1 now):
    // Sunday's slot ended at midnight, and no Sunday night slot exists.
    expect(who('2026-10-26T05:30:00Z')).toBeNull();
    // Friday 27 March 2026 22:00 Paris (21:00 UTC, winter time) is a night.
    expect(who('2026-03-27T21:00:00Z')).toBe('Nuits de semaine');
    // Tuesday 31 March 06:30 Paris = 04:30 UTC under summer time, still in Monday's night; 07:30 Paris = 05:30 UTC is out.
    expect(who('2026-03-31T04:30:00Z')).toBe('Nuits de semaine');
    expect(who('2026-03-31T05:30:00Z')).toBeNull();
  });

  it('reads another time zone’s wall clock', () => {
    // 21:00 in Paris is 15:00 in Martinique: no night there yet.
    expect(who('2026-11-24T20:00:00Z', 'America/Martinique')).toBeNull();
    expect(who('2026-11-25T01:00:00Z', 'America/Martinique')).toBe('Nuits de semaine');
  });
});
