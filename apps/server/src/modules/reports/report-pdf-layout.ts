import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';

/** The drawing primitives the report's PDF is made of: fonts, colours, titles and paginated tables. */

export type Doc = PDFKit.PDFDocument;

export const FONT = 'DejaVuSans';
export const FONT_BOLD = 'DejaVuSans-Bold';
export const MARGIN = 40;
/** Room kept under the content for the footer. */
export const FOOTER_SPACE = 30;

export const COLOR = {
  text: '#1a1a1a',
  muted: '#5a5a5a',
  rule: '#b8b8b8',
  headerFill: '#e6e9ee',
  alertFill: '#fbe3e1',
  alertText: '#a4161a',
  gapFill: '#e4e4e4',
  limit: '#c62828',
  band: '#4f7cc0',
} as const;

let fonts: { regular: string; bold: string } | null = null;

/**
 * The paths of DejaVu Sans in the `dejavu-fonts-ttf` package. Never pdfkit's standard fonts: they
 * lack U+202F and U+2212, which French numbers need. The package stays external to the server
 * bundle, so node_modules resolves it at run time.
 */
export function reportFonts(): { regular: string; bold: string } {
  if (!fonts) {
    const require = createRequire(import.meta.url);
    fonts = {
      regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
      bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
    };
  }
  return fonts;
}

/**
 * An A4 document laid out in DejaVu with the reports' margins, its pages kept so that frames are
 * drawn once all are known, and its bytes once it ends. Opening with DejaVu keeps pdfkit from
 * loading its standard Helvetica at all.
 */
export function openReportDoc(info: { Title: string; Subject?: string; CreationDate: Date }): { doc: Doc; done: Promise<Buffer> } {
  const { regular, bold } = reportFonts();
  const doc: Doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN + FOOTER_SPACE },
    bufferPages: true,
    lang: 'fr-FR',
    displayTitle: true,
    font: regular,
    info: { ...info, Author: 'Vigie', Creator: 'Vigie', ModDate: info.CreationDate },
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
  return { doc, done };
}

/** Every page's frame: `header` atop each page but the first, a rule, `footer` on the left and « Page n/N » on the right. */
export function writePageFrames(doc: Doc, header: string, footer: string): void {
  const range = doc.bufferedPageRange();
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
    doc.text(footer, MARGIN, y, { width, align: 'left', lineBreak: false });
    doc.text(`Page ${index - range.start + 1}/${range.count}`, MARGIN, y, { width, align: 'right', lineBreak: false });
    margins.bottom = bottom;
    margins.top = top;
  }
}

export function contentWidth(doc: Doc): number {
  return doc.page.width - doc.page.margins.left - doc.page.margins.right;
}

/** The lowest y content may reach on this page. */
export function contentBottom(doc: Doc): number {
  return doc.page.height - doc.page.margins.bottom;
}

/** Starts a new page unless `height` points still fit on this one. */
export function ensureSpace(doc: Doc, height: number): void {
  if (doc.y + height > contentBottom(doc)) doc.addPage();
}

export function sectionTitle(doc: Doc, text: string, keepWith = 60): void {
  ensureSpace(doc, 24 + keepWith);
  doc.moveDown(0.6);
  doc.font(FONT_BOLD).fontSize(11).fillColor(COLOR.text);
  doc.text(text, doc.page.margins.left, doc.y, { width: contentWidth(doc) });
  doc.moveDown(0.3);
}

export function paragraph(doc: Doc, text: string, options: { size?: number; color?: string; bold?: boolean } = {}): void {
  doc
    .font(options.bold ? FONT_BOLD : FONT)
    .fontSize(options.size ?? 9)
    .fillColor(options.color ?? COLOR.text);
  doc.text(text, doc.page.margins.left, doc.y, { width: contentWidth(doc) });
}

export interface Column {
  header: string;
  /** Share of the content width. */
  weight: number;
  align?: 'left' | 'right' | 'center';
}

export interface Cell {
  text: string;
  bold?: boolean;
  /** Marks a value out of limits or a blank: tinted background and coloured text. */
  tone?: 'alert' | 'gap';
}

const CELL_PAD = 3;

function columnWidths(doc: Doc, columns: Column[]): number[] {
  const total = columns.reduce((sum, c) => sum + c.weight, 0);
  return columns.map((c) => (contentWidth(doc) * c.weight) / total);
}

function isBold(cell: Cell, header: boolean): boolean {
  return header || cell.bold === true || cell.tone === 'alert';
}

function rowHeight(doc: Doc, cells: Cell[], widths: number[], size: number, header: boolean): number {
  const heights = cells.map((cell, i) => {
    doc.font(isBold(cell, header) ? FONT_BOLD : FONT).fontSize(size);
    return doc.heightOfString(cell.text || ' ', { width: (widths[i] ?? 0) - 2 * CELL_PAD });
  });
  return Math.max(...heights) + 2 * CELL_PAD;
}

function drawRow(doc: Doc, columns: Column[], widths: number[], cells: Cell[], size: number, header: boolean): void {
  const height = rowHeight(doc, cells, widths, size, header);
  const top = doc.y;
  let x = doc.page.margins.left;
  cells.forEach((cell, i) => {
    const width = widths[i] ?? 0;
    const fill = header ? COLOR.headerFill : cell.tone === 'alert' ? COLOR.alertFill : cell.tone === 'gap' ? COLOR.gapFill : null;
    if (fill) doc.rect(x, top, width, height).fill(fill);
    doc.rect(x, top, width, height).lineWidth(0.4).strokeColor(COLOR.rule).stroke();
    doc
      .font(isBold(cell, header) ? FONT_BOLD : FONT)
      .fontSize(size)
      .fillColor(cell.tone === 'alert' ? COLOR.alertText : COLOR.text);
    doc.text(cell.text, x + CELL_PAD, top + CELL_PAD, {
      width: width - 2 * CELL_PAD,
      align: header ? 'left' : (columns[i]?.align ?? 'left'),
    });
    x += width;
  });
  doc.x = doc.page.margins.left;
  doc.y = top + height;
}

/**
 * A table that runs over as many pages as it needs, its header row repeated on each; a row is never
 * split across two pages.
 */
export function table(doc: Doc, columns: Column[], rows: Cell[][], options: { size?: number } = {}): void {
  const size = options.size ?? 7.5;
  const widths = columnWidths(doc, columns);
  const headerCells: Cell[] = columns.map((c) => ({ text: c.header }));
  const headerHeight = rowHeight(doc, headerCells, widths, size, true);
  const firstRowHeight = rows[0] ? rowHeight(doc, rows[0], widths, size, false) : 0;
  ensureSpace(doc, headerHeight + firstRowHeight);
  drawRow(doc, columns, widths, headerCells, size, true);
  for (const row of rows) {
    const height = rowHeight(doc, row, widths, size, false);
    if (doc.y + height > contentBottom(doc)) {
      doc.addPage();
      drawRow(doc, columns, widths, headerCells, size, true);
    }
    drawRow(doc, columns, widths, row, size, false);
  }
}
