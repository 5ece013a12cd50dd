import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { organizations, users } from '../../db/schema.ts';

export interface UserRecord {
  id: string;
  email: string;
  name: string | null;
  passwordHash: string;
  organization: { id: string; name: string };
}

const userColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  passwordHash: users.passwordHash,
  organization: { id: organizations.id, name: organizations.name },
};

export function createUserDal(db: Database) {
  const selectUser = () => db.select(userColumns).from(users).innerJoin(organizations, eq(organizations.id, users.organizationId));

  return {
    async findByEmail(email: string): Promise<UserRecord | undefined> {
      const [row] = await selectUser()
        .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
        .limit(1);
      return row;
    },

    async findById(id: string): Promise<UserRecord | undefined> {
      const [row] = await selectUser().where(eq(users.id, id)).limit(1);
      return row;
    },

    async countUsers(): Promise<number> {
      const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(users);
      return row?.count ?? 0;
    },

    /** Creates the user, and the organization when none has that name, in one transaction. */
    async createWithOrganization(input: {
      email: string;
      name: string | null;
      passwordHash: string;
      organizationName: string;
    }): Promise<UserRecord> {
      return db.transaction(async (tx) => {
        await tx.insert(organizations).values({ name: input.organizationName }).onConflictDoNothing();
        const [organization] = await tx
          .select({ id: organizations.id, name: organizations.name })
          .from(organizations)
          .where(eq(organizations.name, input.organizationName))
          .limit(1);
        if (!organization) throw new Error('Organisation introuvable après sa création.');
        const [user] = await tx
          .insert(users)
          .values({ email: input.email, name: input.name, passwordHash: input.passwordHash, organizationId: organization.id })
          .returning({ id: users.id, email: users.email, name: users.name, passwordHash: users.passwordHash });
        if (!user) throw new Error("L'utilisateur n'a pas été créé.");
        return { ...user, organization };
      });
    },
  };
}

export type UserDal = ReturnType<typeof createUserDal>;
