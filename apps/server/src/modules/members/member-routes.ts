import { endpoints, type Member } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthService } from '../auth/auth-service.ts';
import type { MembersService } from './members-service.ts';
import type { AuditSubject } from '../audit/audit-service.ts';
import { changes } from '../../plugins/audit.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';

/** A member as the audit trail names them. */
export const memberSubject = (member: Member): AuditSubject => ({ type: 'member', id: member.id, name: member.name ?? member.email });

/** docs/api.md, Membres et invitations: the members of the caller's organization and their roles (who may call what: the role policy). */
export const memberRoutes: FastifyPluginAsyncZod<{ members: MembersService; auth: Pick<AuthService, 'confirmPassword'> }> = async (
  app,
  { members, auth },
) => {
  const organizationOf = (request: Parameters<typeof currentUser>[0]) => currentUser(request).organization.id;

  app.route({
    ...route(endpoints.members.list),
    handler: async (request) => ({ members: await members.list(organizationOf(request)) }),
  });

  app.route({
    ...route(endpoints.members.update),
    handler: async (request) => {
      const before = await members.get(organizationOf(request), request.params.id);
      const member = await members.change(organizationOf(request), request.params.id, request.body);
      if (before.role !== member.role) await request.audit('member.role_changed', memberSubject(member), changes(before, member, ['role']));
      if (JSON.stringify(before.scope) !== JSON.stringify(member.scope)) {
        await request.audit('member.scope_changed', memberSubject(member), changes(before, member, ['scope']));
      }
      return { member };
    },
  });

  app.route({
    ...route(endpoints.members.resetTwoFactor),
    bodyLimit: 8 * 1024,
    handler: async (request, reply) => {
      // A stolen admin session alone must not strip another admin's second factor: the password too.
      const admin = currentUser(request);
      await auth.confirmPassword(admin, request.body.password, request.ip);
      const { member, endedSessions } = await members.resetTwoFactor(admin, request.params.id);
      await request.audit('member.two_factor_reset', memberSubject(member), { endedSessions });
      return reply.code(204).send(null);
    },
  });

  app.route({
    ...route(endpoints.members.remove),
    handler: async (request, reply) => {
      const member = await members.get(organizationOf(request), request.params.id);
      await members.remove(organizationOf(request), request.params.id);
      await request.audit('member.removed', memberSubject(member), { email: member.email, role: member.role });
      return reply.code(204).send(null);
    },
  });
};
