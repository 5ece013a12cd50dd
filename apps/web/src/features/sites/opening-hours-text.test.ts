import { describe, expect, it } from 'vitest';
import { parseWindows, windowsText } from './opening-hours-text';

describe('opening hours as a person types them', () => {
  it('reads ranges with colons or « h », dashes of any kind, several per day, and « fermé »', () => {
    expect(parseWindows('9:00-19:00')).toEqual([['09:00', '19:00']]);
    expect(parseWindows('09h00–12h30, 14h00 — 19h00')).toEqual([
      ['09:00', '12:30'],
      ['14:00', '19:00'],
    ]);
    expect(parseWindows('22:00-06:00')).toEqual([['22:00', '06:00']]);
    expect(parseWindows('Fermé')).toEqual([]);
    expect(parseWindows('')).toEqual([]);
  });

  it('refuses what it cannot read, in French', () => {
    expect(parseWindows('9h-19h')).toContain('écrivez une plage comme 09:00–19:00');
    expect(parseWindows('25:00-26:00')).toContain('écrivez une plage');
    expect(parseWindows('10:00-10:00')).toContain('même heure');
  });

  it('writes windows back the way they are read', () => {
    expect(windowsText([['09:00', '19:00']])).toBe('09:00–19:00');
    expect(windowsText([])).toBe('fermé');
  });
});
