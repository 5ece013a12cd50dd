import type { FastifyPluginAsync } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { createSecretBox } from '../auth/secret-box.ts';
import { createSsoProvider } from './sso-provider.ts';
import { publicSsoRoutes, ssoSettingsRoutes } from './sso-routes.ts';
import { createSsoService } from './sso-service.ts';

/**
 * The sso module: single sign-on with OpenID Connect for an organization (docs/api.md,
 * Authentification unique); it keeps the organization_sso, sso_domains, sso_logins and sso_codes tables.
 * In: the accounts (kept by the auth module: the account of an address, a new one without a
 * password, a session opened through single sign-on, the end of the password sessions of some
 * domains), the audit trail's sign-ins. Out: its service (`passwordRefused` for the auth module's
 * password sign-in), the public sign-in routes and the admins' settings routes.
 */
export function createSsoModule(options: {
  db: Database;
  now: () => Date;
  logger: Logger;
  config: Pick<Config, 'publicUrl' | 'webhookAllowPrivate' | 'totpKey' | 'totpPreviousKeys'>;
  jwtSecret: string;
  accounts: Parameters<typeof createSsoService>[0]['accounts'];
  signedIn?: (userId: string, ip: string) => Promise<void>;
}) {
  const { config } = options;
  // Client secrets are sealed like the authenticator apps' secrets, with a key outside the database.
  const box = createSecretBox(config.totpKey ?? options.jwtSecret, 'sso-client-secrets', config.totpPreviousKeys);
  const sso = createSsoService({
    db: options.db,
    now: options.now,
    box,
    provider: createSsoProvider({ allowPrivate: config.webhookAllowPrivate }),
    publicUrl: config.publicUrl,
    logger: options.logger,
    accounts: options.accounts,
    ...(options.signedIn ? { signedIn: options.signedIn } : {}),
  });

  const publicRoutes: FastifyPluginAsync = async (app) => {
    await app.register(publicSsoRoutes, { sso, publicUrl: config.publicUrl });
  };
  const routes: FastifyPluginAsync = async (app) => {
    await app.register(ssoSettingsRoutes, { sso });
  };
  return { sso, publicRoutes, routes, services: { sso } };
}

export type SsoModule = ReturnType<typeof createSsoModule>;
