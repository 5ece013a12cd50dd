import { z } from 'zod';

const emailSchema = z
  .string({ error: 'Une adresse e-mail est attendue.' })
  .trim()
  .max(254, { error: 'Adresse e-mail trop longue.' })
  .pipe(z.email({ error: 'Adresse e-mail invalide.' }));

/** One step of escalation: who is told, how long after the alert opened without acknowledgement. */
export const escalationStepSchema = z.strictObject({
  afterMinutes: z
    .number({ error: 'Le délai d’escalade doit être un nombre de minutes.' })
    .int({ error: 'Le délai d’escalade doit être un nombre entier de minutes.' })
    .min(0, { error: 'Le délai d’escalade ne peut pas être négatif.' })
    .max(7 * 24 * 60, { error: 'Le délai d’escalade ne doit pas dépasser 7 jours.' }),
  /** Addresses to tell; null: the organization's team (its admins and managers). */
  emails: z.array(emailSchema).min(1, { error: 'Indiquez au moins une adresse, ou null pour l’équipe.' }).max(20).nullable(),
});
export type EscalationStep = z.infer<typeof escalationStepSchema>;

const minutes = (what: string) =>
  z
    .number({ error: `${what} doit être un nombre de minutes.` })
    .int({ error: `${what} doit être un nombre entier de minutes.` })
    .min(5, { error: `${what} doit être d’au moins 5 minutes.` })
    .max(7 * 24 * 60, { error: `${what} ne doit pas dépasser 7 jours.` });

/** Who is told of an alert, and how Vigie insists until someone answers. */
export const notificationPolicySchema = z.object({
  /** In order of `afterMinutes`; the first step (0 min) is told when the alert opens. */
  steps: z.array(escalationStepSchema),
  /** While nobody acknowledges, the first step is told again this often (null: never). */
  repeatMinutes: z.number().int().nullable(),
  /** An acknowledged alert still active this long after its acknowledgement is notified again. */
  reacknowledgeMinutes: z.number().int(),
  /** An HTTPS endpoint told of every notification, signed with `webhookSecret` (HMAC-SHA256). */
  webhookUrl: z.string().nullable(),
  /** Null without a webhook, and for a role that may not change the policy (it could forge notifications). */
  webhookSecret: z.string().nullable(),
  /** False when the server has no SMTP_URL: e-mail is off. */
  emailEnabled: z.boolean(),
});
export type NotificationPolicy = z.infer<typeof notificationPolicySchema>;

export const updateNotificationPolicyRequestSchema = z
  .strictObject({
    steps: z
      .array(escalationStepSchema)
      .min(1, { error: 'Indiquez au moins une étape de notification.' })
      .max(5, { error: 'Cinq étapes d’escalade au plus.' })
      .refine((steps) => steps.every((step, i) => i === 0 || step.afterMinutes > (steps[i - 1]?.afterMinutes ?? -1)), {
        error: 'Les étapes d’escalade doivent être dans l’ordre de leurs délais, sans doublon.',
      })
      .optional(),
    repeatMinutes: minutes('L’intervalle de rappel').nullable().optional(),
    reacknowledgeMinutes: minutes('Le délai de relance après acquittement').optional(),
    webhookUrl: z
      .url({ protocol: /^https?$/, error: 'Une adresse http(s):// est attendue pour le webhook.' })
      .max(2000, { error: 'Adresse du webhook trop longue.' })
      .nullable()
      .optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), { error: 'Indiquez au moins un champ à modifier.' });
export type UpdateNotificationPolicyRequest = z.infer<typeof updateNotificationPolicyRequestSchema>;

export const notificationPolicyResponseSchema = z.object({ policy: notificationPolicySchema });
