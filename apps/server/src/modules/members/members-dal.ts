import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Role } from '@vigie/contract';
import type { Database } from '../../db/database.ts';
import { sessions, users } from '../../db/schema.ts';

export interface MemberRow {
  id: string;
  name: string | null;
  email: string;
  role: Role;
}

/** Why a change of the admins was refused: it would leave the organization without one. */
export type MemberChange =
  { outcome: 'done'; member: MemberRow; endedSessions: string[] } | { outcome: 'not-found' } | { outcome: 'last-admin' };

const columns = { id: users.id, name: users.name, email: users.email, role: users.role };

/** Members as seen by an organization: the users table, read and changed under the last-admin rule. */
export function createMembersDal(db: Database) {
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
      .where(and(eq(users.organizationId, organizationId), eq(users.role, 'admin')))
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

  const leavesNoAdmin = (admins: string[], member: MemberRow) =>
    member.role === 'admin' && admins.filter((id) => id !== member.id).length === 0;

  return {
    list(organizationId: string): Promise<MemberRow[]> {
      return db
        .select(columns)
        .from(users)
        .where(eq(users.organizationId, organizationId))
        .orderBy(sql`lower(coalesce(${users.name}, ${users.email}))`, sql`lower(${users.email})`);
    },

    changeRole(organizationId: string, memberId: string, role: Role): Promise<MemberChange> {
      return db.transaction(async (tx) => {
        const admins = await lockedAdmins(tx, organizationId);
        const member = await memberOf(tx, organizationId, memberId);
        if (!member) return { outcome: 'not-found' };
        if (role !== 'admin' && leavesNoAdmin(admins, member)) return { outcome: 'last-admin' };
        const [updated] = await tx.update(users).set({ role }).where(eq(users.id, member.id)).returning(columns);
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
        const ended = await tx
          .update(sessions)
          .set({ endedAt: now })
          .where(and(eq(sessions.userId, member.id), isNull(sessions.endedAt)))
          .returning({ id: sessions.id });
        await tx.delete(users).where(eq(users.id, member.id));
        return { outcome: 'done', member, endedSessions: ended.map((row) => row.id) };
      });
    },
  };
}

export type MembersDal = ReturnType<typeof createMembersDal>;
