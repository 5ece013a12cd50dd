import { describe, expect, it } from 'vitest';
import { formatClock, formatDateAt, formatHhmm } from './clock.ts';

const N = '\u202f';

describe('the one French form of a time', () => {
  it('writes « 21 h 32 » and « 9 h », never « 21:32 », in the zone asked', () => {
    expect(formatClock(new Date('2026-12-01T20:32:00Z'), 'Europe/Paris')).toBe(`21${N}h${N}32`);
    expect(formatClock(new Date('2026-12-01T08:00:00Z'), 'Europe/Paris')).toBe(`9${N}h`);
    expect(formatClock(new Date('2026-12-01T23:05:00Z'), 'Europe/Paris')).toBe(`0${N}h${N}05`);
    expect(formatClock(new Date('2026-12-01T20:32:00Z'), 'America/Martinique')).toBe(`16${N}h${N}32`);
  });

  it('writes a slot’s wall-clock time « 20 h », « 7 h 30 »', () => {
    expect(formatHhmm('20:00')).toBe(`20${N}h`);
    expect(formatHhmm('07:30')).toBe(`7${N}h${N}30`);
    expect(formatHhmm('00:00')).toBe(`0${N}h`);
  });

  it('joins a date and a time with « à », in three lengths', () => {
    const at = new Date('2026-12-01T20:49:00Z');
    expect(formatDateAt(at, 'Europe/Paris', 'short')).toBe(`01/12/2026 à 21${N}h${N}49`);
    expect(formatDateAt(at, 'Europe/Paris', 'medium')).toBe(`1er déc. 2026 à 21${N}h${N}49`);
    expect(formatDateAt(new Date('2026-11-30T13:05:00Z'), 'Europe/Paris')).toBe(`30 novembre 2026 à 14${N}h${N}05`);
  });
});
