import { z } from 'zod';
import { isoDateTimeSchema, uuidSchema } from './common.ts';
import { ruleConditionSchema, ruleFields, rulePresetSchema, ruleScheduleSchema, sensorNameWordsSchema, severitySchema } from './alerts.ts';

/**
 * An organization-wide rule template (docs/api.md, Modèles de règles): one rule applied to every
 * sensor measuring its quantity in the chosen sites and regions (or every site), present and
 * future — only those whose name holds one of `sensorNameContains`, when it lists words. A locked template's rules may be tightened by a shop, never loosened or removed.
 */
export const ruleTemplateSchema = z.object({
  id: uuidSchema,
  name: z.string(),
  condition: ruleConditionSchema,
  delaySeconds: z.number().int(),
  hysteresis: z.number(),
  schedule: ruleScheduleSchema,
  severity: severitySchema,
  preset: rulePresetSchema.nullable(),
  locked: z.boolean(),
  /** The sites and regions it applies to; both empty, every site of the organization. */
  siteIds: z.array(uuidSchema),
  regionIds: z.array(uuidSchema),
  /** The kind of unit it aims at, by the words one of which their name holds (« crèmerie »); none, every sensor. */
  sensorNameContains: z.array(z.string()),
  /** The sites it applies to now, and so holds one rule in each. */
  appliedSiteIds: z.array(uuidSchema),
  createdAt: isoDateTimeSchema,
  updatedAt: isoDateTimeSchema,
});
export type RuleTemplate = z.infer<typeof ruleTemplateSchema>;

const targets = {
  siteIds: z.array(uuidSchema).max(1000, { error: 'Mille sites au plus.' }),
  regionIds: z.array(uuidSchema).max(200, { error: 'Deux cents régions au plus.' }),
};

export const createRuleTemplateRequestSchema = z
  .strictObject({
    name: ruleFields.name,
    condition: ruleFields.condition.optional(),
    preset: ruleFields.preset.optional(),
    delaySeconds: ruleFields.delaySeconds.optional(),
    hysteresis: ruleFields.hysteresis.optional(),
    schedule: ruleFields.schedule.optional(),
    severity: ruleFields.severity.optional(),
    locked: z.boolean({ error: 'locked doit valoir true ou false.' }).optional(),
    siteIds: targets.siteIds.optional(),
    regionIds: targets.regionIds.optional(),
    sensorNameContains: sensorNameWordsSchema.optional(),
  })
  .refine((body) => body.condition !== undefined || body.preset !== undefined, {
    error: 'Indiquez une condition ou un préréglage (preset).',
  })
  .refine((body) => body.condition?.type !== 'offline', {
    error: 'Un modèle vise une grandeur mesurée (température, humidité…) : « offline » se règle par capteur ou par site.',
  });
export type CreateRuleTemplateRequest = z.infer<typeof createRuleTemplateRequestSchema>;

export const updateRuleTemplateRequestSchema = z
  .strictObject({
    name: ruleFields.name.optional(),
    condition: ruleFields.condition.optional(),
    delaySeconds: ruleFields.delaySeconds.optional(),
    hysteresis: ruleFields.hysteresis.optional(),
    schedule: ruleFields.schedule.optional(),
    severity: ruleFields.severity.optional(),
    locked: z.boolean({ error: 'locked doit valoir true ou false.' }).optional(),
    siteIds: targets.siteIds.optional(),
    regionIds: targets.regionIds.optional(),
    sensorNameContains: sensorNameWordsSchema.optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), { error: 'Indiquez au moins un champ à modifier.' })
  .refine((body) => body.condition?.type !== 'offline', {
    error: 'Un modèle vise une grandeur mesurée (température, humidité…) : « offline » se règle par capteur ou par site.',
  });
export type UpdateRuleTemplateRequest = z.infer<typeof updateRuleTemplateRequestSchema>;

export const ruleTemplateListResponseSchema = z.object({ templates: z.array(ruleTemplateSchema) });
export const ruleTemplateResponseSchema = z.object({ template: ruleTemplateSchema });
