import type { Member, MemberScope, Role } from '@vigie/contract';
import { conflict, notFound } from '../../errors.ts';
import type { SessionEnded } from '../auth/session-service.ts';
import type { MemberChange, UserService } from '../auth/user-service.ts';
import type { OneEmail } from '../notifications/notification-service.ts';
import { twoFactorResetEmail } from './invitation-message.ts';

export const MEMBER_MESSAGES = {
  notFound: 'Ce membre n’existe pas dans votre organisation.',
  lastAdmin: 'L’organisation doit garder au moins un administrateur.',
  noTwoFactor: 'Ce membre n’a pas activé la double authentification\u202F: il n’y a rien à réinitialiser.',
  ownTwoFactor: 'Votre propre double authentification se gère dans « Mon compte ».',
} as const;

/**
 * The people of an organization and their roles (docs/api.md, Membres et invitations). The organization always keeps an
 * admin; a removed member is signed out everywhere at once. A new role applies from the next
 * request: the change is announced to every instance's account cache.
 */
export function createMembersService(deps: {
  /** The members' accounts, kept by the auth module (users, their sessions and recovery codes). */
  accounts: UserService['members'];
  now: () => Date;
  onSessionEnded: SessionEnded;
  /** A member's role changed or the member left: every instance reads the account again. */
  onAccountChanged: (organizationId: string, userId: string) => void | Promise<void>;
  /** The outbox (sent once, even with several instances); false when no SMTP server is set. */
  sendEmail: (message: OneEmail) => Promise<boolean>;
  publicUrl: string;
  /** Refuses a scope naming a site or region that is not the organization's (400). */
  validateScope: (organizationId: string, scope: MemberScope | null) => Promise<void>;
}) {
  const dal = deps.accounts;

  function settled(change: MemberChange): Member {
    if (change.outcome === 'not-found') throw notFound(MEMBER_MESSAGES.notFound);
    if (change.outcome === 'last-admin') throw conflict(MEMBER_MESSAGES.lastAdmin);
    if (change.outcome === 'no-two-factor') throw conflict(MEMBER_MESSAGES.noTwoFactor);
    return change.member;
  }

  /** A change that signs the member out: every instance reads the account again and closes its sessions. */
  async function applied(organizationId: string, change: MemberChange): Promise<Member> {
    const member = settled(change);
    if (change.outcome !== 'done') return member;
    await deps.onAccountChanged(organizationId, member.id);
    await Promise.all(change.endedSessions.map((sessionId) => deps.onSessionEnded({ organizationId, userId: member.id, sessionId })));
    return member;
  }

  return {
    list(organizationId: string): Promise<Member[]> {
      return dal.list(organizationId);
    },

    async get(organizationId: string, memberId: string): Promise<Member> {
      const member = (await dal.list(organizationId)).find((candidate) => candidate.id === memberId);
      if (!member) throw notFound(MEMBER_MESSAGES.notFound);
      return member;
    },

    async change(
      organizationId: string,
      memberId: string,
      change: { role?: Role | undefined; scope?: MemberScope | null | undefined },
    ): Promise<Member> {
      if (change.scope !== undefined) await deps.validateScope(organizationId, change.scope);
      const member = settled(await dal.changeMember(organizationId, memberId, change));
      await deps.onAccountChanged(organizationId, member.id);
      return member;
    },

    async remove(organizationId: string, memberId: string): Promise<void> {
      await applied(organizationId, await dal.remove(organizationId, memberId, deps.now()));
    },

    /**
     * An admin turns off the two-factor authentication of a member who lost their phone and their
     * recovery codes: the member signs in with the password alone (and turns it on again, at once if
     * the organization requires it of admins); their sessions end everywhere. Not for oneself.
     */
    async resetTwoFactor(
      admin: { id: string; name: string | null; email: string; organization: { id: string; name: string } },
      memberId: string,
    ): Promise<{ member: Member; endedSessions: number }> {
      if (memberId === admin.id) throw conflict(MEMBER_MESSAGES.ownTwoFactor);
      const now = deps.now();
      const change = await dal.resetTwoFactor(admin.organization.id, memberId, now);
      const member = await applied(admin.organization.id, change);
      // The member hears of it: expected after a lost phone, or the alarm if they asked nothing.
      await deps.sendEmail({
        organizationId: admin.organization.id,
        to: member.email,
        ...twoFactorResetEmail({
          organizationName: admin.organization.name,
          adminName: admin.name ?? admin.email,
          link: `${deps.publicUrl}/login`,
        }),
        idempotencyKey: `two-factor-reset:${member.id}:${now.getTime()}`,
      });
      return { member, endedSessions: change.outcome === 'done' ? change.endedSessions.length : 0 };
    },
  };
}

export type MembersService = ReturnType<typeof createMembersService>;
