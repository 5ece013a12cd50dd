import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/database.ts';
import { auditRoutes } from './audit-routes.ts';
import { type AuditAccounts, createAuditService } from './audit-service.ts';

/**
 * The audit module: the trail of who did what. In: the database, the clock, and who an account is
 * (asked of the auth module at run time: `accounts`). Out: the service (the routes record through
 * the audit plugin), the trail's routes.
 */
export function createAuditModule(options: { db: Database; now: () => Date; accounts: () => AuditAccounts }) {
  const audit = createAuditService({
    db: options.db,
    now: options.now,
    accounts: { byId: (id) => options.accounts().byId(id), byEmail: (email) => options.accounts().byEmail(email) },
  });
  const routes: FastifyPluginAsync = async (app) => {
    await app.register(auditRoutes, { audit });
  };
  return { audit, routes, services: { audit } };
}

export type AuditModule = ReturnType<typeof createAuditModule>;
