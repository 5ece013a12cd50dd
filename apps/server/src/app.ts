import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyEtag from '@fastify/etag';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Config } from './config.ts';
import { AppError, badRequest } from './errors.ts';
import { forbiddenText } from './text-guard.ts';
import type { DatabaseHandle } from './db/database.ts';
import type { TokenService } from './modules/auth/token-service.ts';
import { createAuthenticate } from './plugins/authenticate.ts';
import { operatorOnly, refuseWhileSuspended } from './plugins/operator.ts';
import { enforcePermissions, PERMISSIONS } from './plugins/permissions.ts';
import { installScope } from './plugins/scope.ts';
import { scopeDepsOf } from './scope-deps.ts';
import { registerAudit } from './plugins/audit.ts';
import { registerErrorHandler } from './plugins/error-handler.ts';
import { answerClientError, answerFrameworkError, MAX_PARAM_LENGTH, registerHttpErrors } from './plugins/http-errors.ts';
import { registerClientAddressCheck, trustedProxies } from './plugins/client-address.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { API_REFERENCE_PREFIX, openApiRoutes, registerOpenApi } from './plugins/openapi.ts';
import { enforceCatalogue } from './plugins/endpoint-route.ts';
import { registerMetrics } from './plugins/metrics.ts';
import { registerWebApp } from './plugins/web-app.ts';
import { healthRoutes } from './plugins/health-routes.ts';
import { createServices, type Services } from './services.ts';

// Validation messages that a schema does not word itself come in French.
z.config(z.locales.fr());

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

export interface AppOptions {
  config: Config;
  database: DatabaseHandle;
  jwtSecret: string;
  logger: Logger;
  /** Overrides the clock of issued and verified tokens (tests of expiry). */
  tokens?: TokenService;
  /** The clock of time-based rules (the trash); the system clock by default. */
  now?: () => Date;
  /** The clock of sessions and tokens; the system clock by default. */
  sessionClock?: () => Date;
  /** The clock of the live stream's replay window, in milliseconds; the system clock by default. */
  replayClock?: () => number;
  /** Counts this app's rate limits apart from other apps on the same database (tests); shared by default. */
  rateLimitScope?: string;
}

export const API_BODY_LIMIT = 64 * 1024;

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    trustProxy: trustedProxies(config.trustProxy),
    bodyLimit: API_BODY_LIMIT,
    // Close idle keep-alive sockets at shutdown; in-flight requests still finish.
    forceCloseConnections: 'idle',
    // What the HTTP parser and the router refuse before any route runs, and a request that comes
    // while the server stops (503, registerHttpErrors), answer `{message}` in French too.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    clientErrorHandler: answerClientError,
    frameworkErrors: answerFrameworkError,
    // Each request is logged at `debug` (below): at `info`, a shop of sensors fills the log with
    // « request completed » lines, and what matters (errors, jobs, refusals) drowns in them.
    logController: new LogController({ disableRequestLogging: true }),
  });
  app.addHook('onResponse', async (request, reply) => {
    if (!options.logger.isLevelEnabled('debug')) return;
    request.log.debug(
      { method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      'Requête traitée',
    );
  });
  registerHttpErrors(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Only JSON is spoken: anything else is 415 rather than a confusing validation error.
  app.removeContentTypeParser('text/plain');
  // Clients send `Content-Type: application/json` on every call, DELETE included: an
  // empty body is no body for a route that takes none, and a clear 400 for one that needs it.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // JSON is UTF-8 (RFC 8259): a body declared in another charset would be read wrongly.
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase();
    if (charset && charset !== 'utf-8' && charset !== 'utf8') {
      return done(new AppError(415, 'Jeu de caractères non pris en charge : envoyez du JSON en UTF-8 (charset=utf-8).'));
    }
    if (body === '' && !request.routeOptions.schema?.body) return done(null, undefined);
    parseJson(request, body as string, (error, value) => {
      if (error) return done(error);
      const forbidden = forbiddenText(value);
      return forbidden ? done(badRequest(forbidden)) : done(null, value);
    });
  });
  // The same guard for what comes in the address: no NUL, no half character, in any parameter.
  app.addHook('preValidation', async (request) => {
    const forbidden = forbiddenText(request.query) ?? forbiddenText(request.params);
    if (forbidden) throw badRequest(forbidden);
  });
  app.decorateRequest('user', null);
  app.decorateRequest('device', null);
  app.decorateRequest('sessionId', null);
  app.decorateRequest('apiKey', null);

  registerErrorHandler(app);
  registerClientAddressCheck(app, config.trustProxy);
  await registerSecurityHeaders(app);
  // Conditional GET: a weak ETag of the body (the same for its compressed copies), and 304 when the
  // client already has it. Registered before compression, whose hook turns the body into a stream.
  await app.register(fastifyEtag, { weak: true });
  // What the API answers belongs to one account: a browser may keep it and ask again, no shared cache may.
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith('/api/')) reply.header('cache-control', 'private, no-cache');
  });
  // Answers of 1 KiB or more in Brotli or gzip, as the client accepts; the live stream
  // (text/event-stream) is never compressed, and the web app's files come precompressed.
  await app.register(fastifyCompress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  });

  const services = createServices(options);
  app.decorate('services', services);
  registerAudit(app, services.audit);
  // Readings queued before the database closes are committed first.
  app.addHook('onClose', async () => services.close());
  const secrets = await services.totp.sealStoredSecrets();
  if (secrets.sealed > 0) app.log.info({ sealed: secrets.sealed }, 'Secrets de double authentification scellés avec la clé du serveur');
  if (secrets.unreadable > 0) {
    app.log.error(
      { accounts: secrets.unreadable },
      'Des secrets de double authentification ne s’ouvrent avec aucune clé de ce serveur\u202F: ces comptes ne peuvent se connecter qu’avec leurs codes de secours. Donnez à toutes les instances la même TOTP_KEY (sans elle, le même JWT_SECRET)\u202F; après un changement de clé, mettez l’ancienne dans TOTP_PREVIOUS_KEYS.',
    );
  }
  const {
    auth,
    members,
    audit,
    organizations,
    events,
    devices,
    telemetry,
    sites,
    alerts,
    notifications,
    reports,
    insights,
    lorawan,
    tasks,
    readingsExport,
    sso,
  } = services.modules;
  const authenticate = createAuthenticate({
    tokens: services.tokens,
    users: services.accounts,
    sessions: services.sessions,
    apiKeys: services.apiKeys,
  });

  // Prometheus's figures at /metrics (a bearer METRICS_TOKEN), counted on every route registered after.
  registerMetrics(app, { token: config.metricsToken, onStored: (handler) => telemetry.onStored(handler) });
  // Before the routes: each must be in the endpoint catalogue (and each endpoint served), or the
  // app does not start; the OpenAPI document collects them as they register.
  enforceCatalogue(app, [API_REFERENCE_PREFIX]);
  // What holds a member who sees some sites only to them (docs/api.md, Régions et portées).
  installScope(app, scopeDepsOf(services));
  await registerOpenApi(app);
  await app.register(
    async (api) => {
      await api.register(openApiRoutes);
      await api.register(healthRoutes, { ping: () => database.ping() });
      // Each module's public routes, then its routes for signed-in members.
      for (const routes of [
        auth.publicRoutes,
        sso.publicRoutes,
        members.publicRoutes,
        devices.publicRoutes,
        lorawan.publicRoutes,
        notifications.publicRoutes,
      ])
        await api.register(routes);
      // The operator's routes (docs/api.md, Opérateur): 404 to anyone else, signed in or not.
      await api.register(async (operator) => {
        operator.addHook('onRequest', operatorOnly(authenticate));
        await operator.register(organizations.operatorRoutes);
      });
      await api.register(async (secured) => {
        secured.addHook('onRequest', authenticate);
        secured.addHook('preHandler', events.stampPosition);
        // Before any route: each one must be in the table of roles, or the app does not start.
        enforcePermissions(secured, PERMISSIONS);
        // A suspended organization's people read and change nothing (docs/api.md, Opérateur).
        secured.addHook('preHandler', refuseWhileSuspended(organizations.organizations));
        for (const module of [
          auth,
          sso,
          members,
          audit,
          organizations,
          events,
          devices,
          telemetry,
          sites,
          alerts,
          notifications,
          reports,
          insights,
          lorawan,
          tasks,
          readingsExport,
        ]) {
          await secured.register(module.routes);
        }
      });
    },
    { prefix: '/api' },
  );

  await registerWebApp(app, config.webDist);
  return app;
}
