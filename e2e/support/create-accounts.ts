/**
 * Creates the e2e accounts in one process, through the service the account command
 * (scripts/user-create.mjs) calls: one start-up and one opening of the database for all of them
 * instead of one per account. Reads a JSON array of accounts on standard input; the database is
 * the one the environment names (DATABASE_URL, or the embedded one in DATA_DIR).
 */
import { readFileSync } from 'node:fs';
import { openCliDatabase } from '../../apps/server/src/cli/cli-support.ts';
import { createOrganizationService } from '../../apps/server/src/modules/organizations/organization-service.ts';
import { createUserService } from '../../apps/server/src/modules/auth/user-service.ts';
import type { Account } from './accounts';

const accounts = JSON.parse(readFileSync(0, 'utf8')) as Account[];
const database = await openCliDatabase();
try {
  const users = createUserService({ db: database.db, organizations: createOrganizationService({ db: database.db }) });
  for (const account of accounts) {
    await users.createAccount({
      email: account.email,
      password: account.password,
      name: account.name ?? undefined,
      organizationName: account.org,
    });
  }
} finally {
  await database.close();
}
