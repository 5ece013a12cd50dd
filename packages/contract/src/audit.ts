import { z } from 'zod';
import { isoDateTimeSchema, uuidSchema } from './common.ts';

/**
 * What the audit trail records, and how « Journal » names it. The trail is append-only: a line
 * never changes, and it keeps the names of its author and subject as they were, so that it
 * survives the deletion of either.
 */
export const AUDIT_ACTION_LABELS = {
  'auth.login': 'Connexion',
  'auth.login_failed': 'Échec de connexion',
  'auth.logout_all': 'Déconnexion de tous les appareils',
  'auth.password_changed': 'Mot de passe changé',
  'auth.password_reset': 'Mot de passe réinitialisé',
  'auth.totp_enabled': 'Double authentification activée',
  'auth.totp_disabled': 'Double authentification désactivée',
  'auth.recovery_code_used': 'Code de secours utilisé',
  'auth.totp_recovery_codes_renewed': 'Codes de secours renouvelés',
  'organization.security_updated': 'Sécurité de l’organisation modifiée',
  'device.created': 'Appareil ajouté',
  'device.claimed': 'Appareil rattaché',
  'device.updated': 'Appareil modifié',
  'device.deleted': 'Appareil mis à la corbeille',
  'device.restored': 'Appareil restauré',
  'device.token_renewed': 'Jeton d’appareil renouvelé',
  'installation_key.renewed': 'Clé d’installation renouvelée',
  'integration.created': 'Intégration LoRaWAN créée',
  'integration.deleted': 'Intégration LoRaWAN supprimée',
  'device.registered': 'Appareil LoRaWAN enregistré',
  'codec.created': 'Décodeur LoRaWAN enregistré',
  'codec.deleted': 'Décodeur LoRaWAN supprimé',
  'site.created': 'Site créé',
  'site.updated': 'Site modifié',
  'site.deleted': 'Site supprimé',
  'region.created': 'Région créée',
  'region.updated': 'Région renommée',
  'region.deleted': 'Région supprimée',
  'rule.created': 'Règle d’alerte créée',
  'rule.updated': 'Règle d’alerte modifiée',
  'rule.deleted': 'Règle d’alerte supprimée',
  'rule_template.created': 'Modèle de règle créé',
  'rule_template.updated': 'Modèle de règle modifié',
  'rule_template.deleted': 'Modèle de règle supprimé',
  'alert.acknowledged': 'Alerte prise en compte',
  'alert.action': 'Action notée sur une alerte',
  'alert.resolved': 'Alerte résolue',
  'notification_policy.updated': 'Notifications modifiées',
  'pause.started': 'Mise en pause',
  'pause.ended': 'Pause terminée',
  'push.subscribed': 'Alertes reçues sur un appareil',
  'push.unsubscribed': 'Alertes arrêtées sur un appareil',
  'phone.verified': 'Téléphone confirmé',
  'phone.removed': 'Téléphone retiré',
  'on_call.updated': 'Astreinte modifiée',
  'member.invited': 'Invitation créée',
  'member.invitation_resent': 'Invitation renvoyée',
  'member.invitation_revoked': 'Invitation révoquée',
  'member.joined': 'Invitation acceptée',
  'member.role_changed': 'Rôle modifié',
  'member.scope_changed': 'Portée modifiée',
  'member.two_factor_reset': 'Double authentification réinitialisée',
  'member.removed': 'Membre retiré',
  'report.created': 'Rapport généré',
  'report.signed': 'Rapport signé',
  'task_template.created': 'Modèle de tâche créé',
  'task_template.updated': 'Modèle de tâche modifié',
  'task_template.deleted': 'Modèle de tâche supprimé',
  'task.completed': 'Tâche remplie',
  'process.started': 'Procédé commencé',
  'process.ended': 'Maintien au chaud terminé',
} as const;

export type AuditAction = keyof typeof AUDIT_ACTION_LABELS;
export const AUDIT_ACTIONS = Object.keys(AUDIT_ACTION_LABELS) as [AuditAction, ...AuditAction[]];
export const auditActionSchema = z.enum(AUDIT_ACTIONS, { error: 'Action inconnue du journal.' });

export const AUDIT_SUBJECT_TYPES = [
  'sensor',
  'integration',
  'emitter',
  'site',
  'region',
  'rule',
  'alert',
  'member',
  'invitation',
  'report',
  'organization',
  'task_template',
  'task',
  'process',
] as const;
export type AuditSubjectType = (typeof AUDIT_SUBJECT_TYPES)[number];

/** One line of the trail: who (as they were named then), what, on what, from where. */
export const auditEventSchema = z.object({
  id: z.string(),
  at: isoDateTimeSchema,
  action: auditActionSchema,
  /** Null for what nobody signed in did (a failed login names the account it aimed at as subject). */
  actor: z.object({ id: uuidSchema, name: z.string().nullable(), email: z.string() }).nullable(),
  subject: z.object({ type: z.enum(AUDIT_SUBJECT_TYPES), id: z.string(), name: z.string().nullable() }).nullable(),
  /** What changed, e.g. `{name: {from, to}}` or `{role: {from, to}}`; null when the action says it all. */
  details: z.record(z.string(), z.unknown()).nullable(),
  ip: z.string().nullable(),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** `endpoints.audit.list` and `endpoints.audit.exportCsv`: newest first, filtered; `from`/`to` are days (inclusive) in `tz`. */
export const auditQuerySchema = z.object({
  action: auditActionSchema.optional(),
  actorId: uuidSchema.optional(),
  q: z.string().trim().max(100, 'Recherche trop longue : 100 caractères au plus.').optional(),
  from: z.string().regex(DAY, 'Date de début invalide : AAAA-MM-JJ attendu.').optional(),
  to: z.string().regex(DAY, 'Date de fin invalide : AAAA-MM-JJ attendu.').optional(),
  tz: z.string().max(64).optional(),
  limit: z.coerce
    .number({ error: 'limit doit être un nombre entier.' })
    .int('limit doit être un nombre entier.')
    .min(1, 'limit doit valoir au moins 1.')
    .max(500, 'limit vaut 500 au plus.')
    .optional(),
  cursor: z
    .string()
    .regex(/^\d{1,18}$/, 'Curseur invalide : reprenez le journal depuis le début.')
    .optional(),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const auditResponseSchema = z.object({ events: z.array(auditEventSchema), nextCursor: z.string().nullable() });
export type AuditResponse = z.infer<typeof auditResponseSchema>;
