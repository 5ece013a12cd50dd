import type uPlot from 'uplot';
import { describe, expect, it } from 'vitest';
import { drawPauses, pauseLabel, pauseRects, pausesInView, type ChartPause } from './chart-pauses';

const NNBSP = '\u202F';
const NBSP = '\u00A0';
const PARIS = 'Europe/Paris';
// 16 h in Paris, on a Monday of November.
const NOW = Date.parse('2026-11-23T15:00:00Z');

const pause = (from: string, until: string, reason = 'Nettoyage', wholeShop = false): ChartPause => ({ from, until, reason, wholeShop });

describe('pauseLabel', () => {
  it('names an ended pause of the day by its reason, its times on the shop’s clock and its length', () => {
    expect(pauseLabel(pause('2026-11-23T13:30:00Z', '2026-11-23T14:30:00Z'), NOW, PARIS)).toBe(
      `Pause${NNBSP}: Nettoyage, aujourd’hui de 14${NNBSP}h${NNBSP}30 à 15${NNBSP}h${NNBSP}30 (1${NNBSP}h)`,
    );
    expect(pauseLabel(pause('2026-11-22T08:00:00Z', '2026-11-22T08:45:00Z', 'Réassort'), NOW, PARIS)).toBe(
      `Pause${NNBSP}: Réassort, hier de 9${NNBSP}h à 9${NNBSP}h${NNBSP}45 (45${NNBSP}min)`,
    );
  });

  it('says « en cours » and until when for a pause going on, and « tout le magasin » for a shop’s', () => {
    expect(pauseLabel(pause('2026-11-23T14:00:00Z', '2026-11-23T16:00:00Z', 'Inventaire', true), NOW, PARIS)).toBe(
      `Pause${NNBSP}: Inventaire (tout le magasin), en cours depuis 15${NNBSP}h, jusqu’à 17${NNBSP}h`,
    );
    expect(pauseLabel(pause('2026-11-22T22:30:00Z', '2026-11-23T21:30:00Z'), NOW, PARIS)).toBe(
      `Pause${NNBSP}: Nettoyage, en cours depuis hier 23${NNBSP}h${NNBSP}30, jusqu’à 22${NNBSP}h${NNBSP}30`,
    );
  });

  it('gives both days of a pause over midnight', () => {
    expect(pauseLabel(pause('2026-11-20T21:00:00Z', '2026-11-21T00:30:00Z', 'Dégivrage prévu'), NOW, PARIS)).toBe(
      `Pause${NNBSP}: Dégivrage prévu, du 20${NBSP}novembre 22${NNBSP}h au 21${NBSP}novembre 1${NNBSP}h${NNBSP}30 (3${NNBSP}h${NNBSP}30)`,
    );
  });
});

describe('pausesInView', () => {
  it('keeps the pauses that touched the period, oldest first, and leaves out the empty ones', () => {
    const day = 24 * 3600_000;
    const bands = pausesInView(
      [
        pause('2026-11-23T13:30:00Z', '2026-11-23T14:30:00Z', 'Récente'),
        // Ended before the last 24 hours.
        pause('2026-11-21T08:00:00Z', '2026-11-21T09:00:00Z', 'Ancienne'),
        // Begun before the period, ended in it.
        pause('2026-11-22T14:30:00Z', '2026-11-22T15:30:00Z', 'À cheval'),
        // Replaced the same instant it began: nothing to draw.
        pause('2026-11-23T10:00:00Z', '2026-11-23T10:00:00Z', 'Vide'),
        // Going on until 17 h: shaded up to now.
        pause('2026-11-23T14:50:00Z', '2026-11-23T16:00:00Z', 'En cours'),
      ],
      NOW,
      day,
      PARIS,
    );
    expect(bands.map((band) => band.label.split(',')[0])).toEqual([
      `Pause${NNBSP}: À cheval`,
      `Pause${NNBSP}: Récente`,
      `Pause${NNBSP}: En cours`,
    ]);
    expect(bands[1]).toMatchObject({ from: Date.parse('2026-11-23T13:30:00Z'), to: Date.parse('2026-11-23T14:30:00Z') });
    expect(bands[2]).toMatchObject({ from: Date.parse('2026-11-23T14:50:00Z'), to: NOW });
    expect(bands[2]?.label).toMatch(/jusqu’à 17\u202Fh$/);
  });
});

/** A plot 200 px wide from x = 10, one pixel a minute, whose left edge is `start`. */
function plot(start: number, calls: string[] = []) {
  const record =
    (name: string) =>
    (...args: unknown[]) =>
      calls.push(`${name}(${args.map((arg) => (Array.isArray(arg) ? `[${arg.join(',')}]` : String(arg))).join(',')})`);
  const ctx = new Proxy(
    {},
    {
      get: (_target, name) => record(String(name)),
      set: (_target, name, value) => {
        calls.push(`${String(name)}=${String(value)}`);
        return true;
      },
    },
  ) as CanvasRenderingContext2D;
  const u: Pick<uPlot, 'bbox' | 'valToPos' | 'ctx'> = {
    bbox: { left: 10, top: 5, width: 200, height: 100 },
    valToPos: (value) => 10 + (value * 1000 - start) / 60_000,
    ctx,
  };
  return u;
}

describe('pauseRects', () => {
  const start = NOW - 200 * 60_000;
  const at = (minutes: number) => start + minutes * 60_000;

  it('places each band on the time axis, with edges where it begins or ends inside the plot', () => {
    expect(
      pauseRects(
        plot(start),
        [
          { from: at(20), to: at(60) },
          { from: at(-30), to: at(5) },
          { from: at(190), to: at(260) },
          { from: at(300), to: at(320) },
        ],
        1,
      ),
    ).toEqual([
      { x0: 30, x1: 70, startEdge: true, endEdge: true, mark: true },
      // Begun before the plot's left edge: clipped there, no edge drawn, widened to show its mark.
      { x0: 10, x1: 24, startEdge: false, endEdge: true, mark: true },
      // Going on past the last reading: up to the plot's right edge, widened to the left.
      { x0: 196, x1: 210, startEdge: true, endEdge: false, mark: true },
    ]);
  });

  it('draws a pause of a few seconds as a band with its mark, never a hairline: 14 pixels wide per device pixel', () => {
    expect(pauseRects(plot(start), [{ from: at(100), to: at(100.1) }], 2)).toEqual([
      { x0: 110, x1: 138, startEdge: true, endEdge: true, mark: true },
    ]);
  });
});

describe('drawPauses', () => {
  it('says « Pause » on a band wide enough for it', () => {
    const start = NOW - 200 * 60_000;
    const calls: string[] = [];
    drawPauses(plot(start, calls), [{ from: start + 20 * 60_000, to: start + 120 * 60_000 }], { pause: 'grey', pauseEdge: 'slate' }, 1);
    expect(calls).toContain('fillText(Pause,44,17)');
  });

  it('shades the band in the theme’s colour, dashes its edges and draws the pause mark', () => {
    const start = NOW - 200 * 60_000;
    const calls: string[] = [];
    drawPauses(plot(start, calls), [{ from: start + 20 * 60_000, to: start + 60 * 60_000 }], { pause: 'grey', pauseEdge: 'slate' }, 1);
    expect(calls).toEqual([
      'save()',
      'fillStyle=grey',
      'fillRect(30,5,40,100)',
      'strokeStyle=slate',
      'lineWidth=1',
      'setLineDash([3,3])',
      'beginPath()',
      'moveTo(30.5,5)',
      'lineTo(30.5,105)',
      'moveTo(69.5,5)',
      'lineTo(69.5,105)',
      'stroke()',
      'fillStyle=slate',
      'fillRect(34,9,2,8)',
      'fillRect(38,9,2,8)',
      'restore()',
    ]);
  });
});
