import { z } from 'zod';
import { uuidSchema } from './common.ts';

export const PASSWORD_MIN_LENGTH = 8;
/** Generous bound: long passphrases are welcome, megabyte payloads are not. */
export const PASSWORD_MAX_LENGTH = 1024;
export const EMAIL_MAX_LENGTH = 254;

/** The same rule as the login form: no whitespace, exactly one @, a dot in the domain. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

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

/** PRODUCT §9: admin (everything, members included), manager (devices, sites, rules, alerts, reports), viewer (reads, acknowledges). */
export const ROLES = ['admin', 'manager', 'viewer'] as const;
export const roleSchema = z.enum(ROLES, { error: 'Le rôle doit être « admin », « manager » ou « viewer ».' });
export type Role = z.infer<typeof roleSchema>;

export const userSchema = z.object({
  id: uuidSchema,
  name: z.string().nullable(),
  email: z.string(),
  role: roleSchema,
  organization: organizationSchema,
});
export type User = z.infer<typeof userSchema>;

export const currentUserResponseSchema = z.object({ user: userSchema });
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

/** « Mot de passe oublié ? »: the answer is the same whether an account uses the address or not. */
export const PASSWORD_RESET_REQUESTED =
  'Si un compte existe pour cette adresse, un e-mail vient de lui être envoyé avec un lien valable 1 heure.';

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
