import { describe, expect, it } from 'vitest';
import { csvField, csvNumber, csvText } from '../../lib/csv.ts';
import { csvMinutes, renderReportCsv } from './report-csv.ts';
import { longReportFixture, reportFixture } from './report-fixture.ts';

/** Reads `;`-separated CSV with CRLF line ends and "…" quoting (quotes doubled inside). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') {
        quoted = false;
      } else {
        field += char;
      }
    } else if (char === '"') {
      quoted = true;
    } else if (char === ';') {
      row.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else {
      field += char;
    }
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

/** The rows of the section titled `title`: its header first. */
function sectionRows(rows: string[][], title: string): string[][] {
  const start = rows.findIndex((row) => row.length === 1 && row[0] === title);
  expect(start, `section « ${title} »`).toBeGreaterThanOrEqual(0);
  const end = rows.findIndex((row, i) => i > start && row.length === 1 && row[0] === '');
  return rows.slice(start + 1, end < 0 ? rows.length : end);
}

describe('renderReportCsv', () => {
  const bytes = renderReportCsv(reportFixture());
  const text = bytes.toString('utf8');
  const rows = parseCsv(text.slice(1));

  it('is UTF-8 with a BOM, CRLF line ends and a blank line after each section', () => {
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/(?<!")\n(?![^"]*")/);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text).toContain('\r\n\r\nSynthèse\r\n');
  });

  it('has one section per table, each with its French header and units', () => {
    expect(sectionRows(rows, 'Synthèse')[0]).toEqual([
      'Capteur',
      'Limite basse (°C)',
      'Limite haute (°C)',
      'Conformité (%)',
      'Excursions',
      'Durée des excursions (min)',
      'Sans données (min)',
      'Points ouverts',
      'Brèves excursions (non listées)',
      'Durée des brèves excursions (min)',
    ]);
    expect(sectionRows(rows, 'Relevés par jour')[0]).toEqual([
      'Capteur',
      'Jour',
      'Min (°C)',
      'Moyenne (°C)',
      'Max (°C)',
      'Relevés',
      'Hors limites (min)',
      'Sans données (min)',
    ]);
    expect(sectionRows(rows, 'Excursions')[0]?.slice(0, 11)).toEqual([
      'Capteur',
      'Début',
      'Fin',
      'Durée (min)',
      'Pic (°C)',
      'Sens',
      'Gravité',
      'Acquittée par',
      'Acquittée le',
      'Actions correctives',
      'Résolution',
    ]);
    expect(sectionRows(rows, 'Absences de données')[0]?.slice(0, 4)).toEqual(['Capteur', 'Début', 'Fin', 'Durée (min)']);
  });

  it('writes numbers with a decimal comma and an ASCII minus, no thousands separator', () => {
    const summary = sectionRows(rows, 'Synthèse');
    expect(summary[1]).toEqual(['Congélateur Crèmerie', '-25,0', '-18,0', '98,9', '3', '190', '300', '1', '0', '0']);
    expect(summary[2]).toEqual(['Vitrine réfrigérée Crèmerie', '', '4,0', '99,5', '2', '190', '0', '1', '3', '12']);
    expect(summary[3]).toEqual(['Chambre froide légumes', '', '', '', '0', '0', '0', '0', '0', '0']);
    const days = sectionRows(rows, 'Relevés par jour');
    expect(days).toHaveLength(1 + 3 * 31);
    expect(days).toContainEqual(['Congélateur Crèmerie', '14/10/2026', '-22,5', '-21,2', '-19,7', '228', '0', '300']);
    expect(days).toContainEqual(['Congélateur Crèmerie', '25/10/2026', '-22,5', '-21,0', '-19,5', '300', '0', '0']);
    // Typed text keeps its typography; the numbers the spreadsheet computes with never carry U+2212 or U+202F.
    for (const row of [...summary, ...days].slice(1)) expect(row.join(';')).not.toMatch(/[\u2212\u202f\u00a0]/);
  });

  it('lists excursions on the site’s clock with their actions, and the blanks', () => {
    const excursions = sectionRows(rows, 'Excursions');
    expect(excursions).toHaveLength(1 + 5);
    expect(excursions[2]).toEqual([
      'Congélateur Crèmerie',
      '21/10/2026 15:00',
      '21/10/2026 17:05',
      '125',
      '-12,4',
      'Au-dessus',
      'Avertissement',
      'Karim Benali',
      '21/10/2026 15:30',
      '21/10/2026 15:35 — Karim Benali\u00a0: Dégivrage manuel lancé, produits transférés dans la chambre froide n° 2.\n' +
        '21/10/2026 17:20 — Système\u00a0: Retour sous −18 °C constaté.',
      'Clôturée manuellement le 21/10/2026 17:30',
      '2026-10-21T13:00:00.000Z',
      '2026-10-21T15:05:00.000Z',
    ]);
    expect(excursions[5]?.slice(0, 4)).toEqual(['Vitrine réfrigérée Crèmerie', '31/10/2026 21:30', 'en cours', '150']);
    expect(sectionRows(rows, 'Absences de données')[1]).toEqual([
      'Congélateur Crèmerie',
      '14/10/2026 03:00',
      '14/10/2026 08:00',
      '300',
      '2026-10-14T01:00:00.000Z',
      '2026-10-14T06:00:00.000Z',
    ]);
  });

  it('states the report, its period and its maker', () => {
    const info = sectionRows(rows, 'Rapport');
    expect(info).toContainEqual(['Mois', 'Octobre 2026']);
    expect(info).toContainEqual(['Fuseau horaire', 'Europe/Paris']);
    expect(info).toContainEqual(['Établi par', 'Rapport établi automatiquement']);
    expect(sectionRows(rows, 'Événements de batterie')[1]?.slice(0, 3)).toEqual([
      'Congélateur Crèmerie',
      '29/10/2026 09:00',
      'Batterie faible : 12\u202f%',
    ]);
  });

  it('keeps every row of a long month', () => {
    const long = parseCsv(renderReportCsv(longReportFixture()).toString('utf8').slice(1));
    expect(sectionRows(long, 'Excursions')).toHaveLength(1 + (longReportFixture().units[0]?.excursions.length ?? 0));
  });
});

describe('CSV fields', () => {
  it('quotes a field holding ; " or a line break', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a;b')).toBe('"a;b"');
    expect(csvField('dit "non"')).toBe('"dit ""non"""');
    expect(csvField('ligne 1\nligne 2')).toBe('"ligne 1\nligne 2"');
  });

  it('keeps typed text from running as a formula', () => {
    expect(csvText('=SOMME(A1)')).toBe("'=SOMME(A1)");
    expect(csvText('-18 constaté')).toBe("'-18 constaté");
    expect(csvText('Porte refermée')).toBe('Porte refermée');
  });

  it('writes numbers and minutes for a spreadsheet', () => {
    expect(csvNumber(-18)).toBe('-18,0');
    expect(csvNumber(-0.04)).toBe('0,0');
    expect(csvNumber(12345.67)).toBe('12345,7');
    expect(csvNumber(null)).toBe('');
    expect(csvMinutes(2700)).toBe('45');
    expect(csvMinutes(40)).toBe('0,7');
  });
});
