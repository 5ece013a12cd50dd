import { z } from 'zod';
import { uuidSchema } from './common.ts';
import { scopeFieldSchema } from './regions.ts';
import { PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH, EMAIL_MAX_LENGTH, EMAIL_PATTERN, ROLES } from './values/auth.ts';

export * from './values/auth.ts';

export const loginRequestSchema = z.strictObject({
  email: z
    .string({ error: "L'adresse e-mail doit être une chaîne de caractères." })
    .min(1, { error: "L'adresse e-mail est obligatoire." })
    .max(EMAIL_MAX_LENGTH, { error: `L'adresse e-mail ne doit pas dépasser ${EMAIL_MAX_LENGTH} caractères.` }),
  password: z
    .string({ error: 'Le mot de passe doit être une chaîne de caractères.' })
    .min(1, { error: 'Le mot de passe est obligatoire.' })
    .max(PASSWORD_MAX_LENGTH, { error: `Le mot de passe ne doit pas dépasser ${PASSWORD_MAX_LENGTH} caractères.` }),
  /** « Se souvenir de moi »: a long session instead of one that ends when left idle. */
  rememberMe: z.boolean({ error: '« rememberMe » doit valoir true ou false.' }).optional(),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const loginResponseSchema = z.object({ accessToken: z.string() });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const organizationSchema = z.object({ id: uuidSchema, name: z.string() });
export type Organization = z.infer<typeof organizationSchema>;

export const roleSchema = z.enum(ROLES, { error: 'Le rôle doit être « admin », « manager » ou « viewer ».' });

export const userSchema = z.object({
  id: uuidSchema,
  name: z.string().nullable(),
  email: z.string(),
  role: roleSchema,
  organization: organizationSchema,
  /** The sites and regions the person sees (docs/api.md, Régions et portées); null or absent, the whole organization. */
  scope: scopeFieldSchema.optional(),
  /** Two-factor authentication (TOTP) is on for this account. */
  totpEnabled: z.boolean().optional(),
  /** The organization requires it of admins and this admin has not turned it on: only « Mon compte » works until then. */
  totpSetupRequired: z.boolean().optional(),
  /** An operator's account (docs/api.md, Opérateur): no client organization, only the operator's routes. */
  operator: z.boolean().optional(),
});
export type User = z.infer<typeof userSchema>;

/** The signed-in person: an operator has no organization (`organization: null`, `operator: true`). */
export const currentUserResponseSchema = z.object({
  user: userSchema.extend({ organization: organizationSchema.nullable(), operator: z.boolean() }),
});
export type CurrentUserResponse = z.infer<typeof currentUserResponseSchema>;

/** Rules for a new account's password: length only, any Unicode, no composition rules. */
export const newPasswordSchema = z
  .string()
  .refine((value) => Array.from(value).length >= PASSWORD_MIN_LENGTH, {
    error: `Le mot de passe doit contenir au moins ${PASSWORD_MIN_LENGTH} caractères.`,
  })
  .refine((value) => value.length <= PASSWORD_MAX_LENGTH, {
    error: `Le mot de passe ne doit pas dépasser ${PASSWORD_MAX_LENGTH} caractères.`,
  });

export const newEmailSchema = z
  .string()
  .trim()
  .max(EMAIL_MAX_LENGTH, { error: `L'adresse e-mail ne doit pas dépasser ${EMAIL_MAX_LENGTH} caractères.` })
  .regex(EMAIL_PATTERN, { error: "L'adresse e-mail n'est pas valide." });

/** « Mon compte »: a new password, given the current one; every other session ends. */
export const changePasswordRequestSchema = z.strictObject({
  currentPassword: z
    .string({ error: 'Le mot de passe actuel doit être une chaîne de caractères.' })
    .min(1, { error: 'Le mot de passe actuel est obligatoire.' })
    .max(PASSWORD_MAX_LENGTH, { error: `Le mot de passe ne doit pas dépasser ${PASSWORD_MAX_LENGTH} caractères.` }),
  newPassword: z.string({ error: 'Le nouveau mot de passe doit être une chaîne de caractères.' }).pipe(newPasswordSchema),
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

export const passwordResetRequestSchema = z.strictObject({
  email: z.string({ error: "L'adresse e-mail doit être une chaîne de caractères." }).pipe(newEmailSchema),
});
export type PasswordResetRequest = z.infer<typeof passwordResetRequestSchema>;

export const passwordResetRequestedResponseSchema = z.object({ message: z.string() });
export type PasswordResetRequestedResponse = z.infer<typeof passwordResetRequestedResponseSchema>;

/** The secret of a reset link (`/reinitialiser-mot-de-passe#<token>`): base64url, never a query parameter. */
export const passwordResetTokenSchema = z
  .string({ error: 'Le lien de réinitialisation est invalide.' })
  .regex(/^[A-Za-z0-9_-]{20,200}$/, { error: 'Le lien de réinitialisation est invalide.' });

export const passwordResetConfirmRequestSchema = z.strictObject({
  token: passwordResetTokenSchema,
  password: z.string({ error: 'Le mot de passe doit être une chaîne de caractères.' }).pipe(newPasswordSchema),
});
export type PasswordResetConfirmRequest = z.infer<typeof passwordResetConfirmRequestSchema>;

/** With two-factor authentication on, the password step answers this instead of a token. */
export const loginChallengeResponseSchema = z.object({ totpRequired: z.literal(true), challenge: z.string() });
export type LoginChallengeResponse = z.infer<typeof loginChallengeResponseSchema>;

/** A code of the authenticator app (6 digits) or a recovery code (`xxxx-xxxx`). */
export const totpCodeSchema = z
  .string({ error: 'Le code doit être une chaîne de caractères.' })
  .trim()
  .min(1, { error: 'Le code est obligatoire.' })
  .max(20, { error: 'Ce code n’a pas le bon format : 6 chiffres, ou un code de secours.' })
  .transform((value) => value.replace(/\s/g, '').toLowerCase())
  .refine((value) => /^\d{6}$/.test(value) || /^[a-z0-9]{4}-?[a-z0-9]{4}$/.test(value), {
    error: 'Ce code n’a pas le bon format : 6 chiffres, ou un code de secours.',
  });

/** The second step of a sign-in with two-factor authentication. */
export const totpLoginRequestSchema = z.strictObject({
  challenge: z.string({ error: 'La connexion a expiré : saisissez de nouveau votre mot de passe.' }).min(1).max(2000),
  code: totpCodeSchema,
});

/** A new secret to show as a QR code; it applies once a code from it is confirmed. */
export const totpSetupResponseSchema = z.object({ secret: z.string(), uri: z.string() });
export type TotpSetupResponse = z.infer<typeof totpSetupResponseSchema>;

export const totpEnableRequestSchema = z.strictObject({ code: totpCodeSchema });
/** Shown once: each recovery code replaces the app once. */
export const totpEnableResponseSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type TotpEnableResponse = z.infer<typeof totpEnableResponseSchema>;

export const totpDisableRequestSchema = z.strictObject({
  password: z
    .string({ error: 'Le mot de passe doit être une chaîne de caractères.' })
    .min(1, { error: 'Le mot de passe est obligatoire.' })
    .max(PASSWORD_MAX_LENGTH, { error: `Le mot de passe ne doit pas dépasser ${PASSWORD_MAX_LENGTH} caractères.` }),
});

/** New recovery codes replace all the old ones, given the password (as turning it off). */
export const totpRecoveryCodesRequestSchema = totpDisableRequestSchema;

/** An admin resets a member's two-factor authentication, given the admin's own password. */
export const memberTwoFactorResetRequestSchema = totpDisableRequestSchema;

/** How many recovery codes of the account are still unused. */
export const totpRecoveryCodesStatusSchema = z.object({ remaining: z.number().int() });
export type TotpRecoveryCodesStatus = z.infer<typeof totpRecoveryCodesStatusSchema>;

/** What an admin decides for the whole organization's accounts. */
export const securityPolicySchema = z.strictObject({
  requireTotpForAdmins: z.boolean({ error: 'requireTotpForAdmins doit valoir true ou false.' }),
});
export type SecurityPolicy = z.infer<typeof securityPolicySchema>;
export const securityPolicyResponseSchema = z.object({ policy: z.object({ requireTotpForAdmins: z.boolean() }) });
