import { z } from 'zod';
import { newEmailSchema, roleSchema } from './auth.ts';
import { ROLES } from './values/auth.ts';

/**
 * docs/api.md, Authentification unique: an organization signs its people in through its own
 * OpenID Connect provider (its identity provider), for the e-mail domains it names.
 */

export const SSO_MAX_DOMAINS = 20;
export const SSO_MAX_GROUP_ROLES = 50;
/** How long the one-time code of a sign-in through single sign-on may be exchanged, in seconds. */
export const SSO_CODE_TTL_SECONDS = 60;

/** An e-mail domain as people type it after the « @ »: letters, digits, hyphens and dots, in lower case. */
const DOMAIN_PATTERN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/;

export const ssoDomainSchema = z
  .string({ error: 'Un domaine doit être une chaîne de caractères.' })
  .trim()
  .toLowerCase()
  .regex(DOMAIN_PATTERN, { error: 'Un domaine doit s’écrire comme « exemple.fr », sans « @ » ni espace.' });

const issuerSchema = z
  .string({ error: 'L’émetteur doit être une chaîne de caractères.' })
  .trim()
  .max(500, { error: 'L’émetteur ne doit pas dépasser 500 caractères.' })
  .pipe(z.url({ protocol: /^https?$/, error: 'L’émetteur doit être une adresse http:// ou https://.' }))
  .transform((issuer) => issuer.replace(/\/+$/, ''));

/** What an admin sets (PUT): without `clientSecret`, the one stored is kept. */
export const ssoSettingsRequestSchema = z.strictObject({
  issuer: issuerSchema,
  clientId: z
    .string({ error: 'L’identifiant du client doit être une chaîne de caractères.' })
    .trim()
    .min(1, { error: 'L’identifiant du client est obligatoire.' })
    .max(200, { error: 'L’identifiant du client ne doit pas dépasser 200 caractères.' }),
  clientSecret: z
    .string({ error: 'Le secret du client doit être une chaîne de caractères.' })
    .min(1, { error: 'Le secret du client ne peut pas être vide : omettez-le pour garder celui enregistré.' })
    .max(500, { error: 'Le secret du client ne doit pas dépasser 500 caractères.' })
    .optional(),
  domains: z
    .array(ssoDomainSchema, { error: 'Les domaines doivent être une liste, comme ["exemple.fr"].' })
    .min(1, { error: 'Indiquez au moins un domaine d’adresse e-mail.' })
    .max(SSO_MAX_DOMAINS, { error: `${SSO_MAX_DOMAINS} domaines au plus.` })
    .refine((domains) => new Set(domains).size === domains.length, { error: 'Un domaine est donné deux fois.' }),
  defaultRole: roleSchema,
  groupRoles: z
    .record(
      z
        .string({ error: 'Un groupe doit être une chaîne de caractères.' })
        .min(1, { error: 'Le nom d’un groupe ne peut pas être vide.' })
        .max(200, { error: 'Le nom d’un groupe ne doit pas dépasser 200 caractères.' }),
      roleSchema,
      { error: 'groupRoles doit associer des noms de groupes à des rôles, comme {"Qualité": "manager"}.' },
    )
    .refine((roles) => Object.keys(roles).length <= SSO_MAX_GROUP_ROLES, { error: `${SSO_MAX_GROUP_ROLES} groupes au plus.` })
    .optional(),
  enforced: z.boolean({ error: 'enforced doit valoir true ou false.' }),
});
export type SsoSettingsRequest = z.input<typeof ssoSettingsRequestSchema>;

/** The settings as read back: never the client secret. */
export const ssoSettingsSchema = z.object({
  issuer: z.string(),
  clientId: z.string(),
  domains: z.array(z.string()),
  defaultRole: z.enum(ROLES),
  groupRoles: z.record(z.string(), z.enum(ROLES)),
  enforced: z.boolean(),
});
export type SsoSettings = z.infer<typeof ssoSettingsSchema>;

export const ssoSettingsResponseSchema = z.object({ sso: ssoSettingsSchema.nullable() });
export type SsoSettingsResponse = z.infer<typeof ssoSettingsResponseSchema>;

/** A page of this site (a path), never another site's address. */
const nextSchema = z
  .string({ error: 'next doit être une chaîne de caractères.' })
  .max(2000, { error: 'next ne doit pas dépasser 2 000 caractères.' })
  .regex(/^\/(?![/\\])[^\s\\]*$/, { error: 'next doit être une page de ce site, comme « /dashboard ».' });

export const ssoStartQuerySchema = z.strictObject({
  email: z.string({ error: 'L’adresse e-mail est obligatoire.' }).pipe(newEmailSchema),
  next: nextSchema.optional(),
});
export type SsoStartQuery = z.infer<typeof ssoStartQuerySchema>;

/** What the provider sends back (it may add its own parameters, such as `iss` or `session_state`). */
export const ssoCallbackQuerySchema = z.looseObject({
  code: z.string().max(4000).optional(),
  state: z.string().max(500).optional(),
  error: z.string().max(500).optional(),
});

export const ssoExchangeRequestSchema = z.strictObject({
  code: z
    .string({ error: 'Le code doit être une chaîne de caractères.' })
    .min(1, { error: 'Le code est obligatoire.' })
    .max(200, { error: 'Le code ne doit pas dépasser 200 caractères.' }),
});
export type SsoExchangeRequest = z.infer<typeof ssoExchangeRequestSchema>;

export const ssoDiscoverRequestSchema = z.strictObject({
  email: z.string({ error: 'L’adresse e-mail doit être une chaîne de caractères.' }).pipe(newEmailSchema),
});
export type SsoDiscoverRequest = z.infer<typeof ssoDiscoverRequestSchema>;

/** `url`: where the browser goes to sign in through the organization's provider. */
export const ssoDiscoverResponseSchema = z.object({ sso: z.object({ url: z.string() }).nullable() });
export type SsoDiscoverResponse = z.infer<typeof ssoDiscoverResponseSchema>;
