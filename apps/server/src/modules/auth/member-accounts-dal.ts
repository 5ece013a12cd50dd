import { and, asc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { MemberScope, Role } from '@vigie/contract';
import type { Database } from '../../db/database.ts';
import { recoveryCodes, sessions, users } from '../../db/schema.ts';

export interface MemberRow {
  id: string;
  name: string | null;
  email: string;
  role: Role;
  scope: MemberScope | null;
}

/** Why a change of the admins was refused: it would leave the organization without one. */
export type MemberChange =
  | { outcome: 'done'; member: MemberRow; endedSessions: string[] }
  | { outcome: 'not-found' }
  | { outcome: 'last-admin' }
  | { outcome: 'no-two-factor' };

const columns = { id: users.id, name: users.name, email: users.email, role: users.role, scope: users.scope };

/** Members as seen by an organization: its users, read and changed under the last-admin rule, with their sessions and recovery codes. */
export function createMemberAccountsDal(db: Database) {
  type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

  /**
   * Locks the organization's admins (in id order, so that two changes never wait on each other
   * crosswise) and tells whether `memberId` may stop being one. A change committed meanwhile by
   * another transaction is re-read once its lock is released: two admins demoting each other at
   * the same time are seen one after the other, and the second is refused.
   */
  async function lockedAdmins(tx: Tx, organizationId: string): Promise<string[]> {
    const rows = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.organizationId, organizationId), eq(users.role, 'admin'), isNull(users.scope)))
      .orderBy(asc(users.id))
      .for('update');
    return rows.map((row) => row.id);
  }

  async function memberOf(tx: Tx, organizationId: string, memberId: string): Promise<MemberRow | undefined> {
    const [row] = await tx
      .select(columns)
      .from(users)
      .where(and(eq(users.id, memberId), eq(users.organizationId, organizationId)))
      .limit(1);
    return row;
  }

  /** Ends the member's open sessions; their ids, to close what they hold open. */
  async function endSessions(tx: Tx, userId: string, now: Date): Promise<string[]> {
    const ended = await tx
      .update(sessions)
      .set({ endedAt: now })
      .where(and(eq(sessions.userId, userId), isNull(sessions.endedAt)))
      .returning({ id: sessions.id });
    return ended.map((row) => row.id);
  }

  /** The member is one of the admins of the whole organization and the only one left. */
  const leavesNoAdmin = (admins: string[], member: MemberRow) =>
    member.role === 'admin' && member.scope === null && admins.filter((id) => id !== member.id).length === 0;

  return {
    list(organizationId: string): Promise<MemberRow[]> {
      return db
        .select(columns)
        .from(users)
        .where(eq(users.organizationId, organizationId))
        .orderBy(sql`lower(coalesce(${users.name}, ${users.email}))`, sql`lower(${users.email})`);
    },

    /** Changes the role, the scope or both; the organization always keeps an admin of all of it. */
    changeMember(
      organizationId: string,
      memberId: string,
      change: { role?: Role | undefined; scope?: MemberScope | null | undefined },
    ): Promise<MemberChange> {
      return db.transaction(async (tx) => {
        const admins = await lockedAdmins(tx, organizationId);
        const member = await memberOf(tx, organizationId, memberId);
        if (!member) return { outcome: 'not-found' };
        const role = change.role ?? member.role;
        const scope = change.scope === undefined ? member.scope : change.scope;
        if ((role !== 'admin' || scope !== null) && leavesNoAdmin(admins, member)) return { outcome: 'last-admin' };
        const [updated] = await tx.update(users).set({ role, scope }).where(eq(users.id, member.id)).returning(columns);
        return updated ? { outcome: 'done', member: updated, endedSessions: [] } : { outcome: 'not-found' };
      });
    },

    /** Deletes the member; their sessions go with them, and their ids are returned to close what they hold open. */
    remove(organizationId: string, memberId: string, now: Date): Promise<MemberChange> {
      return db.transaction(async (tx) => {
        const admins = await lockedAdmins(tx, organizationId);
        const member = await memberOf(tx, organizationId, memberId);
        if (!member) return { outcome: 'not-found' };
        if (leavesNoAdmin(admins, member)) return { outcome: 'last-admin' };
        const endedSessions = await endSessions(tx, member.id, now);
        await tx.delete(users).where(eq(users.id, member.id));
        return { outcome: 'done', member, endedSessions };
      });
    },

    /**
     * Turns the member's two-factor authentication off (secret, pending secret and recovery codes)
     * and ends their sessions, in one transaction; `no-two-factor` when it was not on.
     */
    resetTwoFactor(organizationId: string, memberId: string, now: Date): Promise<MemberChange> {
      return db.transaction(async (tx) => {
        const member = await memberOf(tx, organizationId, memberId);
        if (!member) return { outcome: 'not-found' };
        const reset = await tx
          .update(users)
          .set({ totpSecret: null, totpPendingSecret: null, totpLastStep: null })
          .where(and(eq(users.id, member.id), isNotNull(users.totpSecret)))
          .returning({ id: users.id });
        if (reset.length === 0) return { outcome: 'no-two-factor' };
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, member.id));
        return { outcome: 'done', member, endedSessions: await endSessions(tx, member.id, now) };
      });
    },
  };
}

export type MemberAccountsDal = ReturnType<typeof createMemberAccountsDal>;
