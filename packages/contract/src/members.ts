import { z } from 'zod';
import { newEmailSchema, newPasswordSchema, roleSchema } from './auth.ts';
import { isoDateTimeSchema, nameSchema, uuidSchema } from './common.ts';
import { scopeFieldSchema } from './regions.ts';

/** docs/api.md, Membres et invitations: a member of the organization. */
export const memberSchema = z.object({
  id: uuidSchema,
  name: z.string().nullable(),
  email: z.string(),
  role: roleSchema,
  /** The sites and regions the member sees; null, the whole organization. */
  scope: scopeFieldSchema,
});
export type Member = z.infer<typeof memberSchema>;

export const membersResponseSchema = z.object({ members: z.array(memberSchema) });
export type MembersResponse = z.infer<typeof membersResponseSchema>;

export const memberResponseSchema = z.object({ member: memberSchema });
export type MemberResponse = z.infer<typeof memberResponseSchema>;

export const updateMemberRequestSchema = z
  .strictObject({ role: roleSchema.optional(), scope: scopeFieldSchema.optional() })
  .refine((body) => body.role !== undefined || body.scope !== undefined, { error: 'Indiquez le rôle ou la portée à modifier.' });
export type UpdateMemberRequest = z.infer<typeof updateMemberRequestSchema>;

/** A pending invitation: the link it sent works once, until `expiresAt`. */
export const invitationSchema = z.object({
  id: uuidSchema,
  email: z.string(),
  role: roleSchema,
  scope: scopeFieldSchema,
  expiresAt: isoDateTimeSchema,
});
export type Invitation = z.infer<typeof invitationSchema>;

/**
 * `emailSent` false: e-mail is off on this server (no SMTP_URL), the link was not sent; `link` is
 * then given to the admin who invited, once, to hand over (it is stored nowhere).
 */
export const invitationResponseSchema = z.object({
  invitation: invitationSchema,
  emailSent: z.boolean().optional(),
  link: z.string().optional(),
});
export type InvitationResponse = z.infer<typeof invitationResponseSchema>;

export const invitationsResponseSchema = z.object({ invitations: z.array(invitationSchema) });
export type InvitationsResponse = z.infer<typeof invitationsResponseSchema>;

export const createInvitationRequestSchema = z.strictObject({
  email: newEmailSchema,
  role: roleSchema,
  scope: scopeFieldSchema.optional(),
});
export type CreateInvitationRequest = z.infer<typeof createInvitationRequestSchema>;

/** The secret of an invitation link (`/invitation#<token>`): base64url, never a query parameter. */
export const invitationTokenSchema = z
  .string({ error: 'Le lien d’invitation est invalide.' })
  .regex(/^[A-Za-z0-9_-]{20,200}$/, { error: 'Le lien d’invitation est invalide.' });

/** What the acceptance page shows before the person chooses a name and a password. */
export const previewInvitationRequestSchema = z.strictObject({ token: invitationTokenSchema });
export const invitationPreviewResponseSchema = z.object({
  invitation: z.object({ email: z.string(), role: roleSchema, organization: z.object({ name: z.string() }), expiresAt: isoDateTimeSchema }),
});
export type InvitationPreviewResponse = z.infer<typeof invitationPreviewResponseSchema>;

export const acceptInvitationRequestSchema = z.strictObject({
  token: invitationTokenSchema,
  name: nameSchema,
  password: newPasswordSchema,
});
export type AcceptInvitationRequest = z.infer<typeof acceptInvitationRequestSchema>;
