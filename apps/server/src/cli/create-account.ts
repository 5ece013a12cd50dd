import type { User } from '@vigie/contract';
import { sendAdminRequest } from '../adapters/admin-socket/admin-client.ts';
import type { AdminRequest } from '../adapters/admin-socket/admin-protocol.ts';
import { loadConfigOrExit } from '../config.ts';
import { AppError } from '../errors.ts';
import { createOrganizationService } from '../modules/organizations/organization-service.ts';
import { createUserService, type UserService } from '../modules/auth/user-service.ts';
import { fail, openCliDatabase } from './cli-support.ts';

/**
 * Creates an account for a command (`user:create`, `operator:create`), server running or not. The
 * embedded database opens in one process only: a server running on it creates the account through
 * its local channel (`request`); otherwise `create` runs on the database itself. A refusal ends the
 * command with its French message; `created` says what was made.
 */
export async function createAccountFromCli(
  request: AdminRequest,
  create: (users: UserService) => Promise<User>,
  created: (user: User) => void,
): Promise<void> {
  const config = loadConfigOrExit();
  if (!config.databaseUrl) {
    const response = await sendAdminRequest(config.dataDir, request).catch((error: unknown) =>
      fail(error instanceof Error ? error.message : String(error)),
    );
    if (response && !response.ok) fail(response.message);
    if (response && 'user' in response) return created(response.user);
  }

  const database = await openCliDatabase(config);
  try {
    created(await create(createUserService({ db: database.db, organizations: createOrganizationService({ db: database.db }) })));
  } catch (error) {
    if (error instanceof AppError) fail(error.message);
    throw error;
  } finally {
    await database.close();
  }
}
