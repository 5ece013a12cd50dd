import { z } from 'zod';
import { byteLength, characterCount, hasOverloadedCharacter, OVERLOADED_CHARACTER_MESSAGE } from './text.ts';

/** Every error answer of the API: one French sentence a person can act on. */
export const errorResponseSchema = z.object({ message: z.string() });
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

export const uuidSchema = z.uuid({ error: 'Identifiant invalide : un UUID est attendu.' });

export const idParamsSchema = z.strictObject({ id: uuidSchema });
export type IdParams = z.infer<typeof idParamsSchema>;

/** ISO 8601 timestamp as sent over the wire. */
export const isoDateTimeSchema = z.iso.datetime({ offset: true });

export const NAME_MAX_LENGTH = 100;
/** 100 characters of any script fit, and 100 flags (8 bytes each); 100 family emoji (25 bytes each) do not. */
export const NAME_MAX_BYTES = 1000;

const NAME_BYTES_MESSAGE = `Le nom est trop long une fois encodé : 1\u00a0000 octets au plus (un caractère accentué ou un emoji en compte plusieurs).`;

export { byteLength, characterCount, hasOverloadedCharacter, OVERLOADED_CHARACTER_MESSAGE, tameText } from './text.ts';

/**
 * A device, site, rule or organization name: trimmed, 1 to 100 characters as a person counts them,
 * at most 1 000 bytes in UTF-8, and no character stacking more marks than writing needs.
 */
export const nameSchema = z
  .string({ error: 'Le nom doit être une chaîne de caractères.' })
  .trim()
  .min(1, { error: 'Le nom est obligatoire.' })
  // Checked on code units first, so a huge value is refused before it is segmented.
  .max(NAME_MAX_BYTES, { error: NAME_BYTES_MESSAGE, abort: true })
  .refine((value) => characterCount(value) <= NAME_MAX_LENGTH, {
    error: `Le nom ne doit pas dépasser ${NAME_MAX_LENGTH} caractères.`,
    abort: true,
  })
  .refine((value) => !hasOverloadedCharacter(value), { error: OVERLOADED_CHARACTER_MESSAGE, abort: true })
  .refine((value) => byteLength(value) <= NAME_MAX_BYTES, { error: NAME_BYTES_MESSAGE });
