import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { users } from '../../db/schema.ts';

export interface UserRow {
  id: string;
  email: string;
  name: string | null;
  passwordHash: string;
  organizationId: string;
}

/** The only code that touches the users table. */
export function createUserDal(db: Database) {
  const columns = {
    id: users.id,
    email: users.email,
    name: users.name,
    passwordHash: users.passwordHash,
    organizationId: users.organizationId,
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

    async countUsers(): Promise<number> {
      const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(users);
      return row?.count ?? 0;
    },

    async create(input: { email: string; name: string | null; passwordHash: string; organizationId: string }): Promise<UserRow> {
      const [user] = await db.insert(users).values(input).returning(columns);
      if (!user) throw new Error("L'utilisateur n'a pas été créé.");
      return user;
    },
  };
}

export type UserDal = ReturnType<typeof createUserDal>;
