import type { Member, Role } from '@vigie/contract';
import type { Database } from '../../db/database.ts';
import { conflict, notFound } from '../../errors.ts';
import type { SessionEnded } from '../auth/session-service.ts';
import { createMembersDal, type MemberChange } from './members-dal.ts';

export const MEMBER_MESSAGES = {
  notFound: 'Ce membre n’existe pas dans votre organisation.',
  lastAdmin: 'L’organisation doit garder au moins un administrateur.',
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
    return change.member;
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
      const change = await dal.remove(organizationId, memberId, deps.now());
      const member = settled(change);
      if (change.outcome !== 'done') return;
      await deps.onAccountChanged(organizationId, member.id);
      await Promise.all(change.endedSessions.map((sessionId) => deps.onSessionEnded({ organizationId, userId: member.id, sessionId })));
    },
  };
}

export type MembersService = ReturnType<typeof createMembersService>;
