import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { organizations } from '../../db/schema.ts';

export interface OrganizationRecord {
  id: string;
  name: string;
  /** Admins must sign in with a second factor. */
  requireTotpForAdmins: boolean;
}

/** The only code that touches the organizations table. */
export function createOrganizationDal(db: Database) {
  const columns = { id: organizations.id, name: organizations.name, requireTotpForAdmins: organizations.requireTotpForAdmins };
  return {
    /** The organization of that name, created when none has it (two concurrent calls agree). */
    async ensure(name: string): Promise<OrganizationRecord | undefined> {
      await db.insert(organizations).values({ name }).onConflictDoNothing();
      const [row] = await db.select(columns).from(organizations).where(eq(organizations.name, name)).limit(1);
      return row;
    },

    /** The operators' own organization, created once (docs/api.md, Opérateur). */
    async ensureOperators(name: string): Promise<OrganizationRecord | undefined> {
      await db.insert(organizations).values({ name, internal: true }).onConflictDoNothing();
      const [row] = await db
        .select(columns)
        .from(organizations)
        .where(and(eq(organizations.name, name), eq(organizations.internal, true)))
        .limit(1);
      return row;
    },

    /** Whether the organization is suspended or being erased: its people read, and change nothing. */
    async status(id: string): Promise<'active' | 'suspended' | 'erasing' | undefined> {
      const [row] = await db.select({ status: organizations.status }).from(organizations).where(eq(organizations.id, id)).limit(1);
      return row?.status;
    },

    async findByName(name: string): Promise<OrganizationRecord | undefined> {
      const [row] = await db.select(columns).from(organizations).where(eq(organizations.name, name)).limit(1);
      return row;
    },

    async findById(id: string): Promise<OrganizationRecord | undefined> {
      const [row] = await db.select(columns).from(organizations).where(eq(organizations.id, id)).limit(1);
      return row;
    },

    async findByInstallationKey(key: string): Promise<OrganizationRecord | undefined> {
      const [row] = await db.select(columns).from(organizations).where(eq(organizations.installationKey, key)).limit(1);
      return row;
    },

    /** Sets the key only when the organization has none: two concurrent first uses keep one key. */
    async setInstallationKeyIfMissing(id: string, key: string): Promise<void> {
      await db
        .update(organizations)
        .set({ installationKey: key })
        .where(and(eq(organizations.id, id), isNull(organizations.installationKey)));
    },

    async setInstallationKey(id: string, key: string): Promise<void> {
      await db.update(organizations).set({ installationKey: key }).where(eq(organizations.id, id));
    },

    async setRequireTotpForAdmins(id: string, requireTotpForAdmins: boolean): Promise<void> {
      await db.update(organizations).set({ requireTotpForAdmins }).where(eq(organizations.id, id));
    },

    async installationKey(id: string): Promise<string | null | undefined> {
      const [row] = await db.select({ key: organizations.installationKey }).from(organizations).where(eq(organizations.id, id));
      return row?.key;
    },
  };
}

export type OrganizationDal = ReturnType<typeof createOrganizationDal>;
