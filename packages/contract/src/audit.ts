import { z } from 'zod';
import { isoDateTimeSchema, uuidSchema } from './common.ts';
import { AUDIT_ACTIONS } from './values/audit.ts';

export * from './values/audit.ts';

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
  'api_key',
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
