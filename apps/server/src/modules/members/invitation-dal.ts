import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { MemberScope, Role } from '@vigie/contract';
import { holdQuota } from '../../db/quotas.ts';
import type { Database, Transaction } from '../../db/database.ts';
import { invitations } from '../../db/schema.ts';

export type InvitationRecord = typeof invitations.$inferSelect;

/** Creates an invited member's account in the given transaction; its id. */
export type CreateMember = (
  tx: Transaction,
  member: { organizationId: string; email: string; name: string; passwordHash: string; role: Role; scope: MemberScope | null },
) => Promise<string>;

const pending = and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt));

/** The only code that touches the invitations table. */
export function createInvitationDal(db: Database) {
  return {
    /** Pending invitations of an organization, expired ones included (they can be sent again). */
    listPending(organizationId: string): Promise<InvitationRecord[]> {
      return db
        .select()
        .from(invitations)
        .where(and(eq(invitations.organizationId, organizationId), pending))
        .orderBy(asc(invitations.createdAt), asc(invitations.id));
    },

    /** A new invitation; a pending one for the same address in this organization is revoked by it. */
    create(input: {
      organizationId: string;
      email: string;
      role: Role;
      scope: MemberScope | null;
      tokenHash: string;
      invitedBy: string;
      createdAt: Date;
      expiresAt: Date;
    }): Promise<InvitationRecord> {
      return db.transaction(async (tx) => {
        await tx
          .update(invitations)
          .set({ revokedAt: input.createdAt })
          .where(
            and(
              eq(invitations.organizationId, input.organizationId),
              eq(sql`lower(${invitations.email})`, input.email.toLowerCase()),
              pending,
            ),
          );
        // The invitation counts towards the members' quota, under the lock of the organization's row.
        await holdQuota(tx, input.organizationId, 'members', input.createdAt);
        const [row] = await tx.insert(invitations).values(input).returning();
        if (!row) throw new Error('Invitation non créée');
        return row;
      });
    },

    /** A pending invitation gets a new secret and a new end: the previous link no longer works. */
    async renew(
      organizationId: string,
      id: string,
      changes: { tokenHash: string; invitedBy: string; createdAt: Date; expiresAt: Date },
    ): Promise<InvitationRecord | undefined> {
      const [row] = await db
        .update(invitations)
        .set(changes)
        .where(and(eq(invitations.id, id), eq(invitations.organizationId, organizationId), pending))
        .returning();
      return row;
    },

    async revoke(organizationId: string, id: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(invitations)
        .set({ revokedAt: now })
        .where(and(eq(invitations.id, id), eq(invitations.organizationId, organizationId), pending))
        .returning({ id: invitations.id });
      return rows.length > 0;
    },

    /** The invitation of a link's secret. */
    async findByTokenHash(tokenHash: string): Promise<InvitationRecord | undefined> {
      const [row] = await db.select().from(invitations).where(eq(invitations.tokenHash, tokenHash)).limit(1);
      return row;
    },

    /**
     * Uses the invitation and creates its member in one transaction (`createMember`, the accounts'
     * owner's, writes in it): of two acceptances at once, only one finds it still unused. Undefined
     * when it was not usable any more; a unique violation (the address got an account meanwhile)
     * rolls everything back.
     */
    accept(
      tokenHash: string,
      now: Date,
      account: { name: string; passwordHash: string },
      createMember: CreateMember,
    ): Promise<{ userId: string } | undefined> {
      return db.transaction(async (tx) => {
        const [used] = await tx
          .update(invitations)
          .set({ acceptedAt: now })
          .where(and(eq(invitations.tokenHash, tokenHash), pending, gt(invitations.expiresAt, now)))
          .returning();
        if (!used) return undefined;
        const userId = await createMember(tx, {
          organizationId: used.organizationId,
          email: used.email,
          name: account.name,
          passwordHash: account.passwordHash,
          role: used.role,
          scope: used.scope ?? null,
        });
        return { userId };
      });
    },
  };
}

export type InvitationDal = ReturnType<typeof createInvitationDal>;
