import { changePasswordRequestSchema, errorResponseSchema } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthService } from '../modules/auth/auth-service.ts';
import type { SessionService } from '../modules/auth/session-service.ts';
import { currentUser } from '../plugins/authenticate.ts';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 429: errorResponseSchema };

/** The signed-in user's sessions (docs/api.md, Connexion et sessions): logout, logout everywhere, a new password. */
export const logoutRoutes: FastifyPluginAsyncZod<{
  sessions: Pick<SessionService, 'end' | 'endAll'>;
  auth: Pick<AuthService, 'changePassword'>;
}> = async (app, { sessions, auth }) => {
  /** POST /api/auth/logout: the token used is refused from now on, everywhere. */
  app.post('/auth/logout', async (request, reply) => {
    const user = currentUser(request);
    if (request.sessionId) await sessions.end({ id: request.sessionId, userId: user.id, organizationId: user.organization.id });
    reply.header('cache-control', 'no-store');
    return reply.code(204).send();
  });

  /** « Se déconnecter de tous les appareils »: every session of the user ends, this one included. */
  app.post('/auth/logout-all', async (request, reply) => {
    const user = currentUser(request);
    await sessions.endAll({ userId: user.id, organizationId: user.organization.id });
    await request.audit('auth.logout_all');
    reply.header('cache-control', 'no-store');
    return reply.code(204).send();
  });

  /** « Mon compte »: a new password; the user's other sessions end at once. */
  app.put(
    '/user/password',
    { bodyLimit: 8 * 1024, schema: { body: changePasswordRequestSchema, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      const user = currentUser(request);
      await auth.changePassword({ id: user.id, email: user.email, organizationId: user.organization.id }, request.body, {
        ip: request.ip,
        sessionId: request.sessionId ?? '',
      });
      await request.audit('auth.password_changed');
      reply.header('cache-control', 'no-store');
      return reply.code(204).send(null);
    },
  );
};
