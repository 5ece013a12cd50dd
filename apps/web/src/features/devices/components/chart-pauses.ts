import type uPlot from 'uplot';
import { dayNumber, formatClock, formatDay, formatRelativeDay, formatUntil, partsOf } from '@/lib/clock-format';
import { formatDuration } from '@/lib/duration-format';
import { spanX, type PlotArea, type Span } from './chart-data';

const NNBSP = '\u202F';

/**
 * A pause for planned work that held the sensor (ISO): its own, or its whole shop's (`wholeShop`);
 * `until` is still to come while it goes on.
 */
export type ChartPause = { from: string; until: string; reason: string; wholeShop: boolean };

/** A pause as the chart shades it (epoch ms), with the words that name it. */
export type PauseBand = Span & { label: string };

/**
 * « Pause : Nettoyage, aujourd’hui de 14 h 30 à 15 h 30 (1 h) », « Pause : Inventaire (tout le
 * magasin), du 3 mars 22 h au 4 mars 1 h (3 h) », or while it goes on « Pause : Réassort, en cours
 * depuis 14 h 30, jusqu’à 16 h 30 »; on the shop's clock.
 */
export function pauseLabel(pause: ChartPause, now: number, timeZone?: string): string {
  const from = Date.parse(pause.from);
  const until = Date.parse(pause.until);
  const what = `Pause${NNBSP}: ${pause.reason}${pause.wholeShop ? ' (tout le magasin)' : ''}`;
  if (until > now) {
    const day = formatRelativeDay(from, now, timeZone);
    const since = `${day === 'aujourd’hui' ? '' : `${day} `}${formatClock(from, timeZone)}`;
    return `${what}, en cours depuis ${since}, jusqu’à ${formatUntil(until, timeZone, now)}`;
  }
  const duration = formatDuration(pause.from, until);
  if (dayNumber(from, timeZone) === dayNumber(until, timeZone))
    return `${what}, ${formatRelativeDay(from, now, timeZone)} de ${formatClock(from, timeZone)} à ${formatClock(until, timeZone)} (${duration})`;
  const thisYear = partsOf(now, timeZone).year;
  const day = (ms: number) => formatDay(ms, timeZone, partsOf(ms, timeZone).year !== thisYear);
  return `${what}, du ${day(from)} ${formatClock(from, timeZone)} au ${day(until)} ${formatClock(until, timeZone)} (${duration})`;
}

/**
 * The pauses that touched the shown period (the last `periodMs` up to now), oldest first, each
 * named; one going on is shaded up to now, as an alert still open is, its label saying until when.
 */
export function pausesInView(pauses: readonly ChartPause[], now: number, periodMs: number, timeZone?: string): PauseBand[] {
  return pauses
    .map((pause) => ({ pause, from: Date.parse(pause.from), until: Date.parse(pause.until) }))
    .filter(({ from, until }) => until > from && until > now - periodMs)
    .sort((a, b) => a.from - b.from)
    .map(({ pause, from, until }) => ({ from, to: Math.max(from, Math.min(until, now)), label: pauseLabel(pause, now, timeZone) }));
}

/**
 * Where a pause is drawn (canvas pixels): its extent clipped to the plot, a dashed edge where it
 * starts or ends inside the plot, and the « ⏸ » mark at its top when there is room for it.
 */
export type PauseRect = { x0: number; x1: number; startEdge: boolean; endEdge: boolean; mark: boolean };

/** The mark's two bars: each 2 px wide and 8 px tall, 2 px apart, 4 px inside the band. */
const MARK = { inset: 4, bar: 2, gap: 2, height: 8 };
const MARK_ROOM = 2 * MARK.inset + 2 * MARK.bar + MARK.gap;
/** A pause is never narrower than its mark (a quarter of an hour on a month would be a hairline). */
export const PAUSE_MIN_WIDTH = MARK_ROOM;
/** From this width, the band also says « Pause » beside its mark. */
const LABEL_ROOM = 60;

export function pauseRects(u: PlotArea, bands: readonly Span[], ratio = devicePixelRatio): PauseRect[] {
  const { left, width } = u.bbox;
  return bands.flatMap((band) => {
    const x = spanX(u, band, ratio);
    if (!x) return [];
    // Widened to its minimum, to the right, or to the left against the plot's right edge.
    const min = PAUSE_MIN_WIDTH * ratio;
    const x1 = Math.min(left + width, Math.max(x[1], x[0] + min));
    const x0 = Math.max(left, Math.min(x[0], x1 - min));
    return [
      {
        x0,
        x1,
        startEdge: u.valToPos(band.from / 1000, 'x', true) >= left,
        endEdge: u.valToPos(band.to / 1000, 'x', true) <= left + width,
        mark: x1 - x0 >= MARK_ROOM * ratio,
      },
    ];
  });
}

/**
 * Paints the pauses under the series: a neutral shading, dashed edges and a « ⏸ » mark, so that a
 * pause reads apart from an alert (red), an anomaly (amber bar) or a defrost (hatched) without colour.
 */
export function drawPauses(
  u: PlotArea & Pick<uPlot, 'ctx'>,
  bands: readonly Span[],
  colours: { pause: string; pauseEdge: string },
  ratio = devicePixelRatio,
): void {
  const { ctx } = u;
  const { top, height } = u.bbox;
  ctx.save();
  for (const rect of pauseRects(u, bands, ratio)) {
    ctx.fillStyle = colours.pause;
    ctx.fillRect(rect.x0, top, rect.x1 - rect.x0, height);
    ctx.strokeStyle = colours.pauseEdge;
    ctx.lineWidth = ratio;
    ctx.setLineDash([3 * ratio, 3 * ratio]);
    ctx.beginPath();
    for (const [edge, x] of [
      [rect.startEdge, rect.x0 + ratio / 2],
      [rect.endEdge, rect.x1 - ratio / 2],
    ] as const) {
      if (!edge) continue;
      ctx.moveTo(x, top);
      ctx.lineTo(x, top + height);
    }
    ctx.stroke();
    if (rect.mark) {
      ctx.fillStyle = colours.pauseEdge;
      const x = rect.x0 + MARK.inset * ratio;
      const y = top + MARK.inset * ratio;
      ctx.fillRect(x, y, MARK.bar * ratio, MARK.height * ratio);
      ctx.fillRect(x + (MARK.bar + MARK.gap) * ratio, y, MARK.bar * ratio, MARK.height * ratio);
      // Named on the chart itself where there is room; its reason and times are under the chart.
      if (rect.x1 - rect.x0 >= LABEL_ROOM * ratio) {
        ctx.font = `${11 * ratio}px Inter, system-ui, sans-serif`;
        ctx.fillText('Pause', rect.x0 + MARK_ROOM * ratio, y + MARK.height * ratio);
      }
    }
  }
  ctx.restore();
}
