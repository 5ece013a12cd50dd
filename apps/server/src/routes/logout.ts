import type { FastifyPluginAsync } from 'fastify';
import type { SessionService } from '../modules/auth/session-service.ts';
import { currentUser } from '../plugins/authenticate.ts';

/** POST /api/auth/logout (PRODUCT §9): the token used is refused from now on, everywhere. */
export const logoutRoutes: FastifyPluginAsync<{ sessions: Pick<SessionService, 'end'> }> = async (app, { sessions }) => {
  app.post('/auth/logout', async (request, reply) => {
    const user = currentUser(request);
    if (request.sessionId) await sessions.end({ id: request.sessionId, userId: user.id, organizationId: user.organization.id });
    reply.header('cache-control', 'no-store');
    return reply.code(204).send();
  });
};
