import {
  errorResponseSchema,
  idParamsSchema,
  memberResponseSchema,
  membersResponseSchema,
  updateMemberRequestSchema,
} from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { MembersService } from '../modules/members/members-service.ts';
import { currentUser } from '../plugins/authenticate.ts';

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
};

/** PRODUCT §9: the members of the caller's organization and their roles (who may call what: the role policy). */
export const memberRoutes: FastifyPluginAsyncZod<{ members: MembersService }> = async (app, { members }) => {
  const organizationOf = (request: Parameters<typeof currentUser>[0]) => currentUser(request).organization.id;

  app.get('/members', { schema: { response: { 200: membersResponseSchema, ...errors } } }, async (request) => ({
    members: await members.list(organizationOf(request)),
  }));

  app.put(
    '/members/:id',
    { schema: { params: idParamsSchema, body: updateMemberRequestSchema, response: { 200: memberResponseSchema, ...errors } } },
    async (request) => ({ member: await members.changeRole(organizationOf(request), request.params.id, request.body.role) }),
  );

  app.delete('/members/:id', { schema: { params: idParamsSchema, response: { 204: z.null(), ...errors } } }, async (request, reply) => {
    await members.remove(organizationOf(request), request.params.id);
    return reply.code(204).send(null);
  });
};
