import { nameSchema, newEmailSchema, newPasswordSchema, type User } from '@vigie/contract';
import { z } from 'zod';
import { isUniqueViolation } from '../../db/connection-errors.ts';
import { badRequest, conflict } from '../../errors.ts';
import { hashPassword } from '../auth/password.ts';
import type { UserDal, UserRecord } from './user-dal.ts';

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

/** The public shape of a user: never the password hash. */
export function toPublicUser(user: UserRecord): User {
  return { id: user.id, name: user.name, email: user.email, organization: user.organization };
}

export function createUserService(users: UserDal) {
  return {
    async createAccount(input: NewAccount): Promise<User> {
      const account = parseNewAccount(input);
      if (await users.findByEmail(account.email)) {
        throw conflict(`Un compte existe déjà avec l'adresse ${account.email}.`);
      }
      try {
        const created = await users.createWithOrganization({
          email: account.email,
          name: account.name ?? null,
          passwordHash: await hashPassword(account.password),
          organizationName: account.organizationName,
        });
        return toPublicUser(created);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`Un compte existe déjà avec l'adresse ${account.email}.`);
        throw error;
      }
    },

    async isEmpty(): Promise<boolean> {
      return (await users.countUsers()) === 0;
    },

    async getById(id: string): Promise<User | undefined> {
      const user = await users.findById(id);
      return user && toPublicUser(user);
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;
