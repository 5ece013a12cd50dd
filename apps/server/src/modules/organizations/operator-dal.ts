import { and, asc, eq, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Quotas } from '@vigie/contract';
import type { Database, Transaction } from '../../db/database.ts';
import { operatorAudit, organizations } from '../../db/schema.ts';

export interface ClientOrganizationRow {
  id: string;
  name: string;
  createdAt: Date;
  status: 'active' | 'suspended' | 'erasing';
  erasesAt: Date | null;
  plan: string | null;
  quotaSensors: number | null;
  quotaMembers: number | null;
  quotaSmsPerMonth: number | null;
}

export interface OperatorAuditEntry {
  at: Date;
  operatorId: string | null;
  operatorEmail: string | null;
  action: string;
  organizationId: string | null;
  organizationName: string | null;
  details?: Record<string, unknown> | null;
}

const quotaColumns = (quotas: Partial<Quotas> | undefined) => ({
  ...(quotas?.sensors === undefined ? {} : { quotaSensors: quotas.sensors }),
  ...(quotas?.members === undefined ? {} : { quotaMembers: quotas.members }),
  ...(quotas?.smsPerMonth === undefined ? {} : { quotaSmsPerMonth: quotas.smsPerMonth }),
});

/** The client organizations as the operator handles them, and the operator's audit trail. */
export function createOperatorDal(db: Database) {
  const columns = {
    id: organizations.id,
    name: organizations.name,
    createdAt: organizations.createdAt,
    status: organizations.status,
    erasesAt: organizations.erasesAt,
    plan: organizations.plan,
    quotaSensors: organizations.quotaSensors,
    quotaMembers: organizations.quotaMembers,
    quotaSmsPerMonth: organizations.quotaSmsPerMonth,
  };
  const client = (id: string) => and(eq(organizations.id, id), eq(organizations.internal, false));
  return {
    list(): Promise<ClientOrganizationRow[]> {
      return db.select(columns).from(organizations).where(eq(organizations.internal, false)).orderBy(asc(organizations.name));
    },

    async find(id: string): Promise<ClientOrganizationRow | undefined> {
      const [row] = await db.select(columns).from(organizations).where(client(id)).limit(1);
      return row;
    },

    /** A new client organization; undefined when the name is taken. */
    async create(input: {
      name: string;
      plan: string | null;
      quotas: Partial<Quotas> | undefined;
    }): Promise<ClientOrganizationRow | undefined> {
      const [row] = await db
        .insert(organizations)
        .values({ name: input.name, plan: input.plan, ...quotaColumns(input.quotas) })
        .onConflictDoNothing()
        .returning(columns);
      return row;
    },

    async update(
      id: string,
      changes: { status?: 'active' | 'suspended'; plan?: string | null; quotas?: Partial<Quotas> | undefined },
      now: Date,
    ): Promise<ClientOrganizationRow | undefined> {
      const [row] = await db
        .update(organizations)
        .set({
          ...(changes.status === undefined ? {} : { status: changes.status, erasesAt: null, erasureClaimedAt: null }),
          ...(changes.plan === undefined ? {} : { plan: changes.plan }),
          ...quotaColumns(changes.quotas),
          updatedAt: now,
        })
        .where(client(id))
        .returning(columns);
      return row;
    },

    async scheduleErasure(id: string, erasesAt: Date, now: Date): Promise<ClientOrganizationRow | undefined> {
      const [row] = await db
        .update(organizations)
        .set({ status: 'erasing', erasesAt, erasureClaimedAt: null, updatedAt: now })
        .where(client(id))
        .returning(columns);
      return row;
    },

    /**
     * Takes up one organization whose erasure is due: one instance only (the update is atomic);
     * another takes it up again only once `staleBefore` has passed since (its instance stopped midway).
     */
    async claimDueErasure(now: Date, staleBefore: Date): Promise<{ id: string; name: string } | undefined> {
      const due = db
        .select({ id: organizations.id })
        .from(organizations)
        .where(
          and(
            eq(organizations.status, 'erasing'),
            eq(organizations.internal, false),
            lte(organizations.erasesAt, now),
            or(isNull(organizations.erasureClaimedAt), lt(organizations.erasureClaimedAt, staleBefore)),
          ),
        )
        .limit(1);
      const [row] = await db
        .update(organizations)
        .set({ erasureClaimedAt: now })
        .where(
          and(
            sql`${organizations.id} = (${due})`,
            eq(organizations.status, 'erasing'),
            or(isNull(organizations.erasureClaimedAt), lt(organizations.erasureClaimedAt, staleBefore)),
          ),
        )
        .returning({ id: organizations.id, name: organizations.name });
      return row;
    },

    /** Deletes the organization's row and records it in the same transaction: once, whoever races. */
    async deleteErased(id: string, entry: OperatorAuditEntry): Promise<boolean> {
      return db.transaction(async (tx: Transaction) => {
        const gone = await tx
          .delete(organizations)
          .where(and(client(id), eq(organizations.status, 'erasing')))
          .returning({ id: organizations.id });
        if (gone.length === 0) return false;
        await tx.insert(operatorAudit).values(entry);
        return true;
      });
    },

    async record(entry: OperatorAuditEntry): Promise<void> {
      await db.insert(operatorAudit).values(entry);
    },

    audit(organizationId: string) {
      return db.select().from(operatorAudit).where(eq(operatorAudit.organizationId, organizationId)).orderBy(asc(operatorAudit.id));
    },
  };
}

export type OperatorDal = ReturnType<typeof createOperatorDal>;
