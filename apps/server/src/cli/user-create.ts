import { parseArgs } from 'node:util';
import type { User } from '@vigie/contract';
import { AppError } from '../errors.ts';
import { parseNewAccount } from '../modules/auth/user-service.ts';
import { fail } from './cli-support.ts';
import { createAccountFromCli } from './create-account.ts';

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

  await createAccountFromCli(
    { command: 'user:create', account: input },
    (users) => users.createAccount(input),
    (user: User) => console.log(`Compte créé : ${user.email} (organisation « ${user.organization.name} »).`),
  );
}

await main();
