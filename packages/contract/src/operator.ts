import { z } from 'zod';
import { nameSchema } from './common.ts';
import { newEmailSchema } from './auth.ts';

/** docs/api.md, Opérateur: the life of a client organization as the operator sees it. */
export const ORGANIZATION_STATUSES = ['active', 'suspended', 'erasing'] as const;
export type OrganizationStatus = (typeof ORGANIZATION_STATUSES)[number];

const quotaSchema = z
  .number({ error: 'Un quota est un nombre entier positif, ou null pour aucune limite.' })
  .int({ error: 'Un quota est un nombre entier positif, ou null pour aucune limite.' })
  .min(0, { error: 'Un quota est un nombre entier positif, ou null pour aucune limite.' })
  .max(1_000_000_000, { error: 'Un quota ne dépasse pas un milliard.' })
  .nullable();

/** What an organization may hold; null, no limit. */
export const quotasSchema = z.object({ sensors: quotaSchema, members: quotaSchema, smsPerMonth: quotaSchema });
export type Quotas = z.infer<typeof quotasSchema>;

const planSchema = z
  .string()
  .trim()
  .min(1, { error: 'Le forfait ne peut pas être vide.' })
  .max(100, { error: 'Le forfait tient en 100 caractères.' });

export const operatorOrganizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  status: z.enum(ORGANIZATION_STATUSES),
  /** When an organization being erased is erased (30 days after the request); null otherwise. */
  erasesAt: z.string().nullable(),
  plan: z.string().nullable(),
  quotas: quotasSchema,
  usage: z.object({ sensors: z.number(), members: z.number(), readingsThisMonth: z.number(), smsThisMonth: z.number() }),
});
export type OperatorOrganization = z.infer<typeof operatorOrganizationSchema>;

export const operatorOrganizationsResponseSchema = z.object({ organizations: z.array(operatorOrganizationSchema) });
export const operatorOrganizationResponseSchema = z.object({ organization: operatorOrganizationSchema });

export const createOperatorOrganizationRequestSchema = z.strictObject({
  name: nameSchema,
  adminEmail: newEmailSchema,
  plan: planSchema.nullable().optional(),
  quotas: quotasSchema.partial().optional(),
});
export type CreateOperatorOrganizationRequest = z.infer<typeof createOperatorOrganizationRequestSchema>;

export const updateOperatorOrganizationRequestSchema = z.strictObject({
  status: z.enum(['active', 'suspended'], { error: 'Le statut est « active » ou « suspended ».' }).optional(),
  plan: planSchema.nullable().optional(),
  quotas: quotasSchema.partial().optional(),
});
export type UpdateOperatorOrganizationRequest = z.infer<typeof updateOperatorOrganizationRequestSchema>;

/** An organization whose erasure is asked is erased this many days later, unless reactivated. */
export const OPERATOR_ERASURE_DAYS = 30;
