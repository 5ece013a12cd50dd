import { endpoints } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthService } from './auth-service.ts';
import type { TotpService } from './totp-service.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';

/** « Mon compte »: one's own two-factor authentication; « Équipe »: the organization's requirement for admins. */
export const totpRoutes: FastifyPluginAsyncZod<{ totp: TotpService; auth: Pick<AuthService, 'confirmPassword'> }> = async (
  app,
  { totp, auth },
) => {
  app.route({
    ...route(endpoints.totp.setup),
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return totp.setup(currentUser(request).id);
    },
  });

  app.route({
    ...route(endpoints.totp.enable),
    bodyLimit: 4 * 1024,
    handler: async (request, reply) => {
      const recoveryCodes = await totp.enable(currentUser(request).id, request.body.code);
      await request.audit('auth.totp_enabled');
      reply.header('cache-control', 'no-store');
      return { recoveryCodes };
    },
  });

  app.route({
    ...route(endpoints.totp.disable),
    bodyLimit: 8 * 1024,
    handler: async (request, reply) => {
      const user = currentUser(request);
      await auth.confirmPassword(user, request.body.password, request.ip);
      await totp.disable(user.id);
      await request.audit('auth.totp_disabled');
      return reply.code(204).send(null);
    },
  });

  app.route({
    ...route(endpoints.totp.recoveryCodesLeft),
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { remaining: await totp.remainingRecoveryCodes(currentUser(request).id) };
    },
  });

  app.route({
    ...route(endpoints.totp.renewRecoveryCodes),
    bodyLimit: 8 * 1024,
    handler: async (request, reply) => {
      const user = currentUser(request);
      await auth.confirmPassword(user, request.body.password, request.ip);
      const recoveryCodes = await totp.renewRecoveryCodes(user.id);
      await request.audit('auth.totp_recovery_codes_renewed');
      reply.header('cache-control', 'no-store');
      return { recoveryCodes };
    },
  });

  app.route({
    ...route(endpoints.organizationSecurity.get),
    handler: async (request) => {
      const state = await totp.state(currentUser(request).id);
      return { policy: { requireTotpForAdmins: state?.requireTotpForAdmins ?? false } };
    },
  });

  app.route({
    ...route(endpoints.organizationSecurity.update),
    handler: async (request) => {
      const user = currentUser(request);
      const before = (await totp.state(user.id))?.requireTotpForAdmins ?? false;
      await totp.setRequirement({ id: user.id, organizationId: user.organization.id }, request.body.requireTotpForAdmins);
      if (before !== request.body.requireTotpForAdmins) {
        await request.audit(
          'organization.security_updated',
          { type: 'organization', id: user.organization.id, name: user.organization.name },
          {
            requireTotpForAdmins: { from: before, to: request.body.requireTotpForAdmins },
          },
        );
      }
      return { policy: { requireTotpForAdmins: request.body.requireTotpForAdmins } };
    },
  });
};
