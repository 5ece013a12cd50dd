import type { ReadingBucket } from '@vigie/contract';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatNumber } from '@/lib/measure-format';

const FRENCH_NAMES = {
  MMMM: ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'],
  MMM: ['janv.', 'févr.', 'mars', 'avr.', 'mai', 'juin', 'juil.', 'août', 'sept.', 'oct.', 'nov.', 'déc.'],
  WWWW: ['dimanche', 'lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi'],
  WWW: ['dim.', 'lun.', 'mar.', 'mer.', 'jeu.', 'ven.', 'sam.'],
};

/** Drawn over the data: limits as dashed lines, alert periods as red shading (epoch ms). */
export type ChartOverlays = { limits: number[]; periods: { from: number; to: number }[] };

/**
 * `digits`: the decimals the measure's cards show, so that the tooltip agrees with them;
 * `gapMs`: a silence longer than this between two buckets is drawn as a gap, never a line.
 */
type UplotChartProps = {
  readings: ReadingBucket[];
  unit?: string;
  digits: number;
  height: number;
  gapMs: number;
  overlays?: ChartOverlays;
};

/** Buckets as uPlot columns, with an empty point in each gap so that the line breaks there. */
export function toData(readings: ReadingBucket[], gapMs = Number.POSITIVE_INFINITY): uPlot.AlignedData {
  const xs: number[] = [];
  const cols: (number | null)[][] = [[], [], []];
  let previous: number | null = null;
  for (const bucket of readings) {
    const t = Date.parse(bucket.ts);
    if (previous !== null && t - previous > gapMs) {
      xs.push((previous + gapMs / 2) / 1000);
      for (const col of cols) col.push(null);
    }
    xs.push(t / 1000);
    cols[0]?.push(bucket.min);
    cols[1]?.push(bucket.avg);
    cols[2]?.push(bucket.max);
    previous = t;
  }
  return [xs, ...cols] as uPlot.AlignedData;
}

/** Paints the limits and the alert periods under the series. */
function drawOverlays(u: uPlot, overlays: ChartOverlays | undefined) {
  if (!overlays) return;
  const { ctx } = u;
  const { left, top, width, height } = u.bbox;
  ctx.save();
  ctx.beginPath();
  ctx.rect(left, top, width, height);
  ctx.clip();
  ctx.fillStyle = 'rgba(248,113,113,0.16)';
  for (const period of overlays.periods) {
    const x0 = Math.max(left, u.valToPos(period.from / 1000, 'x', true));
    const x1 = Math.min(left + width, u.valToPos(period.to / 1000, 'x', true));
    if (x1 > x0) ctx.fillRect(x0, top, x1 - x0, height);
  }
  ctx.strokeStyle = 'rgba(248,113,113,0.9)';
  ctx.lineWidth = 1.5 * devicePixelRatio;
  ctx.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio]);
  for (const limit of overlays.limits) {
    const y = u.valToPos(limit, 'y', true);
    ctx.beginPath();
    ctx.moveTo(left, y);
    ctx.lineTo(left + width, y);
    ctx.stroke();
  }
  ctx.restore();
}

const pad = (n: number) => String(n).padStart(2, '0');
const dayLabel = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'short' });
const fullLabel = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'medium', timeStyle: 'short' });

/** Time ticks in French: « 14:00 » within a day, « 24 oct. » at midnight or beyond a day. */
function timeTicks(_u: uPlot, splits: number[], _axis: number, _space: number, increment: number): string[] {
  return splits.map((seconds) => {
    const date = new Date(seconds * 1000);
    const midnight = date.getHours() === 0 && date.getMinutes() === 0;
    if (increment >= 86400 || midnight) return dayLabel.format(date);
    return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
  });
}

const axis = (values?: uPlot.Axis['values']): uPlot.Axis => ({
  stroke: '#94a3b8',
  grid: { stroke: 'rgba(148,163,184,0.12)', width: 1 },
  ticks: { stroke: 'rgba(148,163,184,0.2)', width: 1 },
  font: '12px Inter, system-ui, sans-serif',
  ...(values ? { values } : {}),
});

/** Min–max band and average line; uPlot draws thousands of points on a canvas without effort. */
export default function UplotChart({ readings, unit, digits, height, gapMs, overlays }: UplotChartProps) {
  const container = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const unitRef = useRef(unit);
  const digitsRef = useRef(digits);
  const overlaysRef = useRef(overlays);

  useEffect(() => {
    unitRef.current = unit;
    digitsRef.current = digits;
  }, [unit, digits]);

  useEffect(() => {
    overlaysRef.current = overlays;
    // Limits may widen the y range: recompute the scales, not only the paint.
    plot.current?.redraw();
  }, [overlays]);

  useEffect(() => {
    const element = container.current;
    if (!element) return undefined;
    const format = (value: number | null) =>
      value === null || value === undefined
        ? '—'
        : `${formatNumber(value, digitsRef.current, true)}${unitRef.current ? `\u202F${unitRef.current}` : ''}`;
    const chart = new uPlot(
      {
        width: element.clientWidth || 600,
        height,
        fmtDate: (template) => uPlot.fmtDate(template, FRENCH_NAMES),
        cursor: { drag: { x: false, y: false } },
        legend: { show: true, live: true },
        // The y range includes the limits, so that a line at +8 °C shows even when every value is lower.
        scales: {
          x: { time: true },
          y: {
            range: (_u, min, max) => {
              const all = [min, max, ...(overlaysRef.current?.limits ?? [])].filter((v) => Number.isFinite(v));
              const low = Math.min(...all);
              const high = Math.max(...all);
              const pad = Math.max((high - low) * 0.08, 0.5);
              return [low - pad, high + pad];
            },
          },
        },
        hooks: { drawClear: [(u) => drawOverlays(u, overlaysRef.current)] },
        series: [
          { label: 'Heure', value: (_u, v) => (v === null || v === undefined ? '—' : fullLabel.format(new Date(v * 1000))) },
          { label: 'Min', stroke: 'rgba(34,211,238,0.45)', width: 1, value: (_u, v) => format(v) },
          { label: 'Moyenne', stroke: '#22d3ee', width: 2, value: (_u, v) => format(v), points: { show: false } },
          { label: 'Max', stroke: 'rgba(34,211,238,0.45)', width: 1, value: (_u, v) => format(v) },
        ],
        bands: [{ series: [3, 1], fill: 'rgba(34,211,238,0.14)' }],
        axes: [axis(timeTicks), axis((_u, values) => values.map((value) => formatNumber(value, 2)))],
      },
      toData([]),
      element,
    );
    plot.current = chart;
    const observer = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height }));
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.destroy();
      plot.current = null;
    };
  }, [height]);

  useEffect(() => {
    plot.current?.setData(toData(readings, gapMs));
  }, [readings, gapMs]);

  return <div ref={container} data-testid="readings-chart" className="vigie-chart w-full" />;
}
