import { parseArgs } from 'node:util';
import type { User } from '@vigie/contract';
import { sendAdminRequest } from '../adapters/admin-socket/admin-client.ts';
import { loadConfigOrExit } from '../config.ts';
import { AppError } from '../errors.ts';
import { createOrganizationService } from '../modules/organizations/organization-service.ts';
import { createUserService, parseNewAccount } from '../modules/auth/user-service.ts';
import { fail, openCliDatabase } from './cli-support.ts';

const USAGE = 'Usage : npm run user:create -- --email E --password P [--name N] [--org O]';

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        email: { type: 'string' },
        password: { type: 'string' },
        name: { type: 'string' },
        org: { type: 'string' },
      },
      strict: true,
    }));
  } catch (error) {
    fail(`Option invalide : ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
  if (!values.email) fail(`L'option --email est obligatoire.\n${USAGE}`);
  if (!values.password) fail(`L'option --password est obligatoire.\n${USAGE}`);

  const input = { email: values.email, password: values.password, name: values.name, organizationName: values.org };
  try {
    // Checked before the database is opened: a typo is reported at once.
    parseNewAccount(input);
  } catch (error) {
    if (error instanceof AppError) fail(error.message);
    throw error;
  }

  const config = loadConfigOrExit();
  const created = (user: User) => console.log(`Compte créé : ${user.email} (organisation « ${user.organization.name} »).`);

  // The embedded database opens in one process only: a server running on it creates the account.
  if (!config.databaseUrl) {
    const response = await sendAdminRequest(config.dataDir, { command: 'user:create', account: input }).catch((error: unknown) =>
      fail(error instanceof Error ? error.message : String(error)),
    );
    if (response && !response.ok) fail(response.message);
    if (response && 'user' in response) return created(response.user);
  }

  const database = await openCliDatabase(config);
  try {
    created(
      await createUserService({
        db: database.db,
        organizations: createOrganizationService({ db: database.db }),
      }).createAccount(input),
    );
  } catch (error) {
    if (error instanceof AppError) fail(error.message);
    throw error;
  } finally {
    await database.close();
  }
}

await main();
