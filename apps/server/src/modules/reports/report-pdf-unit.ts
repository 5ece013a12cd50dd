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
  formatDate,
  formatLimits,
  formatNumber,
  formatTemperature,
  resolutionLabel,
  sentences,
  severityLabel,
} from './report-format.ts';
import { drawMonthChart } from './report-pdf-chart.ts';
import { COLOR, FONT_BOLD, MARGIN, contentWidth, paragraph, sectionTitle, table, type Cell, type Doc } from './report-pdf-layout.ts';

/** A unit's pages of the report: its limits and their sources, the month's chart, days, excursions, blanks and battery. */
function isOut(unit: ReportUnit, value: number | null): boolean {
  if (value === null) return false;
  return (unit.min !== null && value < unit.min) || (unit.max !== null && value > unit.max);
}

function valueCell(unit: ReportUnit, value: number | null): Cell {
  if (value === null) return { text: NONE, tone: 'gap' };
  return { text: formatNumber(value, 1), ...(isOut(unit, value) ? { tone: 'alert' as const } : {}) };
}

/** The unit's last verification (EN 12830): when, how, the offset its temperatures are corrected by, the certificate, the next one. */
function writeVerification(doc: Doc, content: ReportContent, unit: ReportUnit): void {
  const verification = unit.verification;
  if (verification === undefined) return;
  if (verification === null) {
    paragraph(doc, `Vérification${NBSP}: aucune vérification enregistrée pour ce capteur.`, { size: 8, color: COLOR.muted });
    return;
  }
  // As a certificate gives it: one decimal, two when it has them (« +0,4 », « −0,25 »).
  const offset = formatNumber(verification.offset, Math.abs(Math.round(verification.offset * 100)) % 10 === 0 ? 1 : 2);
  const parts = [
    `Vérification${NBSP}: le ${formatDate(verification.verifiedAt, content.timezone)} par ${verification.by}`,
    verification.method,
    `écart mesuré ${verification.offset > 0 ? '+' : ''}${offset}${NBSP}°C${verification.offset === 0 ? '' : ', valeurs corrigées depuis'}`,
  ];
  if (verification.certificate) {
    parts.push(`certificat «${NBSP}${verification.certificate.fileName}${NBSP}» (SHA-256 ${verification.certificate.sha256})`);
  }
  paragraph(doc, parts.join(' — '), { size: 8 });
  if (verification.nextDueAt) {
    const late = Date.parse(verification.nextDueAt) < Date.parse(content.summary.to);
    paragraph(
      doc,
      `${late ? 'Vérification échue depuis le' : 'Prochaine vérification avant le'} ${formatDate(verification.nextDueAt, content.timezone)}`,
      {
        size: 8,
        color: late ? COLOR.alertText : COLOR.muted,
      },
    );
  }
}

export function writeUnit(doc: Doc, content: ReportContent, unit: ReportUnit): void {
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
  writeVerification(doc, content, unit);
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
  writePauses(doc, content, unit);
  writeOtherAlerts(doc, content, unit);
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
  return [
    { text: stacked(formatDateTime(excursion.start, tz)) },
    { text: excursion.end ? stacked(formatDateTime(excursion.end, tz)) : 'en cours', ...(excursion.end ? {} : { tone: 'alert' as const }) },
    { text: formatDuration(excursion.durationSeconds) },
    { text: formatTemperature(excursion.peak), tone: 'alert' },
    { text: directionLabel(excursion.direction) },
    { text: severityLabel(alert) },
    { text: acknowledgedText(alert, tz) },
    { text: actionsText(alert, tz) },
    { text: resolutionLabel(alert, tz) },
  ];
}

const MAX_ACTIONS_SHOWN = 4;
const MAX_ACTION_LENGTH = 280;

/**
 * The corrective actions of an alert, each with who and when. A row never outgrows a page: past a
 * few actions, or a very long text, the rest is in the CSV, which says everything.
 */
function actionsText(alert: ReportExcursion['alert'], tz: string): string {
  if (!alert?.actions.length) return 'Aucune';
  const shown = alert.actions.slice(0, MAX_ACTIONS_SHOWN).map((a) => {
    const written = a.text.length > MAX_ACTION_LENGTH ? `${a.text.slice(0, MAX_ACTION_LENGTH)}…` : a.text;
    // A guided action reads as its label, then what was written, then the products' fate with the quantity.
    const parts = [a.kind && a.kind !== written ? a.kind : null, written, a.fate ?? null].filter((part) => part);
    return `${formatDateTime(a.at, tz)} — ${actorLabel(a.by)}${NBSP}: ${sentences(parts)}`;
  });
  const rest = alert.actions.length - shown.length;
  if (rest > 0) shown.push(`(+${NBSP}${formatNumber(rest, 0)} action${rest > 1 ? 's' : ''}, voir le CSV)`);
  return shown.join('\n');
}

function acknowledgedText(alert: ReportExcursion['alert'], tz: string): string {
  return alert?.acknowledgedAt != null
    ? `${actorLabel(alert.acknowledgedBy)}, ${formatDateTime(alert.acknowledgedAt, tz)}`
    : 'Non acquittée';
}

function writeExcursions(doc: Doc, content: ReportContent, unit: ReportUnit): void {
  sectionTitle(doc, 'Excursions');
  const brief = unit.briefExcursions;
  if (unit.excursions.length === 0) {
    paragraph(doc, brief.count > 0 ? 'Aucune excursion listée sur la période.' : 'Aucune excursion sur la période.');
  } else {
    excursionTable(doc, content, unit);
  }
  if (brief.count > 0) {
    const plural = brief.count > 1 ? 's' : '';
    doc.moveDown(0.2);
    paragraph(
      doc,
      `En outre, ${formatNumber(brief.count, 0)} brève${plural} sortie${plural} des limites, plus courte${plural} que le délai d’alerte des règles ` +
        `(${formatDuration(brief.toleranceSeconds)}), ${formatDuration(brief.totalSeconds)} au total${NBSP}: ` +
        `comptée${plural} dans le temps hors limites, non listée${plural}.`,
      { size: 8, color: COLOR.muted },
    );
  }
}

function excursionTable(doc: Doc, content: ReportContent, unit: ReportUnit): void {
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

/** Planned work (cleaning, restocking, a defrost): the unit's notifications held back, and why. */
function writePauses(doc: Doc, content: ReportContent, unit: ReportUnit): void {
  const pauses = unit.pauses;
  if (pauses === undefined || pauses.length === 0) return;
  sectionTitle(doc, 'Pauses des notifications');
  // Each pause by its own reason (the « Motif » below), never one name for them all.
  const reasons = [...new Set(pauses.map((pause) => pause.reason))];
  const which = reasons.length === 1 ? `la pause «${NBSP}${reasons[0]}${NBSP}»` : `chaque pause (son motif ci-dessous)`;
  paragraph(doc, `Pendant ${which}, les relevés et les alertes continuent${NBSP}; seules les notifications attendent sa fin.`, {
    size: 8,
    color: COLOR.muted,
  });
  doc.moveDown(0.2);
  table(
    doc,
    [
      { header: 'Début', weight: 1 },
      { header: 'Fin', weight: 1 },
      { header: 'Durée', weight: 0.7, align: 'right' },
      { header: 'Motif', weight: 1.6 },
      { header: 'Portée', weight: 0.9 },
      { header: 'Par', weight: 1 },
    ],
    pauses.map((pause) => [
      { text: formatDateTime(pause.from, content.timezone) },
      { text: formatDateTime(pause.until, content.timezone) },
      { text: formatDuration((Date.parse(pause.until) - Date.parse(pause.from)) / 1000) },
      { text: pause.reason },
      { text: pause.scope === 'site' ? 'Tout le magasin' : 'Ce meuble' },
      { text: pause.by ?? NONE },
    ]),
  );
}

/** Alerts no measured excursion covers: the sensor fell silent, its battery ran low, a breach followed by silence. */
function writeOtherAlerts(doc: Doc, content: ReportContent, unit: ReportUnit): void {
  if (unit.otherAlerts.length === 0) return;
  sectionTitle(doc, 'Autres alertes de la période');
  const tz = content.timezone;
  table(
    doc,
    [
      { header: 'Ouverte', weight: 54 },
      { header: 'Motif', weight: 80 },
      { header: 'Gravité', weight: 57 },
      { header: 'Acquittée par, le', weight: 70 },
      { header: 'Actions correctives', weight: 150 },
      { header: 'Résolution', weight: 70 },
    ],
    unit.otherAlerts.map((alert) => [
      { text: stacked(formatDateTime(alert.openedAt, tz)) },
      { text: alert.reason },
      { text: severityLabel(alert) },
      { text: acknowledgedText(alert, tz) },
      { text: actionsText(alert, tz) },
      { text: resolutionLabel(alert, tz) },
    ]),
    { size: 7 },
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
