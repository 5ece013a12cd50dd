import { randomBytes } from 'node:crypto';
import { ROLES, nameSchema, newEmailSchema, newPasswordSchema, type Role, type User } from '@vigie/contract';
import { z } from 'zod';
import { isUniqueViolation } from '../../db/connection-errors.ts';
import type { Database, Transaction } from '../../db/database.ts';
import { badRequest, conflict } from '../../errors.ts';
import type { OrganizationService } from '../organizations/organization-service.ts';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './password.ts';
import { createMemberAccountsDal } from './member-accounts-dal.ts';
import { createScimAccountsDal, type ScimAccountRow } from './scim-accounts-dal.ts';
import { createUserDal, type UserRow } from './user-dal.ts';

export type { MemberChange, MemberRow } from './member-accounts-dal.ts';

export const DEFAULT_ORGANIZATION_NAME = 'Mon organisation';

const newAccountSchema = z.object({
  email: newEmailSchema,
  password: newPasswordSchema,
  name: nameSchema.optional(),
  organizationName: nameSchema.default(DEFAULT_ORGANIZATION_NAME),
});

export type NewAccount = z.input<typeof newAccountSchema>;

/** Checks a new account's fields; throws a 400 AppError with the first problem, in French. */
export function parseNewAccount(input: NewAccount) {
  const parsed = newAccountSchema.safeParse(input);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Données invalides.');
  return parsed.data;
}

/** Accounts: users, their password and the organization they belong to. */
export function createUserService(deps: {
  db: Database;
  organizations: Pick<OrganizationService, 'ensure' | 'findById' | 'ensureOperators'>;
}) {
  const users = createUserDal(deps.db);
  const memberAccounts = createMemberAccountsDal(deps.db);
  const scimAccounts = createScimAccountsDal(deps.db);
  const { organizations } = deps;

  /** Who an account is, for the records that name it. */
  const accountOf = (user: UserRow | undefined) =>
    user && { id: user.id, organizationId: user.organizationId, name: user.name, email: user.email };

  /** The public shape of a user: never the password hash. */
  function publicUser(user: UserRow, organization: { id: string; name: string; requireTotpForAdmins: boolean }): User {
    return {
      id: user.id,
      name: user.name,
      email: user.email,
      role: user.role,
      organization: { id: organization.id, name: organization.name },
      scope: user.scope,
      totpEnabled: user.totpEnabled,
      totpSetupRequired: user.role === 'admin' && organization.requireTotpForAdmins && !user.totpEnabled,
      operator: user.operator,
    };
  }

  return {
    /** Creates the account, and its organization when none has that name. */
    async createAccount(input: NewAccount): Promise<User> {
      const account = parseNewAccount(input);
      if (await users.findByEmail(account.email)) {
        throw conflict(`Un compte existe déjà avec l'adresse ${account.email}.`);
      }
      try {
        const organization = await organizations.ensure(account.organizationName);
        const created = await users.create({
          email: account.email,
          name: account.name ?? null,
          passwordHash: await hashPassword(account.password),
          organizationId: organization.id,
        });
        return { id: created.id, name: created.name, email: created.email, role: created.role, organization };
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`Un compte existe déjà avec l'adresse ${account.email}.`);
        throw error;
      }
    },

    /**
     * An operator's account (docs/api.md, Opérateur): in the operators' own organization, which no
     * client sees, member of no client organization.
     */
    async createOperator(input: { email: string; password: string; name?: string | undefined }): Promise<User> {
      const account = parseNewAccount({ ...input, organizationName: DEFAULT_ORGANIZATION_NAME });
      if (await users.findByEmail(account.email)) throw conflict(`Un compte existe déjà avec l'adresse ${account.email}.`);
      try {
        const organization = await organizations.ensureOperators();
        const created = await users.create({
          email: account.email,
          name: account.name ?? null,
          passwordHash: await hashPassword(account.password),
          organizationId: organization.id,
          role: 'admin',
          operator: true,
        });
        return { id: created.id, name: created.name, email: created.email, role: created.role, organization, operator: true };
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`Un compte existe déjà avec l'adresse ${account.email}.`);
        throw error;
      }
    },

    /** Who is told of an organization's alerts: its admins and managers, not its viewers. */
    teamEmails(organizationId: string): Promise<string[]> {
      return users.emailsOf(organizationId, ['admin', 'manager']);
    },

    /** Who a notification reaches: the admins and managers (`null`), or the people of these addresses. */
    async recipientIds(organizationId: string, emails: readonly string[] | null): Promise<string[]> {
      return (await this.recipients(organizationId, emails)).map((person) => person.id);
    },

    /** The same people with their scopes, for a notification about one site. */
    recipients(organizationId: string, emails: readonly string[] | null) {
      return users.idsOf(organizationId, emails === null ? { roles: ['admin', 'manager'] } : { emails });
    },

    /** The admins and managers, with their addresses and scopes. */
    team(organizationId: string) {
      return users.withRoles(organizationId, ['admin', 'manager']);
    },

    /** Every member of the organization, whatever their role, with their address and scope. */
    everyone(organizationId: string) {
      return users.withRoles(organizationId, ROLES);
    },

    /** Whether an account uses this address (in any organization: an address signs in to one). */
    async hasAccount(email: string): Promise<boolean> {
      return (await users.findByEmail(email)) !== undefined;
    },

    /** These members of an organization, with their names and scopes (for a rota). */
    people(organizationId: string, ids: readonly string[]) {
      return users.peopleOf(organizationId, [...new Set(ids)]);
    },

    /** Display names (name, else e-mail) of users, by id, for records that name who did what. */
    namesOf(ids: string[]): Promise<Map<string, string>> {
      return users.namesOf([...new Set(ids)]);
    },

    async isEmpty(): Promise<boolean> {
      return (await users.countUsers()) === 0;
    },

    async getById(id: string): Promise<User | undefined> {
      const user = await users.findById(id);
      const organization = user && (await organizations.findById(user.organizationId));
      return user && organization && publicUser(user, organization);
    },

    /** Who an account is (the audit trail names it so). */
    account: async (id: string) => accountOf(await users.findById(id)),
    /** The account of an address, in any letter case. */
    accountByEmail: async (email: string) => accountOf(await users.findByEmail(email)),

    /**
     * The account of a person new to Vigie who signed in through their organization's single
     * sign-on: no password of theirs (a random one nobody knows, hashed like any other); its id,
     * or null when the address already has an account (created meanwhile).
     */
    async createSsoAccount(input: { organizationId: string; email: string; name: string | null; role: Role }): Promise<string | null> {
      try {
        const created = await users.create({ ...input, passwordHash: await hashPassword(randomBytes(32).toString('base64url')) });
        return created.id;
      } catch (error) {
        if (isUniqueViolation(error)) return null;
        throw error;
      }
    },

    /** The account of an accepted invitation, in the invitation's transaction. */
    createMemberIn: (tx: Transaction, member: Parameters<typeof users.createIn>[1]) => users.createIn(tx, member),

    /** An organization's members and the changes of their role, account and two-factor authentication (the members module's). */
    members: memberAccounts,

    /** The members as the organization's identity provider reads and writes them through SCIM (the members module's). */
    scimAccounts: {
      ...scimAccounts,
      /** A member with no password anyone knows (a random one, hashed): they sign in through single sign-on. */
      create: async (input: Omit<Parameters<typeof scimAccounts.create>[0], 'passwordHash'>): Promise<ScimAccountRow> =>
        scimAccounts.create({ ...input, passwordHash: await hashPassword(randomBytes(32).toString('base64url')) }),
    },

    /**
     * The user id of these credentials, or null; as slow for an unknown email as for a wrong
     * password, so a caller cannot tell which one it was.
     */
    async verifyCredentials(email: string, password: string): Promise<string | null> {
      const user = await users.findByEmail(email);
      const valid = user ? await verifyPassword(user.passwordHash, password) : await verifyAgainstDummy(password);
      return user && valid ? user.id : null;
    },

    /** Sets a new password when `current` is the user's password; whether it was. */
    async changePassword(id: string, current: string, next: string): Promise<boolean> {
      const user = await users.findById(id);
      if (!user || !(await verifyPassword(user.passwordHash, current))) return false;
      return users.replacePasswordHash(id, user.passwordHash, await hashPassword(next));
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;
