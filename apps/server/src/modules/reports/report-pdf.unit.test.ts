import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_REPORT_ID, longReportFixture, reportFixture } from './report-fixture.ts';
import { renderReportPdf } from './report-pdf.ts';

// Reads the PDFs back with Poppler (`npm run test:unit` installs it: scripts/ensure-poppler.mjs).
// pdftotext writes U+00A0 and U+202F as plain spaces, so the text assertions use spaces and the
// font's ToUnicode map proves the narrow no-break space and the minus sign are really in the file.

const MINUS = '\u2212';
let dir: string;

function pdfToPages(pdf: Buffer, name: string): string[] {
  const path = join(dir, `${name}.pdf`);
  writeFileSync(path, pdf);
  const text = execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', path, '-'], { encoding: 'utf8' });
  // One form feed after each page.
  return text.split('\f').slice(0, -1);
}

/** The code points the PDF's embedded fonts map their glyphs to (their ToUnicode CMaps). */
function mappedCodePoints(pdf: Buffer): Set<number> {
  const raw = pdf.toString('latin1');
  const points = new Set<number>();
  for (const match of raw.matchAll(/stream\r?\n/g)) {
    const start = match.index + match[0].length;
    let inflated: string;
    try {
      inflated = inflateSync(pdf.subarray(start, raw.indexOf('endstream', start))).toString('latin1');
    } catch {
      continue;
    }
    if (!inflated.includes('begincmap')) continue;
    for (const hex of inflated.matchAll(/<([0-9a-f]{4})>/gi)) points.add(Number.parseInt(hex[1] ?? '0', 16));
  }
  return points;
}

let pdf: Buffer;
let pages: string[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vigie-report-pdf-'));
  pdf = await renderReportPdf(reportFixture());
  pages = pdfToPages(pdf, 'report');
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('renderReportPdf', () => {
  it('makes an A4 PDF with its metadata dated at the report’s making', () => {
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const info = execFileSync('pdfinfo', [join(dir, 'report.pdf')], { encoding: 'utf8' });
    expect(info).toMatch(/Page size:\s+595\.28 x 841\.89 pts \(A4\)/);
    expect(info).toMatch(/Author:\s+Vigie/);
    expect(info).toMatch(/Title:\s+Relevé de températures — HACCP — Magasin de Lyon — Croix-Rousse — Octobre 2026/);
    expect(info).toMatch(/CreationDate:\s+Sun Nov\s+1 05:00:00 2026 UTC/);
  });

  it('gives the same bytes for the same content', async () => {
    expect((await renderReportPdf(reportFixture())).equals(pdf)).toBe(true);
  });

  it('embeds DejaVu Sans only, never a standard font', () => {
    const fonts = execFileSync('pdffonts', [join(dir, 'report.pdf')], { encoding: 'utf8' });
    expect(fonts).toMatch(/DejaVuSans\b/);
    expect(fonts).toMatch(/DejaVuSans-Bold/);
    expect(fonts).not.toMatch(/Helvetica|Times|Courier/);
  });

  it('writes the narrow no-break space, the no-break space and the minus sign as such', () => {
    const points = mappedCodePoints(pdf);
    expect(points.has(0x202f)).toBe(true);
    expect(points.has(0x00a0)).toBe(true);
    expect(points.has(0x2212)).toBe(true);
  });

  it('sums the period up on page 1, before any unit', () => {
    const first = pages[0] ?? '';
    expect(first).toContain('Relevé de températures — HACCP');
    expect(first).toContain('Fromagerie Lefèvre & Fils — Magasin de Lyon — Croix-Rousse');
    expect(first).toContain('Octobre 2026, du 01/10/2026 00:00 au 01/11/2026 00:00');
    expect(first).toContain('Europe/Paris');
    expect(first).toContain('Établi le 01/11/2026 06:00 — Rapport établi automatiquement');
    expect(first).toMatch(/Congélateur Crèmerie +−25,0 °C à −18,0 °C +98,9 % +3 +3 h 10 min/);
    expect(first).toMatch(/Vitrine réfrigérée\s.*≤ \+4,0 °C +99,5 % +2/);
    expect(first).toMatch(/Chambre froide légumes +Aucune limite définie +— +0/);
    expect(first).toMatch(/Ensemble \(3 enceintes\) +99,2 % +5 +6 h 20 min/);
    expect(first).toMatch(/\+ 3 brèves/);
    expect(first).toContain('Une absence de données est une non-conformité : elle est montrée telle quelle, jamais interpolée.');
    expect(first).toContain('Règlement (CE) n° 852/2004, art. 5');
    expect(first).toContain('Règlement (CE) n° 37/2005');
    // Sentences may wrap: read them with their line breaks flattened.
    expect(first.replace(/\s+/g, ' ')).toContain('Plan de Maîtrise Sanitaire');
    for (const box of ['Visa du responsable', 'Nom', 'Date', 'Commentaire']) expect(first).toContain(box);
    expect(first).toContain('Signature électronique enregistrée dans Vigie : voir l’historique du rapport.');
    expect(first).not.toContain('Relevés par jour');
  });

  it('says who made the report when a person did', async () => {
    const [first] = pdfToPages(await renderReportPdf(reportFixture({ createdByName: 'Élodie Marchand' })), 'by-person');
    expect(first).toContain('Établi le 01/11/2026 06:00 par Élodie Marchand');
  });

  it('numbers every page and prints the report id in every footer', () => {
    expect(pages.length).toBeGreaterThanOrEqual(4);
    pages.forEach((page, index) => {
      const footer = page.trimEnd().split('\n').at(-1) ?? '';
      expect(footer).toContain(`Rapport ${FIXTURE_REPORT_ID}`);
      expect(footer).toContain(`Page ${index + 1}/${pages.length}`);
    });
  });

  it('starts each unit on a new page, with its limits, their sources and its figures', () => {
    const unitPage = (name: string): number => pages.findIndex((page) => page.split('\n').some((line) => line.trim() === name));
    const freezer = unitPage('Congélateur Crèmerie');
    const display = unitPage('Vitrine réfrigérée Crèmerie');
    const coldRoom = unitPage('Chambre froide légumes');
    expect(freezer).toBe(1);
    expect(display).toBeGreaterThan(freezer);
    expect(coldRoom).toBeGreaterThan(display);
    const page = pages[freezer] ?? '';
    expect(page).toContain('N° de série VG-TH-000123 · modèle Vigie TH-2');
    expect(page).toContain(`Limites : ${MINUS}25,0 °C à ${MINUS}18,0 °C`);
    expect(page).toContain('Règle « Surgelés » — modèle « Surgelés : ≤ −18 °C » — Arrêté du 21 décembre 2009, annexe I');
    expect(page).toContain('8 880 relevés');
    expect(page).toContain(`Limite haute ${MINUS}18,0 °C`);
    expect(page).toContain(`Limite basse ${MINUS}25,0 °C`);
    expect(page).toMatch(/jeu\. 01\/10 +−22,5 +−21,0 +−19,5 +288 +0 min +0 min/);
    expect(pages[coldRoom]).toContain('Aucune règle d’alerte sur la température');
  });

  it('lists excursions with their actions, blanks and battery, and says when there are none', () => {
    const text = pages.join('\n');
    expect(text).toContain('−15,2 °C');
    expect(text).toContain('Élodie Marchand : Porte');
    expect(text).toContain('Dégivrage manuel');
    expect(text).toContain('Karim Benali');
    expect(text).toContain('Clôturée');
    expect(text).toContain('en cours');
    expect(text).toContain('Ouverte');
    expect(text).toMatch(/14\/10\/2026 03:00 +14\/10\/2026 08:00 +5 ?h/);
    expect(text).toContain('Aucune excursion sur la période.');
    expect(text.replace(/\s+/g, ' ')).toContain(
      'En outre, 3 brèves sorties des limites, plus courtes que le délai d’alerte des règles (10 min), 12 min au total : comptées dans le temps hors limites, non listées.',
    );
    expect(text).toContain('Aucune absence de données.');
    expect(text).toContain('Début de période : 64 % · fin : 12 % · minimum : 12 %');
    expect(text).toContain('Batterie faible : 12 %');
  });

  it('lists the alerts no excursion covers, with their corrective actions', () => {
    const text = pages.join('\n');
    expect(text).toContain('Autres alertes de la période');
    expect(text).toContain('Hors ligne');
    expect(text).toContain('Passerelle redémarrée');
  });

  it('draws the chart of an absurd reading, and keeps a row with many long actions within its page', async () => {
    const content = reportFixture();
    const unit = content.units[0];
    if (!unit) throw new Error('fixture without a unit');
    unit.chart = unit.chart.map((point, index) => (index === 10 ? { ...point, max: 1e20 } : point));
    const excursion = unit.excursions[0];
    if (excursion?.alert) {
      excursion.alert.actions = Array.from({ length: 60 }, (_, i) => ({
        at: excursion.start,
        by: 'Élodie Marchand',
        text: `Action ${i} ${'x'.repeat(2000)}`,
      }));
    }
    const pdf = await renderReportPdf(content);
    const absurd = pdfToPages(pdf, 'absurd');
    expect(absurd.join('\n')).toContain('(+ 56 actions, voir le');
    expect(absurd.length).toBeLessThan(pages.length + 3);
  });

  it('repeats the header row of a table that runs over several pages', async () => {
    const content = longReportFixture();
    const longPages = pdfToPages(await renderReportPdf(content), 'long');
    const withRows = longPages.filter((page) => /\d\d\/10\/2026 +\d\d\/10\/2026 +20 min/.test(page));
    expect(withRows.length).toBeGreaterThan(2);
    for (const page of withRows) expect(page).toMatch(/Début +Fin +Durée +Pic +Sens +Gravité/);
    const unit = content.units[0];
    const starts = longPages.join('\n').match(/\d\d\/10\/2026 +\d\d\/10\/2026 +20 min/g) ?? [];
    expect(starts).toHaveLength(unit?.excursions.length ?? -1);
    longPages.forEach((page, index) => expect(page).toContain(`Page ${index + 1}/${longPages.length}`));
  });

  it('renders page 1 to an image', () => {
    const prefix = join(dir, 'page');
    execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', '-singlefile', join(dir, 'report.pdf'), prefix]);
    const png = readFileSync(`${prefix}.png`);
    expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
    // Kept for a person to look at.
    copyFileSync(`${prefix}.png`, join(tmpdir(), 'report-page1.png'));
  });
});
