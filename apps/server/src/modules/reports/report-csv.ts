import { csvField, csvNumber, csvText } from '../../lib/csv.ts';
import type { ReportActionLine, ReportContent, ReportExcursion, ReportUnit } from './report-content.ts';
import {
  actorLabel,
  directionLabel,
  formatDateTime,
  formatDay,
  formatMonth,
  resolutionLabel,
  severityLabel,
  truncateCompliance,
  sentences,
} from './report-format.ts';

/**
 * The report as a spreadsheet reads it (docs/api.md, Rapports): UTF-8 with a BOM (so Excel reads the accents),
 * `;` between fields, CRLF line ends, one section per table — a line naming it, the header line,
 * the rows, a blank line. Numbers carry a decimal comma and no thousands separator, and negatives
 * the ASCII hyphen-minus, not the U+2212 of the PDF: spreadsheets parse only that as a number.
 * Dates are on the site's clock (« 02/11/2026 14:05 »), with the UTC instant beside them for machines.
 */

const SEPARATOR = ';';
const EOL = '\r\n';
const BOM = '\ufeff';

/** Seconds as minutes, to the tenth when not whole: « 45 », « 0,7 ». */
export function csvMinutes(seconds: number): string {
  const minutes = Math.round(seconds / 6) / 10;
  return csvNumber(minutes, Number.isInteger(minutes) ? 0 : 1);
}

function section(title: string, header: string[], rows: string[][]): string[] {
  return [title, ...[header, ...rows].map((row) => row.map(csvField).join(SEPARATOR)), ''];
}

function isoUtc(instant: string | null): string {
  return instant === null ? '' : new Date(instant).toISOString();
}

/** A corrective action in one line: when, who, its guided label, its text and the products' fate. */
function actionLine(action: ReportActionLine, tz: string): string {
  const parts = [action.kind && action.kind !== action.text ? action.kind : null, action.text, action.fate ?? null];
  return `${formatDateTime(action.at, tz)} — ${actorLabel(action.by)}\u00a0: ${sentences(parts)}`;
}

function excursionRow(content: ReportContent, unit: ReportUnit, excursion: ReportExcursion): string[] {
  const tz = content.timezone;
  const { alert } = excursion;
  const actions = (alert?.actions ?? []).map((a) => actionLine(a, tz)).join('\n');
  return [
    csvText(unit.name),
    formatDateTime(excursion.start, tz),
    excursion.end ? formatDateTime(excursion.end, tz) : 'en cours',
    csvMinutes(excursion.durationSeconds),
    csvNumber(excursion.peak),
    directionLabel(excursion.direction),
    severityLabel(alert),
    alert?.acknowledgedAt ? csvText(actorLabel(alert.acknowledgedBy)) : '',
    alert?.acknowledgedAt ? formatDateTime(alert.acknowledgedAt, tz) : '',
    csvText(actions),
    resolutionLabel(alert, tz),
    isoUtc(excursion.start),
    isoUtc(excursion.end),
  ];
}

export function renderReportCsv(content: ReportContent): Buffer {
  const tz = content.timezone;
  const { summary, units } = content;
  const lines: string[] = [
    ...section(
      'Rapport',
      ['Rubrique', 'Valeur'],
      [
        ['Rapport', content.reportId],
        ['Organisation', csvText(content.organizationName)],
        ['Site', csvText(content.siteName)],
        ['Mois', formatMonth(content.month)],
        ['Début de la période', formatDateTime(summary.from, tz)],
        ['Fin de la période', formatDateTime(summary.to, tz)],
        ['Fuseau horaire', tz],
        ['Établi le', formatDateTime(content.createdAt, tz)],
        ['Établi par', content.createdByName === null ? 'Rapport établi automatiquement' : csvText(content.createdByName)],
      ],
    ),
    ...section(
      'Synthèse',
      [
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
      ],
      summary.units.map((u) => [
        csvText(u.name),
        csvNumber(u.min),
        csvNumber(u.max),
        // The figure the PDF prints: one decimal, rounded down.
        u.compliancePercent === null ? '' : csvNumber(truncateCompliance(u.compliancePercent)),
        String(u.excursionCount),
        csvMinutes(u.excursionSeconds),
        csvMinutes(u.noDataSeconds),
        String(u.openItems),
        String(u.briefExcursionCount),
        csvMinutes(u.briefExcursionSeconds),
      ]),
    ),
    ...section(
      'Relevés par jour',
      ['Capteur', 'Jour', 'Min (°C)', 'Moyenne (°C)', 'Max (°C)', 'Relevés', 'Hors limites (min)', 'Sans données (min)'],
      units.flatMap((unit) =>
        unit.days.map((day) => [
          csvText(unit.name),
          formatDay(day.date),
          csvNumber(day.min),
          csvNumber(day.mean),
          csvNumber(day.max),
          String(day.readings),
          csvMinutes(day.outOfRangeSeconds),
          csvMinutes(day.noDataSeconds),
        ]),
      ),
    ),
    ...section(
      'Excursions',
      [
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
        'Début (UTC, ISO 8601)',
        'Fin (UTC, ISO 8601)',
      ],
      units.flatMap((unit) => unit.excursions.map((e) => excursionRow(content, unit, e))),
    ),
    ...section(
      'Absences de données',
      ['Capteur', 'Début', 'Fin', 'Durée (min)', 'Début (UTC, ISO 8601)', 'Fin (UTC, ISO 8601)'],
      units.flatMap((unit) =>
        unit.gaps.map((g) => [
          csvText(unit.name),
          formatDateTime(g.from, tz),
          formatDateTime(g.to, tz),
          csvMinutes(g.durationSeconds),
          isoUtc(g.from),
          isoUtc(g.to),
        ]),
      ),
    ),
    ...section(
      'Autres alertes',
      [
        'Capteur',
        'Ouverte le',
        'Motif',
        'Gravité',
        'Acquittée par',
        'Acquittée le',
        'Actions correctives',
        'Résolution',
        'Ouverte (UTC, ISO 8601)',
      ],
      units.flatMap((unit) =>
        unit.otherAlerts.map((alert) => [
          csvText(unit.name),
          formatDateTime(alert.openedAt, tz),
          csvText(alert.reason),
          severityLabel(alert),
          alert.acknowledgedAt ? csvText(actorLabel(alert.acknowledgedBy)) : '',
          alert.acknowledgedAt ? formatDateTime(alert.acknowledgedAt, tz) : '',
          csvText(alert.actions.map((a) => actionLine(a, tz)).join('\n')),
          resolutionLabel(alert, tz),
          isoUtc(alert.openedAt),
        ]),
      ),
    ),
    ...section(
      'Batterie',
      ['Capteur', 'Niveau en début de période (%)', 'Niveau en fin de période (%)', 'Niveau minimum (%)'],
      units.map((unit) => [
        csvText(unit.name),
        csvNumber(unit.battery.first, 0),
        csvNumber(unit.battery.last, 0),
        csvNumber(unit.battery.min, 0),
      ]),
    ),
    ...section(
      'Événements de batterie',
      ['Capteur', 'Date', 'Événement', 'Date (UTC, ISO 8601)'],
      units.flatMap((unit) =>
        unit.battery.events.map((e) => [csvText(unit.name), formatDateTime(e.at, tz), csvText(e.text), isoUtc(e.at)]),
      ),
    ),
    ...section(
      'Pauses des notifications',
      ['Capteur', 'Début', 'Fin', 'Motif', 'Portée', 'Par', 'Début (UTC, ISO 8601)', 'Fin (UTC, ISO 8601)'],
      units.flatMap((unit) =>
        (unit.pauses ?? []).map((pause) => [
          csvText(unit.name),
          formatDateTime(pause.from, tz),
          formatDateTime(pause.until, tz),
          csvText(pause.reason),
          pause.scope === 'site' ? 'Tout le magasin' : 'Ce meuble',
          csvText(pause.by),
          isoUtc(pause.from),
          isoUtc(pause.until),
        ]),
      ),
    ),
    ...section(
      'Vérifications des capteurs',
      ['Capteur', 'Vérifié le', 'Par', 'Méthode', 'Écart mesuré (°C)', 'Prochaine avant le', 'Certificat', 'SHA-256 du certificat'],
      units.map((unit) => {
        const v = unit.verification ?? null;
        return [
          csvText(unit.name),
          v ? formatDateTime(v.verifiedAt, tz) : '',
          csvText(v?.by ?? null),
          csvText(v?.method ?? null),
          csvNumber(v?.offset ?? null, 2),
          v?.nextDueAt ? formatDateTime(v.nextDueAt, tz) : '',
          csvText(v?.certificate?.fileName ?? null),
          csvText(v?.certificate?.sha256 ?? null),
        ];
      }),
    ),
    ...section(
      'Contrôles manuels et réceptions',
      ['Date', 'Par', 'Contrôle', 'Produit, fournisseur ou meuble', 'Température (°C)', 'Décision', 'Remarque', 'Date (UTC, ISO 8601)'],
      (content.checks ?? []).map((check) => [
        formatDateTime(check.at, tz),
        csvText(check.by),
        csvText(check.kind),
        csvText(check.subject),
        csvNumber(check.temperature),
        csvText(check.decision),
        csvText(check.note),
        isoUtc(check.at),
      ]),
    ),
    ...planLines(content, tz),
    ...amendmentLines(content, tz),
  ];
  return Buffer.from(BOM + lines.join(EOL), 'utf8');
}

/** The food-safety plan of the month: every task due, then every cooling and hot holding (absent in older reports). */
function planLines(content: ReportContent, tz: string): string[] {
  const plan = content.plan;
  if (!plan) return [];
  const actions = (lines: ReportActionLine[]) => lines.map((action) => actionLine(action, tz)).join('\n');
  return [
    ...section(
      'Plan de maîtrise sanitaire — tâches',
      [
        'Échéance',
        'Tâche',
        'État',
        'Non conforme',
        'Remplie le',
        'Par',
        'Constats',
        'Commentaire',
        'Photos (SHA-256)',
        'Actions correctives',
        'Échéance (UTC, ISO 8601)',
      ],
      plan.tasks.map((task) => [
        formatDateTime(task.dueAt, tz),
        csvText(task.name),
        task.status,
        task.nonconforming ? 'oui' : 'non',
        task.completedAt ? formatDateTime(task.completedAt, tz) : '',
        csvText(task.completedBy),
        csvText(task.findings.join(' | ')),
        csvText(task.comment),
        task.photos.join(' '),
        csvText(actions(task.actions)),
        isoUtc(task.dueAt),
      ]),
    ),
    ...section(
      'Plan de maîtrise sanitaire — refroidissements et maintiens au chaud',
      [
        'Début',
        'Par',
        'Procédé',
        'Produit',
        'Première température (°C)',
        'Dernière température (°C)',
        'Relevés',
        'Fin',
        'Résultat',
        'Cause',
        'Actions correctives',
      ],
      plan.processes.map((process) => [
        formatDateTime(process.startedAt, tz),
        csvText(process.by),
        process.kind,
        csvText(process.product),
        csvNumber(process.first),
        csvNumber(process.last),
        String(process.readings),
        process.endedAt ? formatDateTime(process.endedAt, tz) : '',
        process.status,
        csvText(process.failure),
        csvText(actions(process.actions)),
      ]),
    ),
  ];
}

/** A report of a month already signed: what came after the signature, after the signed figures (decision 0046). */
function amendmentLines(content: ReportContent, tz: string): string[] {
  const amendments = content.amendments;
  if (!amendments) return [];
  return [
    ...section(
      'Rectificatifs après la signature',
      ['Rapport signé', 'Signé le', 'Signé par', 'Empreinte SHA-256 du PDF signé'],
      [[amendments.signedReportId, formatDateTime(amendments.signedAt, tz), csvText(amendments.signedBy), amendments.signedSha256]],
    ),
    ...section(
      'Rectificatifs : vérifications non appliquées à la période signée',
      ['Capteur', 'Vérifié le', 'Noté le', 'Par', 'Méthode', 'Remarque', 'Écart (°C)', 'Appliquée à partir du'],
      amendments.corrections.map((correction) => [
        csvText(correction.sensorName),
        formatDateTime(correction.verifiedAt, tz),
        formatDateTime(correction.recordedAt, tz),
        csvText(correction.by),
        csvText(correction.method),
        csvText(correction.note),
        csvNumber(correction.offset, 2),
        formatDateTime(correction.appliesFrom, tz),
      ]),
    ),
    ...section(
      'Rectificatifs : contrôles saisis après la signature',
      ['Contrôle du', 'Saisi le', 'Par', 'Contrôle', 'Produit, fournisseur ou meuble', 'Température (°C)', 'Décision'],
      amendments.lateChecks.map((check) => [
        formatDateTime(check.at, tz),
        formatDateTime(check.enteredAt, tz),
        csvText(check.by),
        csvText(check.kind),
        csvText(check.subject),
        csvNumber(check.temperature),
        csvText(check.decision),
      ]),
    ),
    ...section(
      'Rectificatifs : suites données aux alertes après la signature',
      ['Capteur', 'Alerte du', 'Notée le', 'Par', 'Action'],
      amendments.lateActions.map((action) => [
        csvText(action.sensorName),
        formatDateTime(action.alertOpenedAt, tz),
        formatDateTime(action.at, tz),
        csvText(action.by),
        csvText([action.kind, action.text, action.fate].filter(Boolean).join(' — ')),
      ]),
    ),
    ...section(
      'Rectificatifs : lectures reçues après la signature',
      ['Capteur', 'Lectures'],
      amendments.lateReadings.map((late) => [csvText(late.sensorName), String(late.count)]),
    ),
  ];
}
