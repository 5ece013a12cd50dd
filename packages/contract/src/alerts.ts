import { z } from 'zod';
import { isoDateTimeSchema, nameSchema, uuidSchema } from './common.ts';
import { deviceKindSchema } from './devices.ts';
import { hasOverloadedCharacter, OVERLOADED_CHARACTER_MESSAGE } from './text.ts';
import { RULE_PRESETS, type RulePreset } from './presets.ts';
import { READING_KEY_PATTERN } from './telemetry.ts';
import { ACTION_KINDS, actionDetailsSchema, productFateSchema } from './record.ts';

export * from './values/alerts.ts';

const keySchema = z
  .string({ error: 'La mesure doit être une chaîne de caractères, par exemple « temperature ».' })
  .regex(READING_KEY_PATTERN, { error: 'Mesure inconnue : une clé comme « temperature » est attendue.' });

const thresholdSchema = z
  .number({ error: 'Le seuil doit être un nombre.' })
  .refine(Number.isFinite, { error: 'Le seuil doit être un nombre fini.' })
  .refine((value) => Math.abs(value) <= 1e9, { error: 'Le seuil est hors des valeurs possibles.' });

/** How far ahead a « dépassement prévu » looks: the forecast covers four hours. */
export const MAX_PREDICTION_MINUTES = 240;
const withinMinutesSchema = z
  .number({ error: 'L’horizon de prévision doit être un nombre de minutes.' })
  .int({ error: 'L’horizon de prévision doit être un nombre entier de minutes.' })
  .min(15, { error: 'L’horizon de prévision va de 15 à 240 minutes.' })
  .max(MAX_PREDICTION_MINUTES, { error: 'L’horizon de prévision va de 15 à 240 minutes.' })
  .default(120);

/** What makes a sensor out of limits (docs/api.md, Alertes). */
export const ruleConditionSchema = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ type: z.literal('above'), key: keySchema, threshold: thresholdSchema }),
    z.strictObject({ type: z.literal('below'), key: keySchema, threshold: thresholdSchema }),
    z
      .strictObject({ type: z.literal('outside'), key: keySchema, min: thresholdSchema, max: thresholdSchema })
      .refine((condition) => condition.min < condition.max, { error: 'Le minimum doit être inférieur au maximum.' }),
    z.strictObject({ type: z.literal('offline') }),
    // « Dépassement prévu » (docs/api.md, Analyse prédictive): the forecast crosses the limit within the next minutes.
    z.strictObject({
      type: z.literal('predicted_above'),
      key: keySchema,
      threshold: thresholdSchema,
      withinMinutes: withinMinutesSchema,
    }),
    z.strictObject({
      type: z.literal('predicted_below'),
      key: keySchema,
      threshold: thresholdSchema,
      withinMinutes: withinMinutesSchema,
    }),
    z.strictObject({
      type: z.literal('battery_below'),
      threshold: z
        .number({ error: 'Le seuil de batterie doit être un nombre.' })
        .min(0, { error: 'Le seuil de batterie est un pourcentage de 0 à 100.' })
        .max(100, { error: 'Le seuil de batterie est un pourcentage de 0 à 100.' }),
    }),
  ],
  {
    error:
      'La condition doit être « above », « below », « outside », « offline », « battery_below », « predicted_above » ou « predicted_below ».',
  },
);
export type RuleCondition = z.infer<typeof ruleConditionSchema>;

export const ruleScheduleSchema = z.enum(['always', 'opening_hours', 'closed_hours'], {
  error: 'Le planning doit être « always », « opening_hours » ou « closed_hours ».',
});
export type RuleSchedule = z.infer<typeof ruleScheduleSchema>;

export const severitySchema = z.enum(['critical', 'warning'], { error: 'La gravité doit être « critical » ou « warning ».' });
export type Severity = z.infer<typeof severitySchema>;

export const MAX_DELAY_SECONDS = 7 * 24 * 3600;

export const rulePresetSchema = z.enum(Object.keys(RULE_PRESETS) as [RulePreset, ...RulePreset[]], {
  error: `Préréglage inconnu : ${Object.keys(RULE_PRESETS).join(', ')}.`,
});

/**
 * The words a rule looks for in a sensor's name (« crèmerie », « vitrine »): a site's rule with
 * some watches only the sensors whose name holds one of them, ignoring case and accents; none, every
 * sensor of the site. Organization templates aim at a kind of unit this way.
 */
export const sensorNameWordsSchema = z
  .array(
    z
      .string({ error: 'Chaque mot du nom des capteurs visés doit être une chaîne de caractères.' })
      .trim()
      .min(2, { error: 'Chaque mot du nom des capteurs visés doit compter au moins 2 caractères.' })
      .max(60, { error: 'Chaque mot du nom des capteurs visés doit compter 60 caractères au plus.' })
      .refine((value) => !hasOverloadedCharacter(value), { error: OVERLOADED_CHARACTER_MESSAGE }),
    { error: 'Les mots du nom des capteurs visés forment une liste, par exemple ["crèmerie"].' },
  )
  .max(20, { error: 'Vingt mots au plus pour le nom des capteurs visés.' });

export const ruleSchema = z.object({
  id: uuidSchema,
  name: z.string(),
  enabled: z.boolean(),
  sensorId: uuidSchema.nullable(),
  siteId: uuidSchema.nullable(),
  condition: ruleConditionSchema,
  delaySeconds: z.number().int(),
  hysteresis: z.number(),
  schedule: ruleScheduleSchema,
  severity: severitySchema,
  preset: rulePresetSchema.nullable(),
  /** The organization's template this rule comes from (docs/api.md, Modèles de règles); `locked`, a shop may tighten it, never loosen it. */
  template: z.object({ id: uuidSchema, name: z.string(), locked: z.boolean() }).nullable().optional(),
  /** A site's rule laid by a template that aims at some units: the words one of which their name holds. */
  sensorNameContains: z.array(z.string()).optional(),
  createdAt: isoDateTimeSchema,
  updatedAt: isoDateTimeSchema,
});
export type Rule = z.infer<typeof ruleSchema>;

export const ruleFields = {
  name: nameSchema,
  enabled: z.boolean({ error: 'enabled doit valoir true ou false.' }),
  sensorId: uuidSchema,
  siteId: uuidSchema,
  condition: ruleConditionSchema,
  delaySeconds: z
    .number({ error: 'Le délai doit être un nombre de secondes.' })
    .int({ error: 'Le délai doit être un nombre entier de secondes.' })
    .min(0, { error: 'Le délai ne peut pas être négatif.' })
    .max(MAX_DELAY_SECONDS, { error: 'Le délai ne doit pas dépasser 7 jours.' }),
  hysteresis: z
    .number({ error: 'L’hystérésis doit être un nombre.' })
    .min(0, { error: 'L’hystérésis ne peut pas être négative.' })
    .max(1e6, { error: 'L’hystérésis est hors des valeurs possibles.' }),
  schedule: ruleScheduleSchema,
  severity: severitySchema,
  preset: rulePresetSchema,
};

const EXACTLY_ONE_TARGET = 'Une règle vise soit un capteur (sensorId), soit un site (siteId), pas les deux.';

export const createRuleRequestSchema = z
  .strictObject({
    name: ruleFields.name,
    enabled: ruleFields.enabled.optional(),
    sensorId: ruleFields.sensorId.optional(),
    siteId: ruleFields.siteId.optional(),
    condition: ruleFields.condition.optional(),
    delaySeconds: ruleFields.delaySeconds.optional(),
    hysteresis: ruleFields.hysteresis.optional(),
    schedule: ruleFields.schedule.optional(),
    severity: ruleFields.severity.optional(),
    preset: ruleFields.preset.optional(),
  })
  .refine((body) => (body.sensorId === undefined) !== (body.siteId === undefined), { error: EXACTLY_ONE_TARGET })
  .refine((body) => body.condition !== undefined || body.preset !== undefined, {
    error: 'Indiquez une condition ou un préréglage (preset).',
  });
export type CreateRuleRequest = z.infer<typeof createRuleRequestSchema>;

export const updateRuleRequestSchema = z
  .strictObject({
    name: ruleFields.name.optional(),
    enabled: ruleFields.enabled.optional(),
    condition: ruleFields.condition.optional(),
    delaySeconds: ruleFields.delaySeconds.optional(),
    hysteresis: ruleFields.hysteresis.optional(),
    schedule: ruleFields.schedule.optional(),
    severity: ruleFields.severity.optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), { error: 'Indiquez au moins un champ à modifier.' });
export type UpdateRuleRequest = z.infer<typeof updateRuleRequestSchema>;

export const ruleListResponseSchema = z.object({ rules: z.array(ruleSchema) });
export const ruleResponseSchema = z.object({ rule: ruleSchema });

export const alertStatusSchema = z.enum(['open', 'acknowledged', 'resolved']);
export type AlertStatus = z.infer<typeof alertStatusSchema>;

/** `called`: an attempt of the on-call ladder (a push, an SMS, a call) and its outcome. `paused`: the alert's sensor or site was put on pause, its notifications wait (the text says until when and why). */
export const alertEventTypeSchema = z.enum(['opened', 'acknowledged', 'action', 'notified', 'escalated', 'resolved', 'paused', 'called']);
export type AlertEventType = z.infer<typeof alertEventTypeSchema>;

/** What a « dépassement prévu » alert announces: a limit the forecast crosses, and when. */
export const predictedAlertSchema = z.object({
  direction: z.enum(['above', 'below']),
  threshold: z.number(),
  eta: isoDateTimeSchema.nullable(),
});
export type PredictedAlert = z.infer<typeof predictedAlertSchema>;

/** One line of an alert's append-only timeline. */
export const alertEventSchema = z.object({
  type: alertEventTypeSchema,
  at: isoDateTimeSchema,
  userId: uuidSchema.nullable().optional(),
  text: z.string().nullable().optional(),
  /** A guided corrective action's kind and the products' fate (absent on other lines). */
  action: actionDetailsSchema.nullable().optional(),
});
export type AlertEvent = z.infer<typeof alertEventSchema>;

export const alertSchema = z.object({
  id: uuidSchema,
  /** The rule that opened it; null for a task's or a process's alert. */
  ruleId: uuidSchema.nullable(),
  /**
   * The device the alert is about: a sensor, or a transmitter when `deviceKind` says `emitter`;
   * null for a task's or a process's alert.
   */
  sensorId: uuidSchema.nullable(),
  /** The task of the food-safety plan missed or answered out of its limits; absent or null otherwise. */
  taskId: uuidSchema.nullable().optional(),
  /** The timed process (cooling, hot holding) that failed; absent or null otherwise. */
  processId: uuidSchema.nullable().optional(),
  /**
   * `emitter` when the alert is about a transmitter (a LoRaWAN gateway fallen silent, watched by its
   * shop's « hors ligne » rule); absent for a sensor.
   */
  deviceKind: deviceKindSchema.optional(),
  siteId: uuidSchema.nullable(),
  status: alertStatusSchema,
  severity: severitySchema,
  /** The measure watched (`battery` for the battery level); null for an offline alert. */
  key: z.string().nullable(),
  openedAt: isoDateTimeSchema,
  acknowledgedAt: isoDateTimeSchema.nullable(),
  acknowledgedBy: uuidSchema.nullable(),
  resolvedAt: isoDateTimeSchema.nullable(),
  resolution: z.enum(['auto', 'manual']).nullable(),
  /** The worst value of the excursion (highest above, lowest below); null for offline. */
  peak: z.number().nullable(),
  /** The latest value seen while the alert was active; null for offline. */
  last: z.number().nullable(),
  /**
   * Only on an alert of a « dépassement prévu » rule: the forecast it announces. Its `peak` and
   * `last` are then forecast values, never readings. `eta`: when the latest forecast crosses
   * `threshold`; null once the alert is resolved, or when the latest forecast no longer does.
   */
  forecast: predictedAlertSchema.optional(),
  events: z.array(alertEventSchema),
});
export type Alert = z.infer<typeof alertSchema>;

const TEXT_MAX = 2000;
const textSchema = z
  .string({ error: 'Le texte doit être une chaîne de caractères.' })
  .trim()
  .min(1, { error: 'Le texte est obligatoire.' })
  .max(TEXT_MAX, { error: `Le texte ne doit pas dépasser ${TEXT_MAX} caractères.` })
  .refine((value) => !hasOverloadedCharacter(value), { error: OVERLOADED_CHARACTER_MESSAGE });

export const alertListQuerySchema = z.strictObject({
  status: z
    .enum(['active', 'open', 'acknowledged', 'resolved'], { error: 'Statut inconnu : active, open, acknowledged ou resolved.' })
    .optional(),
  sensorId: uuidSchema.optional(),
  siteId: uuidSchema.optional(),
});
export type AlertListQuery = z.infer<typeof alertListQuerySchema>;

export const acknowledgeAlertRequestSchema = z.strictObject({ comment: textSchema.optional() });
/**
 * A corrective action: free text, a guided kind (docs/api.md, Actions guidées et contrôles
 * manuels), or both; and what became of the products, with the quantity.
 */
export const alertActionRequestSchema = z
  .strictObject({
    text: textSchema.optional(),
    kind: z.enum(ACTION_KINDS, { error: `Action inconnue : ${ACTION_KINDS.join(', ')}.` }).optional(),
    fate: productFateSchema.optional(),
  })
  .refine((body) => body.text !== undefined || body.kind !== undefined, {
    error: 'Décrivez l’action : choisissez-la dans la liste (kind) ou écrivez-la (text).',
  })
  .refine((body) => body.kind !== 'other' || body.text !== undefined, { error: '« Autre action » demande un texte qui la décrit.' });
export const resolveAlertRequestSchema = z.strictObject({ text: textSchema.optional() });

export const alertListResponseSchema = z.object({ alerts: z.array(alertSchema) });
export const alertResponseSchema = z.object({ alert: alertSchema });

/** `alert` events of the live stream, for the alert's organization only; `updated`: a new peak or latest value. */
export const alertStreamEventSchema = z.object({
  action: z.enum(['opened', 'updated', 'acknowledged', 'action', 'resolved']),
  alert: alertSchema,
});
export type AlertStreamEvent = z.infer<typeof alertStreamEventSchema>;
