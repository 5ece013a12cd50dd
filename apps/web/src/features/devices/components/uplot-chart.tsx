import type { ReadingBucket } from '@vigie/contract';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatNumber } from '../measure-format';

const FRENCH_NAMES = {
  MMMM: ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'],
  MMM: ['janv.', 'févr.', 'mars', 'avr.', 'mai', 'juin', 'juil.', 'août', 'sept.', 'oct.', 'nov.', 'déc.'],
  WWWW: ['dimanche', 'lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi'],
  WWW: ['dim.', 'lun.', 'mar.', 'mer.', 'jeu.', 'ven.', 'sam.'],
};

/** `digits`: the decimals the measure's cards show, so that the tooltip agrees with them. */
type UplotChartProps = { readings: ReadingBucket[]; unit?: string; digits: number; height: number };

function toData(readings: ReadingBucket[]): uPlot.AlignedData {
  return [
    readings.map((bucket) => Date.parse(bucket.ts) / 1000),
    readings.map((bucket) => bucket.min),
    readings.map((bucket) => bucket.avg),
    readings.map((bucket) => bucket.max),
  ];
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
export default function UplotChart({ readings, unit, digits, height }: UplotChartProps) {
  const container = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const unitRef = useRef(unit);
  const digitsRef = useRef(digits);

  useEffect(() => {
    unitRef.current = unit;
    digitsRef.current = digits;
  }, [unit, digits]);

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
        scales: { x: { time: true } },
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
    plot.current?.setData(toData(readings));
  }, [readings]);

  return <div ref={container} data-testid="readings-chart" className="vigie-chart w-full" />;
}
