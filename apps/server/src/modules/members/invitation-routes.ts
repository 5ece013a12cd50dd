import { endpoints, type Invitation } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuditSubject } from '../audit/audit-service.ts';
import type { InvitationService } from './invitation-service.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';

const invitationSubject = (invitation: Invitation): AuditSubject => ({ type: 'invitation', id: invitation.id, name: invitation.email });

/** docs/api.md, Membres et invitations: an organization's pending invitations (who may call what: the role policy). */
export const invitationRoutes: FastifyPluginAsyncZod<{ invitations: InvitationService }> = async (app, { invitations }) => {
  app.route({
    ...route(endpoints.invitations.list),
    handler: async (request) => ({ invitations: await invitations.listPending(currentUser(request).organization.id) }),
  });

  app.route({
    ...route(endpoints.invitations.create),
    handler: async (request, reply) => {
      const created = await invitations.create(currentUser(request), request.body);
      // The trail says whether the link left by e-mail or was handed to the admin (never the link itself).
      await request.audit('member.invited', invitationSubject(created.invitation), {
        role: created.invitation.role,
        emailSent: created.emailSent,
      });
      return reply.code(201).send(created);
    },
  });

  app.route({
    ...route(endpoints.invitations.resend),
    handler: async (request) => {
      const resent = await invitations.resend(currentUser(request), request.params.id);
      await request.audit('member.invitation_resent', invitationSubject(resent.invitation), { emailSent: resent.emailSent });
      return resent;
    },
  });

  app.route({
    ...route(endpoints.invitations.remove),
    handler: async (request, reply) => {
      const organizationId = currentUser(request).organization.id;
      const pending = (await invitations.listPending(organizationId)).find((invitation) => invitation.id === request.params.id);
      await invitations.revoke(organizationId, request.params.id);
      await request.audit(
        'member.invitation_revoked',
        pending ? invitationSubject(pending) : { type: 'invitation', id: request.params.id, name: null },
      );
      return reply.code(204).send(null);
    },
  });
};

/**
 * The two calls of the acceptance page, before any account exists: the link's secret is the
 * credential, so they are throttled per address like logins.
 */
export const publicInvitationRoutes: FastifyPluginAsyncZod<{ invitations: InvitationService }> = async (app, { invitations }) => {
  app.route({
    ...route(endpoints.invitations.preview),
    bodyLimit: 8 * 1024,
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { invitation: await invitations.preview(request.body.token, request.ip) };
    },
  });

  app.route({
    ...route(endpoints.invitations.accept),
    bodyLimit: 8 * 1024,
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return reply.code(201).send({ accessToken: await invitations.accept(request.body, request.ip) });
    },
  });
};
