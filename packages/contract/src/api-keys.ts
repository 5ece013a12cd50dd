import { z } from 'zod';
import { isoDateTimeSchema, nameSchema, uuidSchema } from './common.ts';
import { scopeFieldSchema } from './regions.ts';
import { READING_KEY_PATTERN } from './telemetry.ts';

/**
 * docs/api.md, Clés d’API: a key for a program (a building management system, a spreadsheet that
 * fetches its readings) acts with its role and scope on what that role may call, except the team,
 * the keys and the security settings. Never an administrator.
 */
export const API_KEY_ROLES = ['viewer', 'manager'] as const;
export type ApiKeyRole = (typeof API_KEY_ROLES)[number];

export const apiKeyRoleSchema = z.enum(API_KEY_ROLES, {
  error: 'Le rôle d’une clé d’API doit être « viewer » ou « manager » : une clé ne peut pas être administrateur.',
});

/** A key as listed: its secret is never shown again, only its `prefix` to recognise it. */
export const apiKeySchema = z.object({
  id: uuidSchema,
  name: z.string(),
  role: apiKeyRoleSchema,
  /** The sites and regions the key sees; null, the whole organization. */
  scope: scopeFieldSchema,
  /** The first characters of the key (`vk_` and 8 more), to tell keys apart. */
  prefix: z.string(),
  createdAt: isoDateTimeSchema,
  /** Null: the key does not expire (it works until revoked). */
  expiresAt: isoDateTimeSchema.nullable(),
  /** The last request made with it, to the minute; null, never used. */
  lastUsedAt: isoDateTimeSchema.nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeysResponseSchema = z.object({ apiKeys: z.array(apiKeySchema) });
export type ApiKeysResponse = z.infer<typeof apiKeysResponseSchema>;

/** The new key, with its secret `key` (`Authorization: Bearer <key>`), shown this once only. */
export const createdApiKeyResponseSchema = z.object({ apiKey: apiKeySchema.extend({ key: z.string() }) });
export type CreatedApiKeyResponse = z.infer<typeof createdApiKeyResponseSchema>;

export const createApiKeyRequestSchema = z.strictObject({
  name: nameSchema,
  role: apiKeyRoleSchema,
  scope: scopeFieldSchema.optional(),
  expiresAt: z.iso
    .datetime({ offset: true, error: 'L’échéance de la clé doit être une date ISO 8601 (par exemple 2027-01-31T00:00:00Z).' })
    .nullable()
    .optional(),
});
export type CreateApiKeyRequest = z.infer<typeof createApiKeyRequestSchema>;

/** The longest period one export of every reading covers (docs/api.md, Export des lectures). */
export const READINGS_EXPORT_MAX_DAYS = 366;

/** The export of every reading (endpoints.readingsExport.csv): a period (both ends required), a site or every site in scope, a measure or all. */
export const allReadingsCsvQuerySchema = z.strictObject({
  from: z.iso.datetime({ offset: true, error: 'Le début de période (from) est obligatoire : une date ISO 8601 est attendue.' }),
  to: z.iso.datetime({ offset: true, error: 'La fin de période (to) est obligatoire : une date ISO 8601 est attendue.' }),
  siteId: uuidSchema.optional(),
  key: z.string().regex(READING_KEY_PATTERN, { error: 'Mesure inconnue : une clé comme « temperature » est attendue.' }).optional(),
});
export type AllReadingsCsvQuery = z.infer<typeof allReadingsCsvQuerySchema>;
