import { parseArgs } from 'node:util';
import type { User } from '@vigie/contract';
import { sendAdminRequest } from '../adapters/admin-socket/admin-client.ts';
import { loadConfigOrExit } from '../config.ts';
import { AppError } from '../errors.ts';
import { createOrganizationService } from '../modules/organizations/organization-service.ts';
import { createUserService, parseNewAccount } from '../modules/auth/user-service.ts';
import { fail, openCliDatabase } from './cli-support.ts';

const USAGE = 'Usage : npm run operator:create -- --email E --password P [--name N]';

/** `npm run operator:create`: an operator's account (docs/api.md, Opérateur), server running or not. */
async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } },
      strict: true,
    }));
  } catch (error) {
    fail(`Option invalide : ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
  if (!values.email) fail(`L'option --email est obligatoire.\n${USAGE}`);
  if (!values.password) fail(`L'option --password est obligatoire.\n${USAGE}`);

  const input = { email: values.email, password: values.password, name: values.name };
  try {
    parseNewAccount(input);
  } catch (error) {
    if (error instanceof AppError) fail(error.message);
    throw error;
  }

  const config = loadConfigOrExit();
  const created = (user: User) => console.log(`Compte opérateur créé : ${user.email}.`);

  // The embedded database opens in one process only: a server running on it creates the account.
  if (!config.databaseUrl) {
    const response = await sendAdminRequest(config.dataDir, { command: 'operator:create', account: input }).catch((error: unknown) =>
      fail(error instanceof Error ? error.message : String(error)),
    );
    if (response && !response.ok) fail(response.message);
    if (response && 'user' in response) return created(response.user);
  }

  const database = await openCliDatabase(config);
  try {
    created(
      await createUserService({ db: database.db, organizations: createOrganizationService({ db: database.db }) }).createOperator(input),
    );
  } catch (error) {
    if (error instanceof AppError) fail(error.message);
    throw error;
  } finally {
    await database.close();
  }
}

await main();
