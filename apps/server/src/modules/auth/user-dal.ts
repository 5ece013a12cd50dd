import { and, eq, inArray, sql } from 'drizzle-orm';
import type { MemberScope, Role } from '@vigie/contract';
import type { Database, Transaction } from '../../db/database.ts';
import { users } from '../../db/schema.ts';

export interface UserRow {
  id: string;
  email: string;
  name: string | null;
  passwordHash: string;
  organizationId: string;
  role: Role;
  /** Two-factor authentication is on. */
  totpEnabled: boolean;
  /** The sites and regions the person sees; null, the whole organization. */
  scope: MemberScope | null;
  /** An operator's account (docs/api.md, Opérateur). */
  operator: boolean;
}

/** The only code that touches the users table. */
export function createUserDal(db: Database) {
  const columns = {
    id: users.id,
    email: users.email,
    name: users.name,
    passwordHash: users.passwordHash,
    organizationId: users.organizationId,
    role: users.role,
    totpEnabled: sql<boolean>`${users.totpSecret} is not null`,
    scope: users.scope,
    operator: users.operator,
  };

  return {
    async findByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await db
        .select(columns)
        .from(users)
        .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
        .limit(1);
      return row;
    },

    async findById(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select(columns).from(users).where(eq(users.id, id)).limit(1);
      return row;
    },

    /** Replaces a password hash, only if it is still `previousHash` (two changes at once: one wins). */
    async replacePasswordHash(id: string, previousHash: string, passwordHash: string): Promise<boolean> {
      const updated = await db
        .update(users)
        .set({ passwordHash })
        .where(and(eq(users.id, id), eq(users.passwordHash, previousHash)))
        .returning({ id: users.id });
      return updated.length > 0;
    },

    /** The members who have one of these roles: their ids, addresses and scopes. */
    async withRoles(organizationId: string, roles: readonly Role[]): Promise<{ id: string; email: string; scope: MemberScope | null }[]> {
      return db
        .select({ id: users.id, email: users.email, scope: users.scope })
        .from(users)
        .where(and(eq(users.organizationId, organizationId), inArray(users.role, [...roles])));
    },

    /** The addresses of an organization's members who have one of these roles. */
    async emailsOf(organizationId: string, roles: readonly Role[]): Promise<string[]> {
      const rows = await db
        .select({ email: users.email })
        .from(users)
        .where(and(eq(users.organizationId, organizationId), inArray(users.role, [...roles])));
      return rows.map((row) => row.email);
    },

    /** The ids of the organization's people with these roles, or (`emails`) with these addresses. */
    async idsOf(
      organizationId: string,
      who: { roles: readonly Role[] } | { emails: readonly string[] },
    ): Promise<{ id: string; scope: MemberScope | null }[]> {
      if ('emails' in who && who.emails.length === 0) return [];
      return db
        .select({ id: users.id, scope: users.scope })
        .from(users)
        .where(
          and(
            eq(users.organizationId, organizationId),
            'roles' in who
              ? inArray(users.role, [...who.roles])
              : inArray(sql`lower(${users.email})`, [...new Set(who.emails.map((email) => email.toLowerCase()))]),
          ),
        );
    },

    /** These people of an organization (the others are left out): their names (else e-mails) and scopes. */
    async peopleOf(organizationId: string, ids: readonly string[]): Promise<{ id: string; name: string; scope: MemberScope | null }[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .select({ id: users.id, name: users.name, email: users.email, scope: users.scope })
        .from(users)
        .where(and(eq(users.organizationId, organizationId), inArray(users.id, [...ids])));
      return rows.map((row) => ({ id: row.id, name: row.name ?? row.email, scope: row.scope }));
    },

    /** The names (or, without one, the e-mails) of these users, by id. */
    async namesOf(ids: string[]): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db.select({ id: users.id, name: users.name, email: users.email }).from(users).where(inArray(users.id, ids));
      return new Map(rows.map((row) => [row.id, row.name ?? row.email]));
    },

    async countUsers(): Promise<number> {
      const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(users);
      return row?.count ?? 0;
    },

    async create(input: {
      email: string;
      name: string | null;
      passwordHash: string;
      organizationId: string;
      role?: Role;
      operator?: boolean;
    }): Promise<UserRow> {
      const [user] = await db.insert(users).values(input).returning(columns);
      if (!user) throw new Error("L'utilisateur n'a pas été créé.");
      return user;
    },

    /** The account of an accepted invitation, created in the invitation's transaction (both commit, or neither). */
    async createIn(
      tx: Transaction,
      input: { organizationId: string; email: string; name: string; passwordHash: string; role: Role; scope: MemberScope | null },
    ): Promise<string> {
      const [user] = await tx.insert(users).values(input).returning({ id: users.id });
      if (!user) throw new Error('Compte non créé');
      return user.id;
    },
  };
}

export type UserDal = ReturnType<typeof createUserDal>;
