import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import type { TokenService } from './modules/auth/token-service.ts';
import { createAuthenticate } from './plugins/authenticate.ts';
import { registerErrorHandler } from './plugins/error-handler.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerWebApp } from './plugins/web-app.ts';
import { authRoutes } from './routes/auth.ts';
import { deviceProtocolRoutes } from './routes/device-protocol.ts';
import { deviceRoutes } from './routes/devices.ts';
import { healthRoutes } from './routes/health.ts';
import { organizationRoutes } from './routes/organization.ts';
import { streamRoutes } from './routes/stream.ts';
import { trashRoutes } from './routes/trash.ts';
import { userRoutes } from './routes/users.ts';
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
}

export const API_BODY_LIMIT = 64 * 1024;

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    trustProxy: config.trustProxy,
    bodyLimit: API_BODY_LIMIT,
    // Close idle keep-alive sockets at shutdown; in-flight requests still finish.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Only JSON is spoken: anything else is 415 rather than a confusing validation error.
  app.removeContentTypeParser('text/plain');
  // Clients send `Content-Type: application/json` on every call (spec §7), DELETE included: an
  // empty body is no body for a route that takes none, and a clear 400 for one that needs it.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' && !request.routeOptions.schema?.body) return done(null, undefined);
    parseJson(request, body as string, done);
  });
  app.decorateRequest('user', null);
  app.decorateRequest('device', null);

  registerErrorHandler(app);
  await registerSecurityHeaders(app);

  const services = createServices(options);
  app.decorate('services', services);
  // Readings queued before the database closes are committed first.
  app.addHook('onClose', async () => services.close());
  const { devices, provisioning, telemetry } = services;
  const authenticate = createAuthenticate({ tokens: services.tokens, users: services.users });

  await app.register(
    async (api) => {
      await api.register(healthRoutes, { ping: () => database.ping() });
      await api.register(authRoutes, { auth: services.auth });
      await api.register(deviceProtocolRoutes, {
        provisioning,
        credentials: services.credentials,
        telemetry: services.telemetry,
        protocol: services.protocol,
      });
      await api.register(async (secured) => {
        secured.addHook('onRequest', authenticate);
        await secured.register(userRoutes);
        await secured.register(organizationRoutes, { organizations: services.organizations });
        await secured.register(streamRoutes, { events: services.events });
        await secured.register(trashRoutes, { trash: services.trash });
        await secured.register(deviceRoutes, {
          resource: 'emitter',
          service: devices.emitter,
          provisioning,
          telemetry,
        });
        await secured.register(deviceRoutes, {
          resource: 'sensor',
          service: devices.sensor,
          provisioning,
          telemetry,
        });
      });
    },
    { prefix: '/api' },
  );

  await registerWebApp(app, config.webDist);
  return app;
}
