import { z } from 'zod';
import { characterCount } from './text.ts';

/** Every error answer of the API: one French sentence a person can act on. */
export const errorResponseSchema = z.object({ message: z.string() });
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

export const uuidSchema = z.uuid({ error: 'Identifiant invalide : un UUID est attendu.' });

export const idParamsSchema = z.strictObject({ id: uuidSchema });
export type IdParams = z.infer<typeof idParamsSchema>;

/** ISO 8601 timestamp as sent over the wire. */
export const isoDateTimeSchema = z.iso.datetime({ offset: true });

export const NAME_MAX_LENGTH = 100;

export { characterCount } from './text.ts';

/** A device or organization name: trimmed, 1 to 100 characters, kept as typed otherwise. */
export const nameSchema = z
  .string({ error: 'Le nom doit être une chaîne de caractères.' })
  .trim()
  .min(1, { error: 'Le nom est obligatoire.' })
  .refine((value) => characterCount(value) <= NAME_MAX_LENGTH, {
    error: `Le nom ne doit pas dépasser ${NAME_MAX_LENGTH} caractères.`,
  });
