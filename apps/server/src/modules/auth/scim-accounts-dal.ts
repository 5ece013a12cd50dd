import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Role } from '@vigie/contract';
import { holdQuota } from '../../db/quotas.ts';
import type { Database } from '../../db/database.ts';
import { users } from '../../db/schema.ts';

/** A member as a SCIM directory sees them (docs/api.md, Provisionnement SCIM): an address, a name, a role and its dates. */
export interface ScimAccountRow {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  createdAt: Date;
  updatedAt: Date;
}

const columns = {
  id: users.id,
  email: users.email,
  name: users.name,
  role: users.role,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
};

/**
 * The accounts of an organization as its identity provider reads and writes them through SCIM: a
 * page of them in a stable order (their creation, then their id), one by id or by address, a new
 * one, a new address or name. Every query is held to the organization.
 */
export function createScimAccountsDal(db: Database) {
  const byAddress = (email: string) => eq(sql`lower(${users.email})`, email.trim().toLowerCase());

  return {
    /** A page of the organization's members (`offset` from 0), and how many there are in all; `email`, the one of that address only. */
    async page(organizationId: string, options: { email?: string; offset: number; limit: number }) {
      const where =
        options.email === undefined
          ? eq(users.organizationId, organizationId)
          : and(eq(users.organizationId, organizationId), byAddress(options.email));
      const [total] = await db.select({ total: count() }).from(users).where(where);
      const rows =
        options.limit === 0
          ? []
          : await db
              .select(columns)
              .from(users)
              .where(where)
              .orderBy(asc(users.createdAt), asc(users.id))
              .offset(options.offset)
              .limit(options.limit);
      return { total: total?.total ?? 0, rows };
    },

    async get(organizationId: string, id: string): Promise<ScimAccountRow | undefined> {
      const [row] = await db
        .select(columns)
        .from(users)
        .where(and(eq(users.organizationId, organizationId), eq(users.id, id)))
        .limit(1);
      return row;
    },

    /** The organization that has an account of this address, in any organization (an address signs in to one). */
    async organizationOf(email: string): Promise<string | undefined> {
      const [row] = await db.select({ organizationId: users.organizationId }).from(users).where(byAddress(email)).limit(1);
      return row?.organizationId;
    },

    async create(input: {
      organizationId: string;
      email: string;
      name: string | null;
      role: Role;
      passwordHash: string;
    }): Promise<ScimAccountRow> {
      // The account counts towards the members' quota, under the lock of the organization's row.
      const [row] = await db.transaction(async (tx) => {
        await holdQuota(tx, input.organizationId, 'members');
        return tx
          .insert(users)
          .values({ ...input, scope: null })
          .returning(columns);
      });
      if (!row) throw new Error('Compte non créé');
      return row;
    },

    /** A new address or name for a member of the organization; undefined when there is none of that id. */
    async update(
      organizationId: string,
      id: string,
      change: { email?: string; name?: string | null },
    ): Promise<ScimAccountRow | undefined> {
      const [row] = await db
        .update(users)
        .set(change)
        .where(and(eq(users.organizationId, organizationId), eq(users.id, id)))
        .returning(columns);
      return row;
    },
  };
}

export type ScimAccountsDal = ReturnType<typeof createScimAccountsDal>;
