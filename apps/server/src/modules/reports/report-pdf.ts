import type { ReportUnitSummary } from '@vigie/contract';
import { tameText } from '@vigie/contract/text';
import type { ReportContent } from './report-content.ts';
import {
  NBSP,
  NONE,
  formatCompliance,
  formatDateTime,
  formatDuration,
  formatLimits,
  formatMonth,
  formatNumber,
  formatTemperature,
  truncateCompliance,
} from './report-format.ts';
import { writePlan } from './report-pdf-plan.ts';
import { writeUnit } from './report-pdf-unit.ts';
import {
  COLOR,
  FONT,
  FONT_BOLD,
  MARGIN,
  contentWidth,
  openReportDoc,
  paragraph,
  sectionTitle,
  table,
  type Cell,
  writePageFrames,
  type Doc,
} from './report-pdf-layout.ts';

/** Every string of the value, tamed (see `tameText`); the rest as it is. */
function tamed<T>(value: T): T {
  if (typeof value === 'string') return tameText(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => tamed(item)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, tamed(item)])) as T;
  }
  return value;
}

export const REPORT_TITLE = 'Relevé de températures — HACCP';

/**
 * Renders a report's content as an A4 PDF in French: page 1 sums the period up for the inspector
 * and carries the hand-signature boxes, then each unit has its own pages (chart, days, excursions,
 * blanks, battery). The same content always gives the same bytes: the dates and the file ID come
 * from `content.createdAt`, never from the clock.
 */
export async function renderReportPdf(stored: ReportContent): Promise<Buffer> {
  // Names and texts stored before characters were bounded are laid out tamed: shaping time grows
  // with the square of the marks stacked on one character.
  const content = tamed(stored);
  const { doc, done } = openReportDoc({
    Title: `${REPORT_TITLE} — ${content.siteName} — ${formatMonth(content.month)}`,
    Subject: `Rapport ${content.reportId}`,
    CreationDate: new Date(content.createdAt),
  });

  writeSummaryPage(doc, content);
  for (const unit of content.units) {
    writeUnit(doc, content, unit);
    // Drawing is synchronous: between units, the server answers what waits (readings, pages).
    await new Promise((resolve) => setImmediate(resolve));
  }
  writeChecks(doc, content);
  writePlan(doc, content);
  writeAmendments(doc, content);
  writePageFrames(doc, `${REPORT_TITLE} — ${content.siteName} — ${formatMonth(content.month)}`, `Rapport ${content.reportId}`);
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
  const made = `Établi le ${formatDateTime(content.createdAt, content.timezone)}`;
  paragraph(doc, content.createdByName ? `${made} par ${content.createdByName}` : `${made} — Rapport établi automatiquement`);

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
    'Brèves : sorties plus courtes que le délai d’alerte des règles (porte ouverte, dégivrage…), comptées dans le temps hors limites mais pas listées.',
    `Références : Règlement (CE) n°${NBSP}852/2004, art.${NBSP}5 (HACCP) ; Règlement (CE) n°${NBSP}37/2005 (températures des aliments surgelés) ; Plan de Maîtrise Sanitaire de l’établissement.`,
  ]) {
    paragraph(doc, line.replaceAll(' : ', `${NBSP}: `).replaceAll(' ; ', `${NBSP}; `), { size: 7.5, color: COLOR.muted });
    doc.moveDown(0.15);
  }

  writeSignatureBlock(doc, content);
}

function summaryRow(u: ReportUnitSummary): Cell[] {
  const compliant = u.compliancePercent === null || truncateCompliance(u.compliancePercent) >= 100;
  return [
    { text: u.name, bold: true },
    { text: formatLimits(u.min, u.max) },
    { text: formatCompliance(u.compliancePercent), ...(compliant ? {} : { tone: 'alert' as const }) },
    { text: excursionCount(u.excursionCount, u.briefExcursionCount), ...(u.excursionCount > 0 ? { tone: 'alert' as const } : {}) },
    { text: formatDuration(u.excursionSeconds) },
    { text: formatDuration(u.noDataSeconds), ...(u.noDataSeconds > 0 ? { tone: 'gap' as const } : {}) },
    { text: formatNumber(u.openItems, 0), ...(u.openItems > 0 ? { tone: 'alert' as const } : {}) },
  ];
}

/** « 2 », or « 2 » over « + 3 brèves » when the rules tolerated short rises. */
function excursionCount(listed: number, brief: number): string {
  const count = formatNumber(listed, 0);
  return brief > 0 ? `${count}\n+${NBSP}${formatNumber(brief, 0)}${NBSP}brève${brief > 1 ? 's' : ''}` : count;
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
    { text: excursionCount(summary.excursionCount, summary.briefExcursionCount), bold: true },
    { text: formatDuration(summary.excursionSeconds), bold: true },
    { text: formatDuration(summary.noDataSeconds), bold: true },
    { text: formatNumber(summary.openItems, 0), bold: true },
  ];
}

/**
 * The « Visa » block: boxes to fill by hand on the original, filled on the signed copy with who
 * signed (and their role), when on the site's clock, their comment and what they were told.
 */
function writeSignatureBlock(doc: Doc, content: ReportContent): void {
  const signature = content.signature;
  sectionTitle(doc, 'Visa', 150);
  const width = contentWidth(doc);
  const half = (width - 10) / 2;
  const top = doc.y + 2;
  const boxes: Array<{ label: string; x: number; y: number; w: number; h: number; text: string | null }> = [
    { label: 'Nom', x: MARGIN, y: top, w: half, h: 34, text: signature ? `${signature.name} (${signature.role})` : null },
    {
      label: 'Date',
      x: MARGIN + half + 10,
      y: top,
      w: half,
      h: 34,
      text: signature ? formatDateTime(signature.at, content.timezone) : null,
    },
    {
      label: 'Visa du responsable',
      x: MARGIN,
      y: top + 42,
      w: half,
      h: 78,
      text: signature ? ['Signé électroniquement dans Vigie.', ...signature.notes].join('\n') : null,
    },
    {
      label: 'Commentaire',
      x: MARGIN + half + 10,
      y: top + 42,
      w: half,
      h: 78,
      text: signature ? (signature.comment ?? '—') : null,
    },
  ];
  for (const box of boxes) {
    doc.rect(box.x, box.y, box.w, box.h).lineWidth(0.7).strokeColor(COLOR.muted).stroke();
    doc
      .font(FONT)
      .fontSize(7.5)
      .fillColor(COLOR.muted)
      .text(box.label, box.x + 4, box.y + 3, { width: box.w - 8, lineBreak: false });
    if (box.text) {
      doc
        .font(FONT_BOLD)
        .fontSize(8.5)
        .fillColor(COLOR.text)
        .text(box.text, box.x + 4, box.y + 13, { width: box.w - 8, height: box.h - 16, ellipsis: true });
    }
  }
  doc.y = top + 128;
  paragraph(
    doc,
    signature
      ? `Exemplaire signé. L’original, sans visa, reste disponible tel quel${NBSP}: voir l’historique du rapport.`
      : content.amendments
        ? `Mois déjà signé le ${formatDateTime(content.amendments.signedAt, content.timezone)} par ${content.amendments.signedBy}${NBSP}: ce rapport en reprend les chiffres tels que signés${NBSP}; ce qui a été noté depuis figure à la page «${NBSP}Rectificatifs après la signature${NBSP}».`
        : `Signature électronique enregistrée dans Vigie${NBSP}: voir l’historique du rapport.`,
    { size: 7.5, color: COLOR.muted },
  );
}

/** Running header and footer on every page, written once the page count is known. */

/**
 * The temperatures taken by hand in the month: products probed, deliveries at reception (accepted
 * or refused, with the quantity), units read by hand while their sensor was down; who and when.
 */
function writeChecks(doc: Doc, content: ReportContent): void {
  const checks = content.checks;
  if (checks === undefined) return;
  doc.addPage();
  sectionTitle(doc, 'Contrôles manuels et réceptions');
  if (checks.length === 0) {
    paragraph(doc, 'Aucun contrôle manuel noté sur la période.');
    return;
  }
  paragraph(
    doc,
    'Températures prises à la main (sonde), notées dans Vigie par la personne qui les a prises ; elles ne sont jamais mêlées aux lectures des capteurs.',
    { size: 8, color: COLOR.muted },
  );
  table(
    doc,
    [
      { header: 'Date et heure', weight: 60 },
      { header: 'Par', weight: 62 },
      { header: 'Contrôle', weight: 70 },
      { header: 'Produit, fournisseur ou meuble', weight: 124 },
      { header: 'Température', weight: 60 },
      { header: 'Décision', weight: 58 },
      { header: 'Remarque', weight: 88 },
    ],
    checks.map((check) => [
      { text: formatDateTime(check.at, content.timezone) },
      { text: check.by },
      { text: check.kind },
      { text: check.subject },
      { text: formatTemperature(check.temperature, { signed: true }) },
      { text: check.decision ?? NONE, ...(check.decision?.startsWith('Refusée') ? { tone: 'alert' as const } : {}) },
      { text: check.note ?? '' },
    ]),
    { size: 7 },
  );
}

/**
 * In a report of a month already signed: the signed figures stand as they were signed; what was
 * recorded about the month afterwards is listed here, never applied to them (decision 0046).
 */
function writeAmendments(doc: Doc, content: ReportContent): void {
  const amendments = content.amendments;
  if (!amendments) return;
  doc.addPage();
  sectionTitle(doc, 'Rectificatifs après la signature');
  paragraph(
    doc,
    `Signé le ${formatDateTime(amendments.signedAt, content.timezone)} par ${amendments.signedBy} (rapport ${amendments.signedReportId}, empreinte SHA-256 du PDF signé ${amendments.signedSha256}). Les chiffres de ce rapport sont ceux du rapport signé${NBSP}; ce qui a été noté ensuite sur la période figure ci-dessous, à côté, sans les modifier.`,
    { size: 8, color: COLOR.muted },
  );
  if (
    amendments.corrections.length === 0 &&
    amendments.lateChecks.length === 0 &&
    amendments.lateActions.length === 0 &&
    amendments.lateReadings.length === 0
  ) {
    paragraph(doc, 'Rien n’a été noté sur la période depuis la signature.');
    return;
  }
  if (amendments.corrections.length > 0) {
    doc.moveDown(0.8);
    paragraph(doc, 'Vérifications des capteurs datées de la période, notées après la signature', { size: 9 });
    table(
      doc,
      [
        { header: 'Capteur', weight: 70 },
        { header: 'Vérifié le', weight: 62 },
        { header: 'Noté le, par', weight: 84 },
        { header: 'Méthode, remarque', weight: 130 },
        { header: 'Écart', weight: 44 },
        { header: 'Effet', weight: 132 },
      ],
      amendments.corrections.map((correction) => [
        { text: correction.sensorName },
        { text: formatDateTime(correction.verifiedAt, content.timezone) },
        { text: `${formatDateTime(correction.recordedAt, content.timezone)}, ${correction.by}` },
        { text: correction.note ? `${correction.method} — ${correction.note}` : correction.method },
        { text: formatTemperature(correction.offset, { signed: true }) },
        {
          text: `Correction de ${formatTemperature(-correction.offset, { signed: true })}, non appliquée à la période signée${NBSP}; appliquée à partir du ${formatDateTime(correction.appliesFrom, content.timezone)}.`,
        },
      ]),
      { size: 7 },
    );
  }
  if (amendments.lateChecks.length > 0) {
    doc.moveDown(0.8);
    paragraph(doc, 'Contrôles manuels de la période saisis après la signature', { size: 9 });
    table(
      doc,
      [
        { header: 'Contrôle du', weight: 62 },
        { header: 'Saisi le', weight: 62 },
        { header: 'Par', weight: 62 },
        { header: 'Contrôle', weight: 70 },
        { header: 'Produit, fournisseur ou meuble', weight: 120 },
        { header: 'Température', weight: 52 },
        { header: 'Décision', weight: 62 },
      ],
      amendments.lateChecks.map((check) => [
        { text: formatDateTime(check.at, content.timezone) },
        { text: formatDateTime(check.enteredAt, content.timezone) },
        { text: check.by },
        { text: check.kind },
        { text: check.subject },
        { text: formatTemperature(check.temperature, { signed: true }) },
        { text: check.decision ?? NONE },
      ]),
      { size: 7 },
    );
  }
  if (amendments.lateActions.length > 0) {
    doc.moveDown(0.8);
    paragraph(doc, 'Suites données aux alertes de la période, notées après la signature', { size: 9 });
    table(
      doc,
      [
        { header: 'Capteur', weight: 80 },
        { header: 'Alerte du', weight: 70 },
        { header: 'Notée le', weight: 70 },
        { header: 'Par', weight: 70 },
        { header: 'Action', weight: 232 },
      ],
      amendments.lateActions.map((action) => [
        { text: action.sensorName },
        { text: formatDateTime(action.alertOpenedAt, content.timezone) },
        { text: formatDateTime(action.at, content.timezone) },
        { text: action.by ?? 'Vigie' },
        { text: [action.kind, action.text, action.fate].filter(Boolean).join(' — ') },
      ]),
      { size: 7 },
    );
  }
  if (amendments.lateReadings.length > 0) doc.moveDown(0.8);
  for (const late of amendments.lateReadings) {
    paragraph(
      doc,
      `${late.sensorName}${NBSP}: ${late.count} lecture${late.count > 1 ? 's' : ''} reçue${late.count > 1 ? 's' : ''} après la signature, gardée${late.count > 1 ? 's' : ''} dans l’historique du capteur, non comptée${late.count > 1 ? 's' : ''} dans ce rapport.`,
      { size: 8 },
    );
  }
}
