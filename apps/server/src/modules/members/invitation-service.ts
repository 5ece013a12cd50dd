import type { SendSecretEmail } from '../notifications/notification-service.ts';
import { hashLinkSecret, newLinkSecret } from '../auth/link-secret.ts';
import type { Invitation, InvitationPreviewResponse, Role, MemberScope } from '@vigie/contract';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimits } from '../rate-limits/rate-limits.ts';
import { isUniqueViolation } from '../../db/connection-errors.ts';
import type { Database } from '../../db/database.ts';
import { AppError, conflict, notFound } from '../../errors.ts';
import { hashPassword } from '../auth/password.ts';
import { type CreateMember, createInvitationDal, type InvitationRecord } from './invitation-dal.ts';
import { invitationEmail } from './invitation-message.ts';

/** How long an invitation link works. */
export const INVITATION_TTL_HOURS = 7 * 24;

export const INVITATION_MESSAGES = {
  notFound: 'Cette invitation n’existe pas dans votre organisation.',
  unusable: 'Cette invitation n’existe pas ou a déjà servi.',
  expired: 'Cette invitation a expiré : demandez-en une nouvelle à votre administrateur.',
  accountExists: (email: string) => `Un compte existe déjà avec l'adresse ${email}.`,
  tooManyAttempts: (seconds: number) => `Trop de tentatives avec des liens d’invitation. Réessayez dans ${Math.ceil(seconds / 60)} min.`,
} as const;

const toInvitation = (row: InvitationRecord): Invitation => ({
  id: row.id,
  email: row.email,
  role: row.role,
  scope: row.scope ?? null,
  expiresAt: row.expiresAt.toISOString(),
});

export interface Inviter {
  id: string;
  name: string | null;
  email: string;
  organization: { id: string; name: string };
}

/**
 * Invitations to join an organization (docs/api.md, Membres et invitations): a link e-mailed through the outbox, whose
 * secret is kept only as a hash, that works once and for a limited time.
 */
export function createInvitationService(deps: {
  /** Refuses a scope naming a site or region that is not the organization's (400). */
  validateScope: (organizationId: string, scope: MemberScope | null) => Promise<void>;
  /** A scope as the e-mail names it: « toute l’organisation », or the shops and regions by name. */
  describeScope?: (organizationId: string, scope: MemberScope | null) => Promise<string>;
  db: Database;
  rateLimits: Pick<RateLimits, 'create'>;
  now: () => Date;
  publicUrl: string;
  ttlHours?: number;
  /** Attempts with a link per address and window, as for logins. */
  limits: { maxPerIp: number; windowSeconds: number };
  hasAccount(email: string): Promise<boolean>;
  /** Creates the member's account in the acceptance's transaction (the auth module keeps the accounts). */
  createMember: CreateMember;
  /** The name of an organization, shown on its invitations' page. */
  organizationName(organizationId: string): Promise<string>;
  /** Queues an e-mail in the notification outbox and starts its delivery; false when e-mail is off. */
  sendEmail: SendSecretEmail;
  /** Opens a session for a new member, as a login does; its access token. */
  signIn(userId: string, ip: string): Promise<string>;
}) {
  const dal = createInvitationDal(deps.db);
  const ttlMs = (deps.ttlHours ?? INVITATION_TTL_HOURS) * 3600_000;
  const limiter = deps.rateLimits.create({ keyPrefix: 'invitation-ip', points: deps.limits.maxPerIp, duration: deps.limits.windowSeconds });

  /** An attempt with a link from this address is counted before the link is looked at. */
  async function takeAttempt(ip: string): Promise<void> {
    try {
      await limiter.consume(ip);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
      throw new AppError(429, INVITATION_MESSAGES.tooManyAttempts(seconds), { 'retry-after': String(seconds) });
    }
  }

  /** The invitation of a link while it can still be accepted; 404 or 410 otherwise. */
  async function usable(token: string) {
    const row = await dal.findByTokenHash(hashLinkSecret(token));
    if (!row || row.acceptedAt || row.revokedAt) throw notFound(INVITATION_MESSAGES.unusable);
    if (row.expiresAt.getTime() <= deps.now().getTime()) throw new AppError(410, INVITATION_MESSAGES.expired);
    return row;
  }

  /** E-mails the link; without e-mail on this server, gives it back to the admin to hand over. */
  async function send(row: InvitationRecord, token: string, inviter: Inviter): Promise<{ emailSent: boolean; link?: string }> {
    const link = `${deps.publicUrl}/invitation#${token}`;
    const emailSent = await sendLink(row, link, inviter);
    return emailSent ? { emailSent } : { emailSent, link };
  }

  async function sendLink(row: InvitationRecord, link: string, inviter: Inviter): Promise<boolean> {
    const message = invitationEmail({
      organizationName: inviter.organization.name,
      inviterName: inviter.name ?? inviter.email,
      role: row.role,
      access: deps.describeScope ? await deps.describeScope(row.organizationId, row.scope ?? null) : null,
      link,
      expiresAt: row.expiresAt,
    });
    return deps.sendEmail({
      organizationId: row.organizationId,
      to: row.email,
      ...message,
      idempotencyKey: `invitation:${row.id}:${row.tokenHash.slice(0, 16)}`,
      // The link is the credential: the outbox forgets it once the e-mail has left.
      secret: true,
    });
  }

  return {
    async listPending(organizationId: string): Promise<Invitation[]> {
      return (await dal.listPending(organizationId)).map(toInvitation);
    },

    async create(
      inviter: Inviter,
      input: { email: string; role: Role; scope?: MemberScope | null | undefined },
    ): Promise<{ invitation: Invitation; emailSent: boolean; link?: string }> {
      if (await deps.hasAccount(input.email)) throw conflict(INVITATION_MESSAGES.accountExists(input.email));
      await deps.validateScope(inviter.organization.id, input.scope ?? null);
      const insert = () => {
        const createdAt = deps.now();
        const { token, tokenHash } = newLinkSecret();
        return dal
          .create({
            organizationId: inviter.organization.id,
            email: input.email,
            role: input.role,
            scope: input.scope ?? null,
            tokenHash,
            invitedBy: inviter.id,
            createdAt,
            expiresAt: new Date(createdAt.getTime() + ttlMs),
          })
          .then((row) => ({ row, token }));
      };
      // Two invitations of the same address at once: the second one replaces the first.
      const { row, token } = await insert().catch((error: unknown) => {
        if (isUniqueViolation(error)) return insert();
        throw error;
      });
      return { invitation: toInvitation(row), ...(await send(row, token, inviter)) };
    },

    async resend(inviter: Inviter, id: string): Promise<{ invitation: Invitation; emailSent: boolean; link?: string }> {
      const createdAt = deps.now();
      const { token, tokenHash } = newLinkSecret();
      const row = await dal.renew(inviter.organization.id, id, {
        tokenHash,
        invitedBy: inviter.id,
        createdAt,
        expiresAt: new Date(createdAt.getTime() + ttlMs),
      });
      if (!row) throw notFound(INVITATION_MESSAGES.notFound);
      return { invitation: toInvitation(row), ...(await send(row, token, inviter)) };
    },

    async revoke(organizationId: string, id: string): Promise<void> {
      if (!(await dal.revoke(organizationId, id, deps.now()))) throw notFound(INVITATION_MESSAGES.notFound);
    },

    /** What the acceptance page shows (public: the link's secret is the credential). */
    async preview(token: string, ip: string): Promise<InvitationPreviewResponse['invitation']> {
      await takeAttempt(ip);
      const row = await usable(token);
      await limiter.reward(ip, 1);
      return {
        email: row.email,
        role: row.role,
        organization: { name: await deps.organizationName(row.organizationId) },
        expiresAt: row.expiresAt.toISOString(),
      };
    },

    /** Creates the member and signs them in; the link works once, even when sent twice at once. */
    async accept(input: { token: string; name: string; password: string }, ip: string): Promise<string> {
      await takeAttempt(ip);
      const row = await usable(input.token);
      if (await deps.hasAccount(row.email)) throw conflict(INVITATION_MESSAGES.accountExists(row.email));
      const passwordHash = await hashPassword(input.password);
      let accepted: { userId: string } | undefined;
      try {
        accepted = await dal.accept(row.tokenHash, deps.now(), { name: input.name, passwordHash }, deps.createMember);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(INVITATION_MESSAGES.accountExists(row.email));
        throw error;
      }
      // Used, revoked or expired while the password was being hashed: the same answers as before.
      if (!accepted) {
        await usable(input.token);
        throw notFound(INVITATION_MESSAGES.unusable);
      }
      await limiter.reward(ip, 1);
      return deps.signIn(accepted.userId, ip);
    },
  };
}

export type InvitationService = ReturnType<typeof createInvitationService>;
