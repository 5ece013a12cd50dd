import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/database.ts';
import type { Inviter } from '../members/invitation-service.ts';
import { createOperatorService } from './operator-service.ts';
import { operatorRoutes } from './operator-routes.ts';
import { organizationRoutes } from './organization-routes.ts';
import { createOrganizationService } from './organization-service.ts';

/**
 * The organizations module: organizations, their security requirement and their devices'
 * installation key; for the operator (docs/api.md, Opérateur), the client organizations' status,
 * plan, quotas and erasure, and the operator's audit trail. In: the database, the clock, and
 * (given late, once the members module exists) the invitation of a first admin. Out: the services,
 * the installation key's routes, the operator's routes, the erasure job.
 */
export function createOrganizationsModule(options: {
  db: Database;
  now: () => Date;
  invite: () => (inviter: Inviter, input: { email: string; role: 'admin' }) => Promise<unknown>;
  hasAccount: () => (email: string) => Promise<boolean>;
}) {
  const organizations = createOrganizationService({ db: options.db });
  const operator = createOperatorService({
    db: options.db,
    now: options.now,
    invite: (inviter, input) => options.invite()(inviter, input),
    hasAccount: (email) => options.hasAccount()(email),
    statusChanged: (id) => organizations.forgetStatus(id),
  });
  const routes: FastifyPluginAsync = async (app) => {
    await app.register(organizationRoutes, { organizations });
  };
  const operatorRoutesPlugin: FastifyPluginAsync = async (app) => {
    await app.register(operatorRoutes, { operator });
  };
  return {
    organizations,
    operator,
    routes,
    operatorRoutes: operatorRoutesPlugin,
    services: { organizations, operator },
    jobs: {
      /** The erasures that are due (30 days after they were asked), each done once across instances. */
      eraseDue: () => operator.eraseDue(),
    },
  };
}

export type OrganizationsModule = ReturnType<typeof createOrganizationsModule>;
