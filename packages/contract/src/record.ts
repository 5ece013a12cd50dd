import { z } from 'zod';
import { isoDateTimeSchema, uuidSchema } from './common.ts';
import { hasOverloadedCharacter, OVERLOADED_CHARACTER_MESSAGE } from './text.ts';
import { ACTION_KINDS, CHECK_KINDS, QUANTITY_UNITS } from './values/record.ts';

export * from './values/record.ts';

/**
 * The HACCP record beyond the sensors (docs/api.md, Actions guidées et contrôles manuels): what was
 * done about an excursion and what became of the products, and the temperatures taken by hand —
 * a product probed, a delivery at reception, a unit whose sensor was down. Never mixed with the
 * sensors' readings.
 */

const shortText = (what: string, max: number) =>
  z
    .string({ error: `${what} doit être une chaîne de caractères.` })
    .trim()
    .min(1, { error: `${what} est obligatoire.` })
    .max(max, { error: `${what} compte ${max} caractères au plus.` })
    .refine((value) => !hasOverloadedCharacter(value), { error: OVERLOADED_CHARACTER_MESSAGE });

export const quantitySchema = z.strictObject(
  {
    value: z
      .number({ error: 'La quantité doit être un nombre.' })
      .positive({ error: 'La quantité doit être positive.' })
      .max(1_000_000, { error: 'La quantité est hors des valeurs possibles.' }),
    unit: z.enum(QUANTITY_UNITS, { error: 'Unité inconnue : kg, pièces, colis ou L.' }),
  },
  { error: 'La quantité est attendue sous la forme {value, unit}.' },
);
export type Quantity = z.infer<typeof quantitySchema>;

export const productFateSchema = z.strictObject(
  {
    outcome: z.enum(['kept', 'downgraded', 'destroyed'], { error: 'Devenir inconnu : kept, downgraded ou destroyed.' }),
    product: shortText('Le produit', 120),
    quantity: quantitySchema,
  },
  { error: 'Le devenir des produits est attendu sous la forme {outcome, product, quantity}.' },
);
export type ProductFate = z.infer<typeof productFateSchema>;

/** A corrective action's guided part, kept beside its text. */
export const actionDetailsSchema = z.object({
  kind: z.enum(ACTION_KINDS),
  fate: productFateSchema.nullable(),
});
export type ActionDetails = z.infer<typeof actionDetailsSchema>;

const temperatureSchema = z
  .number({ error: 'La température doit être un nombre (°C).' })
  .min(-80, { error: 'La température doit être comprise entre −80 et +120 °C.' })
  .max(120, { error: 'La température doit être comprise entre −80 et +120 °C.' });

export const createCheckRequestSchema = z
  .strictObject({
    siteId: uuidSchema,
    kind: z.enum(CHECK_KINDS, { error: 'Type de contrôle inconnu : product, delivery ou unit.' }),
    /** The unit the check was taken at (required for `unit`). */
    sensorId: uuidSchema.optional(),
    product: shortText('Le produit', 120).optional(),
    supplier: shortText('Le fournisseur', 120).optional(),
    temperature: temperatureSchema,
    /** A delivery: accepted or refused (required for `delivery`). */
    accepted: z.boolean({ error: 'accepted doit valoir true ou false.' }).optional(),
    /** A delivery: the quantity received (or refused). */
    quantity: quantitySchema.optional(),
    note: shortText('La remarque', 1000).optional(),
    /** When it was taken; now by default. */
    takenAt: isoDateTimeSchema.optional(),
  })
  .refine((body) => body.kind !== 'unit' || body.sensorId !== undefined, {
    error: 'Un relevé manuel de meuble nomme son capteur (sensorId).',
  })
  .refine((body) => body.kind === 'unit' || body.product !== undefined, { error: 'Indiquez le produit contrôlé.' })
  .refine((body) => body.kind !== 'delivery' || (body.supplier !== undefined && body.accepted !== undefined), {
    error: 'Une livraison nomme son fournisseur (supplier) et dit si elle est acceptée (accepted).',
  });
export type CreateCheckRequest = z.infer<typeof createCheckRequestSchema>;

export const checkSchema = z.object({
  id: uuidSchema,
  siteId: uuidSchema,
  sensorId: uuidSchema.nullable(),
  kind: z.enum(CHECK_KINDS),
  product: z.string().nullable(),
  supplier: z.string().nullable(),
  temperature: z.number(),
  accepted: z.boolean().nullable(),
  quantity: quantitySchema.nullable(),
  note: z.string().nullable(),
  takenAt: isoDateTimeSchema,
  takenBy: z.object({ id: uuidSchema.nullable(), name: z.string() }),
  createdAt: isoDateTimeSchema,
});
export type Check = z.infer<typeof checkSchema>;

export const checkListQuerySchema = z.strictObject({
  siteId: uuidSchema.optional(),
  sensorId: uuidSchema.optional(),
  from: isoDateTimeSchema.optional(),
  to: isoDateTimeSchema.optional(),
});
export type CheckListQuery = z.infer<typeof checkListQuerySchema>;

export const checkListResponseSchema = z.object({ checks: z.array(checkSchema) });
export const checkResponseSchema = z.object({ check: checkSchema });
