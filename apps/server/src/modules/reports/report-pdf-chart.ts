import type { ReportChartPoint, ReportUnit } from './report-content.ts';
import { formatDuration, formatNumber, formatTemperature, startOfDay } from './report-format.ts';
import { COLOR, FONT, contentWidth, ensureSpace, type Doc } from './report-pdf-layout.ts';

/**
 * The month's chart, drawn as vector paths: the min–max band of each chart point as a step shape,
 * broken wherever a point has no data (a blank stays a blank, shaded grey), the limits as dashed red
 * lines, one tick per day of the site's calendar.
 */

const Y_LABELS = 34;
const PLOT_HEIGHT = 165;
const X_LABELS = 14;
const LEGEND = 16;
export const CHART_HEIGHT = 14 + PLOT_HEIGHT + X_LABELS + LEGEND;

interface Period {
  from: number;
  to: number;
  timezone: string;
}

/** A step of 1, 2 or 5 × 10ⁿ giving at most 7 ticks over `span`, whatever its size (an absurd reading of 1e20 included). */
export function niceStep(span: number): number {
  const safe = Number.isFinite(span) && span > 0 ? span : 1;
  const magnitude = 10 ** Math.floor(Math.log10(safe / 7));
  for (const factor of [1, 2, 5, 10]) {
    const step = factor * magnitude;
    if (safe / step <= 7) return Math.max(step, 0.5);
  }
  return Math.max(10 * magnitude, 0.5);
}

function valueRange(unit: ReportUnit): { low: number; high: number; step: number } {
  const values: number[] = [];
  for (const point of unit.chart) {
    if (point.min !== null) values.push(point.min);
    if (point.max !== null) values.push(point.max);
  }
  if (unit.min !== null) values.push(unit.min);
  if (unit.max !== null) values.push(unit.max);
  const lowest = values.length ? values.reduce((a, b) => Math.min(a, b)) : 0;
  const highest = values.length ? values.reduce((a, b) => Math.max(a, b)) : 10;
  const step = niceStep(Math.max(highest - lowest + 2, 2));
  return { low: Math.floor((lowest - 1) / step) * step, high: Math.ceil((highest + 1) / step) * step, step };
}

/** Contiguous runs of points that have data. */
function runs(points: ReportChartPoint[]): ReportChartPoint[][] {
  const result: ReportChartPoint[][] = [];
  let current: ReportChartPoint[] = [];
  for (const point of points) {
    if (point.min === null || point.max === null) {
      if (current.length) result.push(current);
      current = [];
    } else {
      current.push(point);
    }
  }
  if (current.length) result.push(current);
  return result;
}

/** The days of the period on the site's calendar, as [start, end) instants. */
function dayBounds(unit: ReportUnit, period: Period): Array<{ day: string; start: number; end: number }> {
  const starts = unit.days.map((d) => ({ day: d.date, start: startOfDay(d.date, period.timezone) }));
  return starts.map((s, i) => ({ ...s, end: starts[i + 1]?.start ?? period.to }));
}

export function drawMonthChart(doc: Doc, unit: ReportUnit, period: Period): void {
  ensureSpace(doc, CHART_HEIGHT);
  const left = doc.page.margins.left + Y_LABELS;
  const right = doc.page.margins.left + contentWidth(doc) - 4;
  const top = doc.y + 14;
  const bottom = top + PLOT_HEIGHT;
  const width = right - left;
  const { low, high, step } = valueRange(unit);
  const span = Math.max(period.to - period.from, 1);
  const xOf = (t: number): number => left + (Math.min(Math.max(t, period.from), period.to) - period.from) * (width / span);
  const yOf = (v: number): number => bottom - ((v - low) / (high - low)) * PLOT_HEIGHT;

  doc.save();
  doc.rect(left, top, width, PLOT_HEIGHT).clip();

  // Blanks first, under everything: the unit's gaps and every chart point without data.
  const blanks = [
    ...unit.gaps.map((g) => [Date.parse(g.from), Date.parse(g.to)] as const),
    ...unit.chart.filter((p) => p.min === null || p.max === null).map((p) => [Date.parse(p.from), Date.parse(p.to)] as const),
  ];
  for (const [from, to] of blanks) doc.rect(xOf(from), top, Math.max(xOf(to) - xOf(from), 0.5), PLOT_HEIGHT).fill(COLOR.gapFill);

  // Grid: one line per value tick and per day.
  doc.lineWidth(0.3).strokeColor('#d6d6d6');
  for (let v = low; v <= high + 1e-9; v += step) doc.moveTo(left, yOf(v)).lineTo(right, yOf(v)).stroke();
  const days = dayBounds(unit, period);
  for (const d of days) doc.moveTo(xOf(d.start), top).lineTo(xOf(d.start), bottom).stroke();

  // The min–max band of each run, as steps: each point covers its own bucket, nothing in between.
  for (const run of runs(unit.chart)) {
    const upper = run.flatMap((p) => [
      [xOf(Date.parse(p.from)), yOf(p.max ?? 0)],
      [xOf(Date.parse(p.to)), yOf(p.max ?? 0)],
    ]);
    const lower = run.flatMap((p) => [
      [xOf(Date.parse(p.from)), yOf(p.min ?? 0)],
      [xOf(Date.parse(p.to)), yOf(p.min ?? 0)],
    ]);
    const outline = [...upper, ...[...lower].reverse()];
    outline.forEach(([x, y], i) => (i === 0 ? doc.moveTo(x ?? 0, y ?? 0) : doc.lineTo(x ?? 0, y ?? 0)));
    doc.closePath().fillColor(COLOR.band).fillOpacity(0.35).fill();
    doc.fillOpacity(1);
    for (const edge of [upper, lower]) {
      edge.forEach(([x, y], i) => (i === 0 ? doc.moveTo(x ?? 0, y ?? 0) : doc.lineTo(x ?? 0, y ?? 0)));
      doc.lineWidth(0.6).strokeColor(COLOR.band).stroke();
    }
  }

  // Limits: dashed red, labelled inside the plot.
  doc.font(FONT).fontSize(6.5);
  for (const [value, label, above] of [
    [unit.max, 'Limite haute', true],
    [unit.min, 'Limite basse', false],
  ] as const) {
    if (value === null) continue;
    const y = yOf(value);
    doc.moveTo(left, y).lineTo(right, y).lineWidth(0.9).strokeColor(COLOR.limit).dash(4, { space: 2.5 }).stroke().undash();
    const text = `${label} ${formatTemperature(value, { signed: true })}`;
    const textWidth = doc.widthOfString(text);
    const textY = above ? y - 9.5 : y + 2.5;
    doc
      .rect(right - textWidth - 6, textY - 1, textWidth + 4, 8.5)
      .fillColor('#ffffff')
      .fillOpacity(0.85)
      .fill()
      .fillOpacity(1);
    doc.fillColor(COLOR.limit).text(text, right - textWidth - 4, textY, { lineBreak: false });
  }
  doc.restore();

  doc.rect(left, top, width, PLOT_HEIGHT).lineWidth(0.5).strokeColor(COLOR.muted).stroke();

  // Value axis.
  doc.font(FONT).fontSize(6.5).fillColor(COLOR.muted);
  for (let v = low; v <= high + 1e-9; v += step) {
    doc.text(formatNumber(v, step < 1 ? 1 : 0), doc.page.margins.left, yOf(v) - 3.5, {
      width: Y_LABELS - 4,
      align: 'right',
      lineBreak: false,
    });
  }
  doc.text('°C', doc.page.margins.left, top - 13, { width: Y_LABELS - 4, align: 'right', lineBreak: false });

  // Day axis: a tick at each midnight, the day's number in the middle of its day.
  const dayWidth = width / Math.max(days.length, 1);
  days.forEach((d, i) => {
    doc
      .moveTo(xOf(d.start), bottom)
      .lineTo(xOf(d.start), bottom + 3)
      .lineWidth(0.5)
      .strokeColor(COLOR.muted)
      .stroke();
    if (dayWidth >= 11 || i % 2 === 0) {
      const middle = (xOf(d.start) + xOf(d.end)) / 2;
      doc.text(String(Number(d.day.slice(8, 10))), middle - 8, bottom + 4, { width: 16, align: 'center', lineBreak: false });
    }
  });

  // Legend.
  const legendY = bottom + X_LABELS + 4;
  const first = unit.chart[0];
  const bucket = first ? formatDuration((Date.parse(first.to) - Date.parse(first.from)) / 1000) : '';
  let x = left;
  doc.rect(x, legendY, 14, 7).fillColor(COLOR.band).fillOpacity(0.35).fill().fillOpacity(1);
  x = legendText(doc, `Min – max des relevés${bucket ? ` (par tranche de ${bucket})` : ''}`, x + 18, legendY);
  doc.rect(x, legendY, 14, 7).fill(COLOR.gapFill);
  x = legendText(doc, 'Sans données (jamais interpolé)', x + 18, legendY);
  if (unit.min !== null || unit.max !== null) {
    doc
      .moveTo(x, legendY + 3.5)
      .lineTo(x + 14, legendY + 3.5)
      .lineWidth(0.9)
      .strokeColor(COLOR.limit)
      .dash(4, { space: 2.5 })
      .stroke()
      .undash();
    legendText(doc, 'Limites', x + 18, legendY);
  }

  doc.x = doc.page.margins.left;
  doc.y = legendY + LEGEND - 4;
}

/** Writes a legend label and returns where the next swatch goes. */
function legendText(doc: Doc, text: string, x: number, y: number): number {
  doc.font(FONT).fontSize(6.5).fillColor(COLOR.muted);
  doc.text(text, x, y, { lineBreak: false });
  return x + doc.widthOfString(text) + 14;
}
