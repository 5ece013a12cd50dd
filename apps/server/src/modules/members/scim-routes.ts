import { endpoints, SCIM_MEDIA_TYPE, SCIM_SCHEMAS, type ScimError as ScimErrorBody } from '@vigie/contract';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, type FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../../db/connection-errors.ts';
import { AppError, MESSAGES } from '../../errors.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';
import { forbiddenText } from '../../text-guard.ts';
import type { AuditService, AuditSubject } from '../audit/audit-service.ts';
import { scimDiscovery } from './scim-discovery.ts';
import { ScimError } from './scim-input.ts';
import type { ScimOutcome, ScimService } from './scim-service.ts';
import type { ScimCaller, ScimTokenService } from './scim-token-service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The organization's SCIM token a SCIM request was made with (docs/api.md, Provisionnement SCIM). */
    scim: ScimCaller | null;
  }
}

/** How the audit trail names the identity provider that acted with the SCIM token. */
export const SCIM_ACTOR_NAME = 'Provisionnement SCIM';
const CONTENT_TYPE = `${SCIM_MEDIA_TYPE}; charset=utf-8`;

/** docs/api.md, Provisionnement SCIM: the organization's token, made (and remade) by an admin, never with an API key. */
export const scimTokenRoutes: FastifyPluginAsyncZod<{ tokens: ScimTokenService }> = async (app, { tokens }) => {
  app.route({
    ...route(endpoints.scimToken.create),
    handler: async (request, reply) => {
      const user = currentUser(request);
      const created = await tokens.create(user);
      // The trail keeps the token's beginning, never its secret.
      await request.audit(
        'scim.token_created',
        { type: 'organization', id: user.organization.id, name: user.organization.name },
        {
          prefix: created.prefix,
          replaced: created.replaced,
        },
      );
      return reply.code(201).send({ token: created.token });
    },
  });
};

function scimError(status: number, detail: string, scimType?: string): ScimErrorBody {
  return { schemas: [SCIM_SCHEMAS.error], status: String(status), ...(scimType ? { scimType } : {}), detail };
}

const FRAMEWORK_DETAILS: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Type de contenu non pris en charge : envoyez du JSON (Content-Type: application/scim+json).'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, MESSAGES.bodyTooLarge],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, MESSAGES.emptyJson],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, MESSAGES.invalidJson],
};

/** Every failure of a SCIM route as a SCIM error: `status` as text, `scimType` for a 400 or 409, `detail` in French. */
function answerScimError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  reply.type(CONTENT_TYPE);
  if (error instanceof AppError) {
    const scimType = error instanceof ScimError ? (error as ScimError).scimType : undefined;
    return reply
      .code(error.statusCode)
      .headers(error.headers)
      .send(scimError(error.statusCode, error.message, scimType));
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const first = error.validation[0];
    return reply.code(400).send(scimError(400, first?.message ?? 'Requête invalide.', 'invalidValue'));
  }
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'Base de données indisponible');
    return reply.code(503).header('retry-after', '5').send(scimError(503, MESSAGES.databaseUnavailable));
  }
  const known = error.code ? FRAMEWORK_DETAILS[error.code] : undefined;
  if (known) return reply.code(known[0]).send(scimError(known[0], known[1], known[0] === 400 ? 'invalidSyntax' : undefined));
  if (error instanceof SyntaxError) return reply.code(400).send(scimError(400, MESSAGES.invalidJson, 'invalidSyntax'));
  const status = error.statusCode ?? 500;
  if (status < 500) return reply.code(status).send(scimError(status, 'Requête invalide.'));
  request.log.error({ err: error }, 'Erreur non prévue');
  return reply.code(500).send(scimError(500, MESSAGES.internal));
}

/**
 * docs/api.md, Provisionnement SCIM: SCIM 2.0 for the organization's identity provider, with its
 * SCIM token (public routes: no session, no API key). Answers in `application/scim+json`, reads it
 * or JSON; each error is a SCIM error in French; each change is in the audit trail.
 */
export const scimRoutes: FastifyPluginAsyncZod<{
  scim: ScimService;
  tokens: ScimTokenService;
  audit: Pick<AuditService, 'recordBy'>;
  publicUrl: string;
}> = async (app, { scim, tokens, audit, publicUrl }) => {
  const discovery = scimDiscovery(publicUrl);
  app.decorateRequest('scim', null);
  app.setErrorHandler(answerScimError);
  // SCIM's own media type, read as JSON is (UTF-8, no NUL nor half character).
  app.addContentTypeParser(SCIM_MEDIA_TYPE, { parseAs: 'string' }, (request, body, done) => {
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase();
    if (charset && charset !== 'utf-8' && charset !== 'utf8') {
      return done(new AppError(415, 'Jeu de caractères non pris en charge : envoyez du JSON en UTF-8 (charset=utf-8).'));
    }
    if (body === '' && !request.routeOptions.schema?.body) return done(null, undefined);
    let value: unknown;
    try {
      value = JSON.parse(body as string);
    } catch {
      return done(new ScimError(400, body === '' ? MESSAGES.emptyJson : MESSAGES.invalidJson, 'invalidSyntax'));
    }
    const forbidden = forbiddenText(value);
    return forbidden ? done(new ScimError(400, forbidden, 'invalidValue')) : done(null, value);
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.type(CONTENT_TYPE);
    request.scim = await tokens.authenticate(request.headers.authorization, request.ip);
  });

  const callerOf = (request: FastifyRequest): ScimCaller => {
    if (!request.scim) throw new AppError(401, 'Jeton SCIM manquant.');
    return request.scim;
  };
  /** Files what the identity provider did, named by its token. */
  const record = async (request: FastifyRequest, outcome: ScimOutcome) => {
    const caller = callerOf(request);
    const by = audit.recordBy(
      { id: caller.tokenId, name: SCIM_ACTOR_NAME, email: caller.prefix, organization: { id: caller.organizationId } },
      request.ip,
    );
    const subject: AuditSubject = { type: 'member', id: outcome.user.id, name: outcome.user.displayName ?? outcome.user.userName };
    if (outcome.kind === 'created') await by('member.provisioned', subject, { email: outcome.user.userName, role: outcome.role });
    if (outcome.kind === 'updated') await by('member.scim_updated', subject, { changed: outcome.changed });
    if (outcome.kind === 'removed') await by('member.deprovisioned', subject, { email: outcome.user.userName });
  };

  app.route({ ...route(endpoints.scim.serviceProviderConfig), handler: async () => discovery.serviceProviderConfig });
  app.route({ ...route(endpoints.scim.resourceTypes), handler: async () => discovery.resourceTypes });
  app.route({ ...route(endpoints.scim.schemas), handler: async () => discovery.schemas });

  app.route({
    ...route(endpoints.scim.listUsers),
    handler: async (request) => scim.list(callerOf(request).organizationId, request.query),
  });
  app.route({
    ...route(endpoints.scim.getUser),
    handler: async (request) => scim.get(callerOf(request).organizationId, request.params.id),
  });
  app.route({
    ...route(endpoints.scim.createUser),
    handler: async (request, reply) => {
      const outcome = await scim.create(callerOf(request).organizationId, request.body);
      await record(request, outcome);
      return reply.code(201).header('location', outcome.user.meta.location).send(outcome.user);
    },
  });
  app.route({
    ...route(endpoints.scim.replaceUser),
    handler: async (request) => {
      const outcome = await scim.replace(callerOf(request).organizationId, request.params.id, request.body);
      await record(request, outcome);
      return outcome.user;
    },
  });
  app.route({
    ...route(endpoints.scim.patchUser),
    handler: async (request) => {
      const outcome = await scim.patch(callerOf(request).organizationId, request.params.id, request.body);
      await record(request, outcome);
      return outcome.user;
    },
  });
  app.route({
    ...route(endpoints.scim.deleteUser),
    handler: async (request, reply) => {
      const user = await scim.remove(callerOf(request).organizationId, request.params.id);
      await record(request, { kind: 'removed', user });
      return reply.code(204).send(null);
    },
  });
};
