import { endpoints } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthService } from './auth-service.ts';
import type { SessionService } from './session-service.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';

/** The signed-in user's sessions (docs/api.md, Connexion et sessions): logout, logout everywhere, a new password. */
export const logoutRoutes: FastifyPluginAsyncZod<{
  sessions: Pick<SessionService, 'end' | 'endAll'>;
  auth: Pick<AuthService, 'changePassword'>;
}> = async (app, { sessions, auth }) => {
  /** endpoints.auth.logout: the token used is refused from now on, everywhere. */
  app.route({
    ...route(endpoints.auth.logout),
    handler: async (request, reply) => {
      const user = currentUser(request);
      if (request.sessionId) await sessions.end({ id: request.sessionId, userId: user.id, organizationId: user.organization.id });
      reply.header('cache-control', 'no-store');
      return reply.code(204).send();
    },
  });

  /** « Se déconnecter de tous les appareils »: every session of the user ends, this one included. */
  app.route({
    ...route(endpoints.auth.logoutEverywhere),
    handler: async (request, reply) => {
      const user = currentUser(request);
      await sessions.endAll({ userId: user.id, organizationId: user.organization.id });
      await request.audit('auth.logout_all');
      reply.header('cache-control', 'no-store');
      return reply.code(204).send();
    },
  });

  /** « Mon compte »: a new password; the user's other sessions end at once. */
  app.route({
    ...route(endpoints.user.changePassword),
    bodyLimit: 8 * 1024,
    handler: async (request, reply) => {
      const user = currentUser(request);
      await auth.changePassword({ id: user.id, email: user.email, organizationId: user.organization.id }, request.body, {
        ip: request.ip,
        sessionId: request.sessionId ?? '',
      });
      await request.audit('auth.password_changed');
      reply.header('cache-control', 'no-store');
      return reply.code(204).send(null);
    },
  });
};
