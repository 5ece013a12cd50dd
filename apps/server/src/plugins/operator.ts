import { endpointKey, endpoints } from '@vigie/contract';
import type { FastifyRequest } from 'fastify';
import { AppError, forbidden, MESSAGES, notFound } from '../errors.ts';
import type { OrganizationService } from '../modules/organizations/organization-service.ts';

/** docs/api.md, Opérateur: what a suspended organization's people are told when they try to change something. */
export const SUSPENDED_MESSAGE =
  'Organisation suspendue : vous pouvez consulter vos données, mais rien ne peut être modifié. Contactez l’opérateur de Vigie.';

/** What a person may still do while their organization is suspended: signing out. */
const ALLOWED_WHILE_SUSPENDED = new Set([endpoints.auth.logout, endpoints.auth.logoutEverywhere].map(endpointKey));
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The operator's routes: a valid session of an operator, else the 404 of an unknown address
 * (nobody else learns that they exist), whatever went wrong (no token, a forged one, a member's).
 */
export function operatorOnly(authenticate: (request: FastifyRequest) => Promise<void>) {
  return async (request: FastifyRequest): Promise<void> => {
    try {
      await authenticate(request);
    } catch (error) {
      if (error instanceof AppError) throw notFound(MESSAGES.routeNotFound);
      throw error;
    }
    if (!request.user?.operator || request.apiKey) throw notFound(MESSAGES.routeNotFound);
  };
}

/**
 * A preHandler of the members' routes: a member (or key) of a suspended organization, or of one
 * being erased, reads and signs out; any other change answers 403.
 */
export function refuseWhileSuspended(organizations: Pick<OrganizationService, 'status'>) {
  return async (request: FastifyRequest): Promise<void> => {
    if (READS.has(request.method)) return;
    const user = request.user;
    if (!user || user.operator) return;
    if (ALLOWED_WHILE_SUSPENDED.has(`${request.method} ${request.routeOptions.url ?? ''}`)) return;
    const status = await organizations.status(user.organization.id);
    if (status === 'suspended' || status === 'erasing') throw forbidden(SUSPENDED_MESSAGE);
  };
}
