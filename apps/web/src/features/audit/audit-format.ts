import type { AuditEvent, AuditSubjectType, Role } from '@vigie/contract';
import { AUDIT_ACTION_LABELS } from '@vigie/contract/values';
import { ROLE_LABELS } from '@/lib/permissions';

const SUBJECT_LABELS: Record<AuditSubjectType, string> = {
  sensor: 'capteur',
  integration: 'intégration',
  emitter: 'émetteur',
  site: 'site',
  region: 'région',
  rule: 'règle',
  alert: 'alerte',
  member: 'membre',
  invitation: 'invitation',
  report: 'rapport',
  organization: 'organisation',
  task_template: 'modèle de tâche',
  task: 'tâche',
  process: 'procédé',
  api_key: 'clé d’API',
};

/** The French names of the fields a line of the trail may say changed. */
const FIELD_LABELS: Record<string, string> = {
  name: 'Nom',
  siteId: 'Site',
  timezone: 'Fuseau horaire',
  openingHours: 'Heures d’ouverture',
  role: 'Rôle',
  email: 'Adresse e-mail',
  text: 'Texte',
  serial: 'Numéro de série',
  month: 'Mois',
  sha256: 'Empreinte SHA-256',
  enabled: 'Active',
  sensorId: 'Capteur',
  condition: 'Condition',
  delaySeconds: 'Délai (s)',
  hysteresis: 'Hystérésis',
  schedule: 'Horaires',
  severity: 'Gravité',
  emailSent: 'Envoyée par e-mail',
  locked: 'Verrouillé',
  kind: 'Action',
  fate: 'Devenir des produits',
  via: 'Par',
  slots: 'Créneaux',
  ladder: 'Échelle',
  number: 'Numéro',
};

export function actionLabel(action: AuditEvent['action']): string {
  return AUDIT_ACTION_LABELS[action] ?? action;
}

/** « capteur « Vitrine » », or the kind alone when the name is unknown. */
export function subjectText(subject: AuditEvent['subject']): string | null {
  if (!subject) return null;
  const kind = SUBJECT_LABELS[subject.type] ?? subject.type;
  return subject.name ? `${kind} « ${subject.name} »` : kind;
}

function valueText(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (field === 'role' && typeof value === 'string' && value in ROLE_LABELS) return ROLE_LABELS[value as Role];
  if (typeof value === 'boolean') return value ? 'oui' : 'non';
  if (typeof value === 'number') return new Intl.NumberFormat('fr-FR').format(value);
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** What changed, one French line per field: « Nom : Vitrine → Vitrine fromages ». */
export function detailLines(details: AuditEvent['details']): string[] {
  if (!details) return [];
  return Object.entries(details).map(([field, value]) => {
    const label = FIELD_LABELS[field] ?? field;
    if (value && typeof value === 'object' && 'from' in value && 'to' in value) {
      const change = value as { from: unknown; to: unknown };
      return `${label}\u202F: ${valueText(field, change.from)} → ${valueText(field, change.to)}`;
    }
    return `${label}\u202F: ${valueText(field, value)}`;
  });
}

const when = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'medium', timeStyle: 'medium' });

/** « 14 mars 2026, 09:05:00 » on this browser's clock. */
export function auditTime(iso: string): string {
  return when.format(new Date(iso));
}
