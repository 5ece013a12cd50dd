import type { ReportActionLine, ReportContent } from './report-content.ts';
import { NBSP, NONE, actorLabel, formatDateTime, formatNumber, formatTemperature, sentences } from './report-format.ts';
import { COLOR, paragraph, sectionTitle, table, type Doc } from './report-pdf-layout.ts';

const MAX_ACTIONS_SHOWN = 3;
const MAX_TEXT = 240;
const clip = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text);

/** Corrective actions, each with who and when; past a few, the rest is in the CSV. */
function actionsText(actions: readonly ReportActionLine[], tz: string): string {
  const shown = actions.slice(0, MAX_ACTIONS_SHOWN).map((action) => {
    const written = clip(action.text);
    const parts = [action.kind && action.kind !== written ? action.kind : null, written, action.fate ?? null].filter((part) => part);
    return `${formatDateTime(action.at, tz)} — ${actorLabel(action.by)}${NBSP}: ${sentences(parts)}`;
  });
  const rest = actions.length - shown.length;
  if (rest > 0) shown.push(`(+${NBSP}${formatNumber(rest, 0)} action${rest > 1 ? 's' : ''}, voir le CSV)`);
  return shown.join('\n');
}

const plural = (count: number, one: string, many: string) => `${formatNumber(count, 0)}${NBSP}${count > 1 ? many : one}`;

/**
 * The section « Plan de maîtrise sanitaire »: every task due in the month with its state, who did
 * it and when, what was out of its limits and what was done about it, the photos by their SHA-256;
 * then each cooling and hot holding with its start, end and result.
 */
export function writePlan(doc: Doc, content: ReportContent): void {
  const plan = content.plan;
  if (!plan) return;
  const tz = content.timezone;
  doc.addPage();
  sectionTitle(doc, 'Plan de maîtrise sanitaire');
  const figures = content.summary.tasks;
  if (figures) {
    paragraph(
      doc,
      `${plural(figures.due, 'tâche due', 'tâches dues')}${NBSP}: ${plural(figures.done, 'faite', 'faites')} à l’heure, ${figures.late} en retard, ${plural(figures.missed, 'manquée', 'manquées')}${NBSP}; ${plural(figures.nonconforming, 'non conforme', 'non conformes')}.`,
    );
  }
  paragraph(
    doc,
    `Tâches dues sur la période, à l’heure du magasin. Faite${NBSP}: remplie dans sa fenêtre. En retard${NBSP}: remplie pendant son délai de grâce. Manquée${NBSP}: non remplie à la fin du délai de grâce. Les photos sont désignées par leur empreinte SHA-256.`,
    { size: 8, color: COLOR.muted },
  );
  if (plan.tasks.length === 0) paragraph(doc, 'Aucune tâche due sur la période.');
  else
    table(
      doc,
      [
        { header: 'Échéance', weight: 58 },
        { header: 'Tâche', weight: 92 },
        { header: 'État', weight: 50 },
        { header: 'Remplie le, par', weight: 84 },
        { header: 'Constats, photos', weight: 120 },
        { header: 'Actions correctives', weight: 118 },
      ],
      plan.tasks.map((task) => {
        const alarming = task.status === 'Manquée' || task.nonconforming;
        const findings = [
          ...task.findings.map(clip),
          ...(task.comment ? [`Commentaire${NBSP}: ${clip(task.comment)}`] : []),
          ...task.photos.map((sha256) => `Photo ${sha256.slice(0, 16)}…`),
        ];
        return [
          { text: formatDateTime(task.dueAt, tz) },
          { text: task.name },
          { text: task.nonconforming ? `${task.status}, non conforme` : task.status, ...(alarming ? { tone: 'alert' as const } : {}) },
          { text: task.completedAt ? `${formatDateTime(task.completedAt, tz)}, ${task.completedBy ?? 'membre supprimé'}` : NONE },
          { text: findings.length > 0 ? findings.join('\n') : NONE },
          { text: task.actions.length > 0 ? actionsText(task.actions, tz) : alarming ? 'Aucune' : NONE },
        ];
      }),
      { size: 7 },
    );

  doc.moveDown(0.8);
  paragraph(doc, 'Refroidissements rapides et maintiens au chaud', { size: 9, bold: true });
  paragraph(
    doc,
    `Refroidissement rapide${NBSP}: de +63${NBSP}°C ou plus à +10${NBSP}°C ou moins en 2${NBSP}h au plus. Maintien au chaud${NBSP}: +63${NBSP}°C ou plus, relevé toutes les 2${NBSP}h au plus.`,
    { size: 8, color: COLOR.muted },
  );
  if (plan.processes.length === 0) {
    paragraph(doc, 'Aucun procédé suivi sur la période.');
    return;
  }
  table(
    doc,
    [
      { header: 'Début, par', weight: 76 },
      { header: 'Procédé, produit', weight: 96 },
      { header: 'Températures', weight: 78 },
      { header: 'Fin', weight: 58 },
      { header: 'Résultat', weight: 96 },
      { header: 'Actions correctives', weight: 118 },
    ],
    plan.processes.map((process) => [
      { text: `${formatDateTime(process.startedAt, tz)}, ${process.by}` },
      { text: `${process.kind} — ${process.product}` },
      {
        text:
          process.first === null
            ? NONE
            : `${formatTemperature(process.first, { signed: true })} → ${formatTemperature(process.last, { signed: true })} (${plural(process.readings, 'relevé', 'relevés')})`,
      },
      { text: process.endedAt ? formatDateTime(process.endedAt, tz) : NONE },
      {
        text: process.failure ? `${process.status}${NBSP}: ${process.failure}` : process.status,
        ...(process.failed ? { tone: 'alert' as const } : {}),
      },
      { text: process.actions.length > 0 ? actionsText(process.actions, tz) : process.failed ? 'Aucune' : NONE },
    ]),
    { size: 7 },
  );
}
