import type { Member, Role } from '@vigie/contract';
import type { Database } from '../../db/database.ts';
import { conflict, notFound } from '../../errors.ts';
import type { SessionEnded } from '../auth/session-service.ts';
import { createMembersDal, type MemberChange } from './members-dal.ts';

export const MEMBER_MESSAGES = {
  notFound: 'Ce membre n’existe pas dans votre organisation.',
  lastAdmin: 'L’organisation doit garder au moins un administrateur.',
  noTwoFactor: 'Ce membre n’a pas activé la double authentification\u202F: il n’y a rien à réinitialiser.',
  ownTwoFactor: 'Votre propre double authentification se gère dans « Mon compte ».',
} as const;

/**
 * The people of an organization and their roles (PRODUCT §9). The organization always keeps an
 * admin; a removed member is signed out everywhere at once. A new role applies from the next
 * request: the change is announced to every instance's account cache.
 */
export function createMembersService(deps: {
  db: Database;
  now: () => Date;
  onSessionEnded: SessionEnded;
  /** A member's role changed or the member left: every instance reads the account again. */
  onAccountChanged: (organizationId: string, userId: string) => void | Promise<void>;
}) {
  const dal = createMembersDal(deps.db);

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

    async changeRole(organizationId: string, memberId: string, role: Role): Promise<Member> {
      const member = settled(await dal.changeRole(organizationId, memberId, role));
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
    async resetTwoFactor(organizationId: string, memberId: string, adminId: string): Promise<Member> {
      if (memberId === adminId) throw conflict(MEMBER_MESSAGES.ownTwoFactor);
      return applied(organizationId, await dal.resetTwoFactor(organizationId, memberId, deps.now()));
    },
  };
}

export type MembersService = ReturnType<typeof createMembersService>;
