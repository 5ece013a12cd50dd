import PDFDocument from 'pdfkit';
import type { ReportUnitSummary } from '@vigie/contract';
import type { ReportContent, ReportDay, ReportExcursion, ReportUnit } from './report-content.ts';
import {
  NBSP,
  NONE,
  actorLabel,
  directionLabel,
  formatCompliance,
  formatDateTime,
  formatDayLabel,
  formatDuration,
  formatLimits,
  formatMonth,
  formatNumber,
  formatTemperature,
  resolutionLabel,
  severityLabel,
  truncateCompliance,
} from './report-format.ts';
import { drawMonthChart } from './report-pdf-chart.ts';
import {
  COLOR,
  FONT,
  FONT_BOLD,
  FOOTER_SPACE,
  MARGIN,
  contentWidth,
  paragraph,
  reportFonts,
  sectionTitle,
  table,
  type Cell,
  type Doc,
} from './report-pdf-layout.ts';

export const REPORT_TITLE = 'Relevé de températures — HACCP';

/**
 * Renders a report's content as an A4 PDF in French: page 1 sums the period up for the inspector
 * and carries the hand-signature boxes, then each unit has its own pages (chart, days, excursions,
 * blanks, battery). The same content always gives the same bytes: the dates and the file ID come
 * from `content.createdAt`, never from the clock.
 */
export async function renderReportPdf(content: ReportContent): Promise<Buffer> {
  const { regular, bold } = reportFonts();
  const createdAt = new Date(content.createdAt);
  const doc: Doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN + FOOTER_SPACE },
    bufferPages: true,
    lang: 'fr-FR',
    displayTitle: true,
    // Opening with DejaVu keeps pdfkit from loading its standard Helvetica at all.
    font: regular,
    info: {
      Title: `${REPORT_TITLE} — ${content.siteName} — ${formatMonth(content.month)}`,
      Author: 'Vigie',
      Subject: `Rapport ${content.reportId}`,
      Creator: 'Vigie',
      CreationDate: createdAt,
      ModDate: createdAt,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.registerFont(FONT, regular);
  doc.registerFont(FONT_BOLD, bold);
  doc.font(FONT);

  writeSummaryPage(doc, content);
  for (const unit of content.units) writeUnit(doc, content, unit);
  writePageFrames(doc, content);
  doc.end();
  return done;
}

function periodText(content: ReportContent): string {
  const { from, to } = content.summary;
  return `${formatMonth(content.month)}, du ${formatDateTime(from, content.timezone)} au ${formatDateTime(to, content.timezone)} (heure locale, fuseau ${content.timezone})`;
}

function writeSummaryPage(doc: Doc, content: ReportContent): void {
  doc
    .font(FONT_BOLD)
    .fontSize(18)
    .fillColor(COLOR.text)
    .text(REPORT_TITLE, MARGIN, MARGIN, { width: contentWidth(doc) });
  doc.moveDown(0.2);
  paragraph(doc, `${content.organizationName} — ${content.siteName}`, { size: 12, bold: true });
  doc.moveDown(0.4);
  paragraph(doc, `Période${NBSP}: ${periodText(content)}`);
  const maker = content.createdByName ? `établi par ${content.createdByName}` : 'Rapport établi automatiquement';
  paragraph(doc, `Établi le ${formatDateTime(content.createdAt, content.timezone)} — ${maker}`);

  sectionTitle(doc, 'Synthèse par enceinte');
  const units = content.summary.units;
  const rows: Cell[][] = units.map((u) => summaryRow(u));
  rows.push(totalRow(content));
  table(
    doc,
    [
      { header: 'Enceinte', weight: 24 },
      { header: 'Limites', weight: 20 },
      { header: 'Conformité', weight: 12, align: 'right' },
      { header: 'Excursions', weight: 12, align: 'right' },
      { header: 'Durée des excursions', weight: 12, align: 'right' },
      { header: 'Sans données', weight: 10, align: 'right' },
      { header: 'Points ouverts', weight: 10, align: 'right' },
    ],
    rows,
    { size: 8 },
  );
  if (units.length === 0) paragraph(doc, 'Aucune enceinte suivie sur ce site pendant la période.');

  doc.moveDown(0.6);
  for (const line of [
    'Conformité : part de toute la période passée dans les limites, arrondie à l’inférieur. Une enceinte sans limite n’a pas de taux.',
    'Une absence de données est une non-conformité : elle est montrée telle quelle, jamais interpolée.',
    'Excursion : temps continu hors limites, mesuré sur les relevés. Points ouverts : alertes encore actives quand le rapport a été établi.',
    `Références : Règlement (CE) n°${NBSP}852/2004, art.${NBSP}5 (HACCP) ; Règlement (CE) n°${NBSP}37/2005 (températures des aliments surgelés) ; Plan de Maîtrise Sanitaire de l’établissement.`,
  ]) {
    paragraph(doc, line.replace(' : ', `${NBSP}: `).replace(' ; ', `${NBSP}; `), { size: 7.5, color: COLOR.muted });
    doc.moveDown(0.15);
  }

  writeSignatureBlock(doc);
}

function summaryRow(u: ReportUnitSummary): Cell[] {
  const compliant = u.compliancePercent === null || truncateCompliance(u.compliancePercent) >= 100;
  return [
    { text: u.name, bold: true },
    { text: formatLimits(u.min, u.max) },
    { text: formatCompliance(u.compliancePercent), ...(compliant ? {} : { tone: 'alert' as const }) },
    { text: formatNumber(u.excursionCount, 0), ...(u.excursionCount > 0 ? { tone: 'alert' as const } : {}) },
    { text: formatDuration(u.excursionSeconds) },
    { text: formatDuration(u.noDataSeconds), ...(u.noDataSeconds > 0 ? { tone: 'gap' as const } : {}) },
    { text: formatNumber(u.openItems, 0), ...(u.openItems > 0 ? { tone: 'alert' as const } : {}) },
  ];
}

/** The site as a whole: compliance over the time of every unit held to limits. */
function totalRow(content: ReportContent): Cell[] {
  const { summary } = content;
  const held = summary.units.filter((u) => u.compliancePercent !== null);
  const accounted = held.reduce((sum, u) => sum + u.inRangeSeconds + u.outOfRangeSeconds + u.noDataSeconds, 0);
  const compliance = accounted > 0 ? (held.reduce((sum, u) => sum + u.inRangeSeconds, 0) / accounted) * 100 : null;
  const count = summary.units.length;
  return [
    { text: `Ensemble (${count} enceinte${count > 1 ? 's' : ''})`, bold: true },
    { text: '' },
    { text: formatCompliance(compliance), bold: true },
    { text: formatNumber(summary.excursionCount, 0), bold: true },
    { text: formatDuration(summary.excursionSeconds), bold: true },
    { text: formatDuration(summary.noDataSeconds), bold: true },
    { text: formatNumber(summary.openItems, 0), bold: true },
  ];
}

/** Boxes to fill by hand; the PDF never changes after it is made, so an e-signature lives beside it. */
function writeSignatureBlock(doc: Doc): void {
  sectionTitle(doc, 'Visa', 150);
  const width = contentWidth(doc);
  const half = (width - 10) / 2;
  const boxes: Array<{ label: string; x: number; y: number; w: number; h: number }> = [];
  const top = doc.y + 2;
  boxes.push({ label: 'Nom', x: MARGIN, y: top, w: half, h: 34 });
  boxes.push({ label: 'Date', x: MARGIN + half + 10, y: top, w: half, h: 34 });
  boxes.push({ label: 'Visa du responsable', x: MARGIN, y: top + 42, w: half, h: 78 });
  boxes.push({ label: 'Commentaire', x: MARGIN + half + 10, y: top + 42, w: half, h: 78 });
  for (const box of boxes) {
    doc.rect(box.x, box.y, box.w, box.h).lineWidth(0.7).strokeColor(COLOR.muted).stroke();
    doc
      .font(FONT)
      .fontSize(7.5)
      .fillColor(COLOR.muted)
      .text(box.label, box.x + 4, box.y + 3, { width: box.w - 8, lineBreak: false });
  }
  doc.y = top + 128;
  paragraph(doc, `Signature électronique enregistrée dans Vigie${NBSP}: voir l’historique du rapport.`, { size: 7.5, color: COLOR.muted });
}

function isOut(unit: ReportUnit, value: number | null): boolean {
  if (value === null) return false;
  return (unit.min !== null && value < unit.min) || (unit.max !== null && value > unit.max);
}

function valueCell(unit: ReportUnit, value: number | null): Cell {
  if (value === null) return { text: NONE, tone: 'gap' };
  return { text: formatNumber(value, 1), ...(isOut(unit, value) ? { tone: 'alert' as const } : {}) };
}

function writeUnit(doc: Doc, content: ReportContent, unit: ReportUnit): void {
  doc.addPage();
  doc
    .font(FONT_BOLD)
    .fontSize(15)
    .fillColor(COLOR.text)
    .text(unit.name, MARGIN, doc.y, { width: contentWidth(doc) });
  const identity = [unit.serial ? `N° de série ${unit.serial}` : null, unit.model ? `modèle ${unit.model}` : null]
    .filter(Boolean)
    .join(' · ');
  if (identity) paragraph(doc, identity, { color: COLOR.muted });
  doc.moveDown(0.4);

  paragraph(doc, `Limites${NBSP}: ${formatLimits(unit.min, unit.max)}`, { bold: true });
  if (unit.limitSources.length === 0) {
    paragraph(doc, 'Aucune règle d’alerte sur la température : pas de limite, donc pas de taux de conformité.'.replace(' :', `${NBSP}:`), {
      size: 8,
      color: COLOR.muted,
    });
  }
  for (const source of unit.limitSources) {
    const parts = [`Règle « ${source.ruleName} »`];
    if (source.presetLabel) parts.push(`modèle « ${source.presetLabel} »`);
    if (source.regulation) parts.push(source.regulation);
    paragraph(doc, `• ${parts.join(' — ').replaceAll('« ', `«${NBSP}`).replaceAll(' »', `${NBSP}»`)}`, { size: 8, color: COLOR.muted });
  }
  doc.moveDown(0.3);
  const summary = content.summary.units.find((u) => u.sensorId === unit.sensorId);
  const stats = [
    `min ${formatTemperature(unit.minValue)}`,
    `moyenne ${formatTemperature(unit.meanValue)}`,
    `max ${formatTemperature(unit.maxValue)}`,
    `${formatNumber(unit.readingCount, 0)} relevé${unit.readingCount > 1 ? 's' : ''}`,
  ];
  if (summary?.compliancePercent != null) stats.push(`conformité ${formatCompliance(summary.compliancePercent)}`);
  paragraph(doc, `Sur la période${NBSP}: ${stats.join(' · ')}`);

  sectionTitle(doc, 'Courbe du mois', 210);
  drawMonthChart(doc, unit, {
    from: Date.parse(content.summary.from),
    to: Date.parse(content.summary.to),
    timezone: content.timezone,
  });

  sectionTitle(doc, 'Relevés par jour');
  table(
    doc,
    [
      { header: 'Jour', weight: 14 },
      { header: 'Min (°C)', weight: 11, align: 'right' },
      { header: 'Moyenne (°C)', weight: 13, align: 'right' },
      { header: 'Max (°C)', weight: 11, align: 'right' },
      { header: 'Relevés', weight: 11, align: 'right' },
      { header: 'Temps hors limites', weight: 15, align: 'right' },
      { header: 'Temps sans données', weight: 15, align: 'right' },
    ],
    unit.days.map((day) => dayRow(unit, day)),
  );

  writeExcursions(doc, content, unit);
  writeGaps(doc, content, unit);
  writeBattery(doc, content, unit);
}

function dayRow(unit: ReportUnit, day: ReportDay): Cell[] {
  return [
    { text: formatDayLabel(day.date) },
    valueCell(unit, day.min),
    valueCell(unit, day.mean),
    valueCell(unit, day.max),
    { text: formatNumber(day.readings, 0), ...(day.readings === 0 ? { tone: 'gap' as const } : {}) },
    { text: formatDuration(day.outOfRangeSeconds), ...(day.outOfRangeSeconds > 0 ? { tone: 'alert' as const } : {}) },
    { text: formatDuration(day.noDataSeconds), ...(day.noDataSeconds > 0 ? { tone: 'gap' as const } : {}) },
  ];
}

/** « 02/11/2026 14:05 » on two lines, for narrow columns. */
function stacked(dateTime: string): string {
  return dateTime.replace(' ', '\n');
}

function excursionRow(content: ReportContent, excursion: ReportExcursion): Cell[] {
  const tz = content.timezone;
  const { alert } = excursion;
  const acknowledged =
    alert?.acknowledgedAt != null ? `${actorLabel(alert.acknowledgedBy)}, ${formatDateTime(alert.acknowledgedAt, tz)}` : 'Non acquittée';
  const actions = alert?.actions.length
    ? alert.actions.map((a) => `${formatDateTime(a.at, tz)} — ${actorLabel(a.by)}${NBSP}: ${a.text}`).join('\n')
    : 'Aucune';
  return [
    { text: stacked(formatDateTime(excursion.start, tz)) },
    { text: excursion.end ? stacked(formatDateTime(excursion.end, tz)) : 'en cours', ...(excursion.end ? {} : { tone: 'alert' as const }) },
    { text: formatDuration(excursion.durationSeconds) },
    { text: formatTemperature(excursion.peak), tone: 'alert' },
    { text: directionLabel(excursion.direction) },
    { text: severityLabel(alert) },
    { text: acknowledged },
    { text: actions },
    { text: resolutionLabel(alert, tz) },
  ];
}

function writeExcursions(doc: Doc, content: ReportContent, unit: ReportUnit): void {
  sectionTitle(doc, 'Excursions');
  if (unit.excursions.length === 0) {
    paragraph(doc, 'Aucune excursion sur la période.');
    return;
  }
  table(
    doc,
    [
      // Weights in points of A4 content width (515): dates, « Avertissement » and « −12,4 °C » fit on one line at 7 pt
      // (pdfkit counts a line's newline as a glyph: a date column needs room beyond the date's own width).
      { header: 'Début', weight: 54 },
      { header: 'Fin', weight: 54 },
      { header: 'Durée', weight: 44, align: 'right' },
      { header: 'Pic', weight: 42, align: 'right' },
      { header: 'Sens', weight: 46 },
      { header: 'Gravité', weight: 57 },
      { header: 'Acquittée par, le', weight: 62 },
      { header: 'Actions correctives', weight: 94 },
      { header: 'Résolution', weight: 62 },
    ],
    unit.excursions.map((e) => excursionRow(content, e)),
    { size: 7 },
  );
}

function writeGaps(doc: Doc, content: ReportContent, unit: ReportUnit): void {
  sectionTitle(doc, 'Absences de données');
  if (unit.gaps.length === 0) {
    paragraph(doc, 'Aucune absence de données.');
    return;
  }
  paragraph(doc, `Plus de ${formatDuration(unit.inactivityTimeoutSeconds)} sans relevé${NBSP}: comptées comme non conformes.`, {
    size: 8,
    color: COLOR.muted,
  });
  doc.moveDown(0.2);
  table(
    doc,
    [
      { header: 'Début', weight: 1 },
      { header: 'Fin', weight: 1 },
      { header: 'Durée', weight: 1, align: 'right' },
    ],
    unit.gaps.map((g) => [
      { text: formatDateTime(g.from, content.timezone) },
      { text: formatDateTime(g.to, content.timezone) },
      { text: formatDuration(g.durationSeconds), tone: 'gap' },
    ]),
  );
}

function percent(level: number | null): string {
  return level === null ? NONE : `${formatNumber(level, 0)}\u202f%`;
}

function writeBattery(doc: Doc, content: ReportContent, unit: ReportUnit): void {
  sectionTitle(doc, 'Batterie', 30);
  const { battery } = unit;
  if (battery.first === null && battery.last === null && battery.min === null) {
    paragraph(doc, 'Aucun niveau de batterie transmis pendant la période.');
  } else {
    paragraph(
      doc,
      `Début de période${NBSP}: ${percent(battery.first)} · fin${NBSP}: ${percent(battery.last)} · minimum${NBSP}: ${percent(battery.min)}`,
    );
  }
  if (battery.events.length === 0) {
    paragraph(doc, 'Aucun événement de batterie.', { size: 8, color: COLOR.muted });
    return;
  }
  doc.moveDown(0.3);
  table(
    doc,
    [
      { header: 'Date', weight: 1 },
      { header: 'Événement', weight: 3 },
    ],
    battery.events.map((e) => [{ text: formatDateTime(e.at, content.timezone) }, { text: e.text }]),
  );
}

/** Running header and footer on every page, written once the page count is known. */
function writePageFrames(doc: Doc, content: ReportContent): void {
  const range = doc.bufferedPageRange();
  const header = `${REPORT_TITLE} — ${content.siteName} — ${formatMonth(content.month)}`;
  for (let index = range.start; index < range.start + range.count; index++) {
    doc.switchToPage(index);
    const { margins } = doc.page;
    const bottom = margins.bottom;
    const top = margins.top;
    // pdfkit starts a new page when text goes past the margins: lift them while writing outside.
    margins.bottom = 0;
    margins.top = 0;
    const width = doc.page.width - 2 * MARGIN;
    doc.font(FONT).fontSize(7).fillColor(COLOR.muted);
    if (index > range.start) doc.text(header, MARGIN, 22, { width, lineBreak: false, ellipsis: true });
    const y = doc.page.height - MARGIN + 6;
    doc
      .moveTo(MARGIN, y - 5)
      .lineTo(MARGIN + width, y - 5)
      .lineWidth(0.4)
      .strokeColor(COLOR.rule)
      .stroke();
    doc.text(`Rapport ${content.reportId}`, MARGIN, y, { width, align: 'left', lineBreak: false });
    doc.text(`Page ${index - range.start + 1}/${range.count}`, MARGIN, y, { width, align: 'right', lineBreak: false });
    margins.bottom = bottom;
    margins.top = top;
  }
}
