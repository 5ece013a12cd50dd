import type { Report, ReportSummary } from '@vigie/contract';
import { tameText } from '@vigie/contract/text';
import {
  NBSP,
  NONE,
  formatCompliance,
  formatDateTime,
  formatDuration,
  formatLimits,
  formatMonth,
  formatNumber,
  truncateCompliance,
} from './report-format.ts';
import {
  COLOR,
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

/** One shop of a consolidated report: its month's report, or none when it was not made. */
export interface ConsolidatedShop {
  siteId: string;
  name: string;
  regionName: string | null;
  report: Report | null;
}

export interface ConsolidatedContent {
  organizationName: string;
  /** « Région Rhône-Alpes » or « Toute la chaîne ». */
  scopeLabel: string;
  month: string;
  createdAt: string;
  timezone: string;
  shops: ConsolidatedShop[];
}

/** A shop's figures over its units held to limits: compliance over their time, excursions, open items. */
export function shopFigures(summary: ReportSummary | null): {
  compliance: number | null;
  units: number;
  excursions: number;
  excursionSeconds: number;
  noDataSeconds: number;
  openItems: number;
} {
  if (!summary) return { compliance: null, units: 0, excursions: 0, excursionSeconds: 0, noDataSeconds: 0, openItems: 0 };
  const held = summary.units.filter((unit) => unit.compliancePercent !== null);
  const accounted = held.reduce((sum, unit) => sum + unit.inRangeSeconds + unit.outOfRangeSeconds + unit.noDataSeconds, 0);
  return {
    compliance: accounted > 0 ? (held.reduce((sum, unit) => sum + unit.inRangeSeconds, 0) / accounted) * 100 : null,
    units: summary.units.length,
    excursions: summary.excursionCount,
    excursionSeconds: summary.excursionSeconds,
    noDataSeconds: summary.noDataSeconds,
    openItems: summary.openItems,
  };
}

/**
 * The order of the first page: the shops that need a look first — no report, then the lowest
 * compliance, then the most open items — and by name among equals.
 */
export function rankShops(shops: readonly ConsolidatedShop[]): ConsolidatedShop[] {
  const key = (shop: ConsolidatedShop) => {
    const figures = shopFigures(shop.report?.summary ?? null);
    return [shop.report ? 1 : 0, figures.compliance ?? 101, -figures.openItems] as const;
  };
  return [...shops].sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    for (let i = 0; i < ka.length; i += 1) if ((ka[i] ?? 0) !== (kb[i] ?? 0)) return (ka[i] ?? 0) - (kb[i] ?? 0);
    return a.name.localeCompare(b.name, 'fr');
  });
}

function signedText(report: Report | null, timeZone: string): string {
  if (!report) return 'Non établi';
  return report.signedAt
    ? `Signé par ${report.signedByName ?? 'un membre supprimé'} le ${formatDateTime(report.signedAt, timeZone)}`
    : 'Non signé';
}

const compliant = (percent: number | null) => percent === null || truncateCompliance(percent) >= 100;

/**
 * The consolidated monthly report of a region or of the chain (docs/api.md, Rapports): a first
 * page that ranks the shops, then a page per shop with its units' figures, taken from each shop's
 * own report of the month (never recomputed: the consolidated report says what they say).
 */
export async function renderConsolidatedPdf(content: ConsolidatedContent): Promise<Buffer> {
  const title = `Rapport HACCP consolidé — ${tameText(content.scopeLabel)} — ${formatMonth(content.month)}`;
  const { doc, done } = openReportDoc({ Title: title, CreationDate: new Date(content.createdAt) });

  const tz = content.timezone;
  doc
    .font(FONT_BOLD)
    .fontSize(18)
    .fillColor(COLOR.text)
    .text('Rapport HACCP consolidé', MARGIN, MARGIN, { width: contentWidth(doc) });
  doc.moveDown(0.2);
  paragraph(doc, `${tameText(content.organizationName)} — ${tameText(content.scopeLabel)}`, { size: 12, bold: true });
  doc.moveDown(0.4);
  paragraph(
    doc,
    `Mois${NBSP}: ${formatMonth(content.month)} · ${formatNumber(content.shops.length, 0)} magasin${content.shops.length > 1 ? 's' : ''}`,
  );
  paragraph(doc, `Établi le ${formatDateTime(content.createdAt, tz)}, à partir du rapport du mois de chaque magasin.`);

  sectionTitle(doc, 'Magasins, ceux qui demandent une attention d’abord');
  const ranked = rankShops(content.shops);
  table(
    doc,
    [
      { header: 'Magasin', weight: 20 },
      { header: 'Région', weight: 12 },
      { header: 'Enceintes', weight: 11, align: 'right' },
      { header: 'Conformité', weight: 11, align: 'right' },
      { header: 'Excursions', weight: 12, align: 'right' },
      { header: 'Points ouverts', weight: 9, align: 'right' },
      { header: 'Rapport du magasin', weight: 25 },
    ],
    ranked.map((shop): Cell[] => {
      const figures = shopFigures(shop.report?.summary ?? null);
      return [
        { text: tameText(shop.name), bold: true },
        { text: shop.regionName ? tameText(shop.regionName) : NONE },
        { text: shop.report ? formatNumber(figures.units, 0) : NONE },
        {
          text: shop.report ? formatCompliance(figures.compliance) : NONE,
          ...(compliant(figures.compliance) ? {} : { tone: 'alert' as const }),
        },
        { text: shop.report ? formatNumber(figures.excursions, 0) : NONE, ...(figures.excursions > 0 ? { tone: 'alert' as const } : {}) },
        { text: shop.report ? formatNumber(figures.openItems, 0) : NONE, ...(figures.openItems > 0 ? { tone: 'alert' as const } : {}) },
        { text: signedText(shop.report, tz), ...(shop.report ? {} : { tone: 'gap' as const }) },
      ];
    }),
    { size: 8 },
  );
  if (ranked.length === 0) paragraph(doc, 'Aucun magasin dans ce périmètre.');
  doc.moveDown(0.6);
  for (const line of [
    `Conformité${NBSP}: part du mois passée dans les limites par les enceintes qui en ont, toutes enceintes du magasin confondues, arrondie à l’inférieur ; une absence de données compte comme non conforme.`,
    `Points ouverts${NBSP}: alertes encore actives quand le rapport du magasin a été établi. « Non établi »${NBSP}: le magasin n’a pas de rapport pour ce mois.`,
  ]) {
    paragraph(doc, line, { size: 7.5, color: COLOR.muted });
    doc.moveDown(0.15);
  }

  for (const shop of ranked) {
    doc.addPage();
    writeShop(doc, shop, tz);
    await new Promise((resolve) => setImmediate(resolve));
  }

  writePageFrames(doc, title, `Rapport consolidé — ${tameText(content.organizationName)}`);
  doc.end();
  return done;
}

function writeShop(doc: Doc, shop: ConsolidatedShop, tz: string): void {
  doc
    .font(FONT_BOLD)
    .fontSize(14)
    .fillColor(COLOR.text)
    .text(tameText(shop.name), MARGIN, MARGIN, { width: contentWidth(doc) });
  paragraph(doc, shop.regionName ? `Région${NBSP}: ${tameText(shop.regionName)}` : 'Sans région', { color: COLOR.muted });
  const report = shop.report;
  if (!report) {
    doc.moveDown(0.6);
    paragraph(doc, 'Le rapport de ce mois n’a pas été établi pour ce magasin : ses relevés ne sont pas repris ici.', { bold: true });
    return;
  }
  const figures = shopFigures(report.summary);
  paragraph(doc, `Rapport du ${formatDateTime(report.createdAt, tz)} · ${signedText(report, tz)}`);
  paragraph(doc, `Empreinte SHA-256 du PDF du magasin${NBSP}: ${report.sha256}`, { size: 7, color: COLOR.muted });
  paragraph(
    doc,
    `Conformité${NBSP}: ${formatCompliance(figures.compliance)} · Excursions${NBSP}: ${formatNumber(figures.excursions, 0)} (${formatDuration(figures.excursionSeconds)}) · Sans données${NBSP}: ${formatDuration(figures.noDataSeconds)} · Points ouverts${NBSP}: ${formatNumber(figures.openItems, 0)}`,
    { bold: true },
  );
  sectionTitle(doc, 'Enceintes');
  table(
    doc,
    [
      { header: 'Enceinte', weight: 24 },
      { header: 'Limites', weight: 18 },
      { header: 'Conformité', weight: 12, align: 'right' },
      { header: 'Excursions', weight: 11, align: 'right' },
      { header: 'Durée des excursions', weight: 13, align: 'right' },
      { header: 'Sans données', weight: 11, align: 'right' },
      { header: 'Points ouverts', weight: 11, align: 'right' },
    ],
    report.summary.units.map((unit): Cell[] => [
      { text: tameText(unit.name), bold: true },
      { text: formatLimits(unit.min, unit.max) },
      { text: formatCompliance(unit.compliancePercent), ...(compliant(unit.compliancePercent) ? {} : { tone: 'alert' as const }) },
      { text: formatNumber(unit.excursionCount, 0), ...(unit.excursionCount > 0 ? { tone: 'alert' as const } : {}) },
      { text: formatDuration(unit.excursionSeconds) },
      { text: formatDuration(unit.noDataSeconds), ...(unit.noDataSeconds > 0 ? { tone: 'gap' as const } : {}) },
      { text: formatNumber(unit.openItems, 0), ...(unit.openItems > 0 ? { tone: 'alert' as const } : {}) },
    ]),
    { size: 8 },
  );
  if (report.summary.units.length === 0) paragraph(doc, 'Aucune enceinte suivie dans ce magasin pendant le mois.');
}
