import type { ReadingBucket } from '@vigie/contract';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { type Theme, useTheme } from '@/lib/theme';
import { formatDateTime, formatNumber } from '@/lib/measure-format';
import { spanX, timeRange, toData, type ChartForecastPoint, type Span } from './chart-data';
import { drawPauses } from './chart-pauses';

const FRENCH_NAMES = {
  MMMM: ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'],
  MMM: ['janv.', 'févr.', 'mars', 'avr.', 'mai', 'juin', 'juil.', 'août', 'sept.', 'oct.', 'nov.', 'déc.'],
  WWWW: ['dimanche', 'lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi'],
  WWW: ['dim.', 'lun.', 'mar.', 'mer.', 'jeu.', 'ven.', 'sam.'],
};

/** The chart's colours: bright on the dark page, a shade darker on the light one so that lines keep 3:1. */
const COLOURS = {
  dark: {
    line: 'rgb(34,211,238)',
    minMax: 'rgba(34,211,238,0.45)',
    band: 'rgba(34,211,238,0.14)',
    forecast: 'rgb(196,181,253)',
    forecastEdge: 'rgba(196,181,253,0.5)',
    forecastBand: 'rgba(167,139,250,0.22)',
    axis: 'rgb(148,163,184)',
    grid: 'rgba(148,163,184,0.12)',
    tick: 'rgba(148,163,184,0.2)',
    defrost: 'rgba(56,189,248,0.10)',
    defrostHatch: 'rgba(125,211,252,0.35)',
    period: 'rgba(248,113,113,0.16)',
    anomaly: 'rgba(251,191,36,0.14)',
    anomalyBar: 'rgba(251,191,36,0.95)',
    limit: 'rgba(248,113,113,0.9)',
    pause: 'rgba(148,163,184,0.18)',
    pauseEdge: 'rgba(203,213,225,0.85)',
  },
  light: {
    line: 'rgb(14,116,144)',
    minMax: 'rgba(14,116,144,0.45)',
    band: 'rgba(14,116,144,0.12)',
    forecast: 'rgb(109,40,217)',
    forecastEdge: 'rgba(109,40,217,0.5)',
    forecastBand: 'rgba(124,58,237,0.14)',
    axis: 'rgb(71,85,105)',
    grid: 'rgba(71,85,105,0.14)',
    tick: 'rgba(71,85,105,0.25)',
    defrost: 'rgba(2,132,199,0.08)',
    defrostHatch: 'rgba(2,132,199,0.35)',
    period: 'rgba(220,38,38,0.10)',
    anomaly: 'rgba(217,119,6,0.12)',
    anomalyBar: 'rgba(217,119,6,0.95)',
    limit: 'rgba(220,38,38,0.9)',
    pause: 'rgba(71,85,105,0.12)',
    pauseEdge: 'rgba(51,65,85,0.85)',
  },
} satisfies Record<Theme, Record<string, string>>;
type Colours = (typeof COLOURS)[Theme];

/**
 * Drawn under the data (epoch ms): limits as dashed lines, alert periods in red, anomalies in amber
 * with a bar along the top, recognised defrost cycles hatched in blue, pauses for planned work
 * shaded grey between dashed edges.
 */
export type ChartOverlays = { limits: number[]; periods: Span[]; anomalies?: Span[]; defrosts?: Span[]; pauses?: Span[] };

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
  /** Drawn after the last reading, dashed, with its interval as a lighter band. */
  forecast?: ChartForecastPoint[];
  /** The period shown (epoch ms): the time axis spans it whatever the readings. */
  period?: Span;
};

/** Paints the pauses, limits, alert periods, anomalies and defrost cycles under the series. */
function drawOverlays(u: uPlot, overlays: ChartOverlays | undefined, colours: Colours) {
  if (!overlays) return;
  const { ctx } = u;
  const { left, top, width, height } = u.bbox;
  const ratio = devicePixelRatio;
  ctx.save();
  ctx.beginPath();
  ctx.rect(left, top, width, height);
  ctx.clip();
  drawPauses(u, overlays.pauses ?? [], colours, ratio);
  // Defrosts: hatched, so that they read apart from alerts and anomalies without relying on colour.
  for (const defrost of overlays.defrosts ?? []) {
    const x = spanX(u, defrost);
    if (!x) continue;
    ctx.fillStyle = colours.defrost;
    ctx.fillRect(x[0], top, x[1] - x[0], height);
    ctx.save();
    ctx.beginPath();
    ctx.rect(x[0], top, x[1] - x[0], height);
    ctx.clip();
    ctx.strokeStyle = colours.defrostHatch;
    ctx.lineWidth = ratio;
    ctx.beginPath();
    for (let start = x[0] - height; start < x[1]; start += 8 * ratio) {
      ctx.moveTo(start, top + height);
      ctx.lineTo(start + height, top);
    }
    ctx.stroke();
    ctx.restore();
  }
  ctx.fillStyle = colours.period;
  for (const period of overlays.periods) {
    const x = spanX(u, period);
    if (x) ctx.fillRect(x[0], top, x[1] - x[0], height);
  }
  // Anomalies: amber shading and a solid bar along the top edge.
  for (const anomaly of overlays.anomalies ?? []) {
    const x = spanX(u, anomaly);
    if (!x) continue;
    ctx.fillStyle = colours.anomaly;
    ctx.fillRect(x[0], top, x[1] - x[0], height);
    ctx.fillStyle = colours.anomalyBar;
    ctx.fillRect(x[0], top, x[1] - x[0], 4 * ratio);
  }
  ctx.strokeStyle = colours.limit;
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

/** Time ticks in French: « 14:00 » within a day, « 24 oct. » at midnight or beyond a day. */
function timeTicks(_u: uPlot, splits: number[], _axis: number, _space: number, increment: number): string[] {
  return splits.map((seconds) => {
    const date = new Date(seconds * 1000);
    const midnight = date.getHours() === 0 && date.getMinutes() === 0;
    if (increment >= 86400 || midnight) return dayLabel.format(date);
    return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
  });
}

const axis = (colours: Colours, values?: uPlot.Axis['values']): uPlot.Axis => ({
  stroke: colours.axis,
  grid: { stroke: colours.grid, width: 1 },
  ticks: { stroke: colours.tick, width: 1 },
  font: '12px Inter, system-ui, sans-serif',
  ...(values ? { values } : {}),
});

/** Min–max band and average line; uPlot draws thousands of points on a canvas without effort. */
export default function UplotChart({ readings, unit, digits, height, gapMs, overlays, forecast, period }: UplotChartProps) {
  const container = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const unitRef = useRef(unit);
  const digitsRef = useRef(digits);
  const overlaysRef = useRef(overlays);
  const periodRef = useRef(period);
  // The forecast's three series exist only when there is a forecast: the chart is rebuilt when it comes or goes.
  const hasForecast = Boolean(forecast && forecast.length > 0);
  // The chart is drawn again in the other theme's colours when the person switches.
  const { theme } = useTheme();

  useEffect(() => {
    unitRef.current = unit;
    digitsRef.current = digits;
  }, [unit, digits]);

  useEffect(() => {
    periodRef.current = period;
    overlaysRef.current = overlays;
    // Limits may widen the y range, a pause begun after the last reading the time axis: recompute the scales, not only the paint.
    const chart = plot.current;
    chart?.setData(chart.data);
  }, [overlays, period]);

  useEffect(() => {
    const element = container.current;
    if (!element) return undefined;
    const format = (value: number | null) =>
      value === null || value === undefined
        ? '—'
        : `${formatNumber(value, digitsRef.current, true)}${unitRef.current ? `\u202F${unitRef.current}` : ''}`;
    const forecastValue = (_u: uPlot, value: number | null) => format(value);
    const colours = COLOURS[theme];
    const chart = new uPlot(
      {
        width: element.clientWidth || 600,
        height,
        fmtDate: (template) => uPlot.fmtDate(template, FRENCH_NAMES),
        cursor: { drag: { x: false, y: false } },
        legend: { show: true, live: true },
        // The y range includes the limits, so that a line at +8 °C shows even when every value is lower.
        scales: {
          x: {
            time: true,
            // The chosen period, whatever the readings; on to the end of the last pause shaded (now at most).
            range: (u) =>
              timeRange(
                u.data[0],
                periodRef.current,
                (overlaysRef.current?.pauses ?? []).map((pause) => pause.to / 1000),
              ),
          },
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
        hooks: {
          drawClear: [(u) => drawOverlays(u, overlaysRef.current, colours)],
          // The legend reads the values under the pointer: away from the chart it would only say « — ».
          setCursor: [(u) => u.root.classList.toggle('vigie-chart-idle', u.cursor.idx === null || u.cursor.idx === undefined)],
          ready: [(u) => u.root.classList.add('vigie-chart-idle')],
        },
        series: [
          { label: 'Heure', value: (_u, v) => (v === null || v === undefined ? '—' : formatDateTime(v * 1000)) },
          { label: 'Min', stroke: colours.minMax, width: 1, value: (_u, v) => format(v) },
          { label: 'Moyenne', stroke: colours.line, width: 2, value: (_u, v) => format(v), points: { show: false } },
          { label: 'Max', stroke: colours.minMax, width: 1, value: (_u, v) => format(v) },
          ...(hasForecast
            ? [
                { label: 'Prévision basse', stroke: colours.forecastEdge, width: 1, dash: [2, 3], value: forecastValue },
                { label: 'Prévision', stroke: colours.forecast, width: 2, dash: [7, 5], value: forecastValue, points: { show: false } },
                { label: 'Prévision haute', stroke: colours.forecastEdge, width: 1, dash: [2, 3], value: forecastValue },
              ]
            : []),
        ],
        bands: [
          { series: [3, 1], fill: colours.band },
          ...(hasForecast ? [{ series: [6, 4] as [number, number], fill: colours.forecastBand }] : []),
        ],
        // The values' axis carries the unit (« 4 °C »), wide enough for « −18,5 °C ».
        axes: [
          axis(colours, timeTicks),
          {
            ...axis(colours, (_u, values) =>
              values.map((value) => `${formatNumber(value, 2)}${unitRef.current ? `\u202F${unitRef.current}` : ''}`),
            ),
            size: unitRef.current ? 72 : 50,
          },
        ],
      },
      toData([], Number.POSITIVE_INFINITY, hasForecast ? [] : undefined),
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
  }, [height, hasForecast, theme]);

  useEffect(() => {
    plot.current?.setData(toData(readings, gapMs, hasForecast ? forecast : undefined));
    // A chart rebuilt for the other theme starts empty: its data again.
  }, [readings, gapMs, forecast, hasForecast, theme]);

  return <div ref={container} data-testid="readings-chart" className="vigie-chart w-full" />;
}
