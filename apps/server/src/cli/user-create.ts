import { parseArgs } from 'node:util';
import { loadConfigOrExit } from '../config.ts';
import { DataDirLockedError } from '../db/data-dir-lock.ts';
import { openDatabase } from '../db/database.ts';
import { AppError } from '../errors.ts';
import { createLogger } from '../logger.ts';
import { createOrganizationService } from '../modules/organizations/organization-service.ts';
import { createUserService, parseNewAccount } from '../modules/users/user-service.ts';

const USAGE = 'Usage : npm run user:create -- --email E --password P [--name N] [--org O]';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

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
  const logger = createLogger({ logLevel: 'warn' });
  let database;
  try {
    database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger });
  } catch (error) {
    if (error instanceof DataDirLockedError) fail(error.message);
    throw error;
  }
  try {
    const user = await createUserService({
      db: database.db,
      organizations: createOrganizationService({ db: database.db }),
    }).createAccount(input);
    console.log(`Compte créé : ${user.email} (organisation « ${user.organization.name} »).`);
  } catch (error) {
    if (error instanceof AppError) fail(error.message);
    throw error;
  } finally {
    await database.close();
  }
}

await main();
