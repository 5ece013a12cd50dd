import type { FastifyPluginAsync } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { DatabaseHandle } from '../../db/database.ts';
import type { AuditService } from '../audit/audit-service.ts';
import type { Announced } from '../events/events-module.ts';
import type { LiveEvent } from '../events/live-event.ts';
import type { OneEmail } from '../notifications/notification-service.ts';
import type { OrganizationService } from '../organizations/organization-service.ts';
import type { RateLimits } from '../rate-limits/rate-limits.ts';
import { createAccountCache } from './account-cache.ts';
import { authRoutes } from './auth-routes.ts';
import { createAuthService } from './auth-service.ts';
import { createLoginLimiter } from './login-limiter.ts';
import { logoutRoutes } from './logout-routes.ts';
import { passwordResetRoutes } from './password-reset-routes.ts';
import { createPasswordResetService, PASSWORD_RESET_MAX_PER_EMAIL } from './password-reset-service.ts';
import { createSecretBox } from './secret-box.ts';
import { createSessionService, type SessionEnded } from './session-service.ts';
import { createTokenService, type TokenService } from './token-service.ts';
import { totpRoutes } from './totp-routes.ts';
import { createTotpService } from './totp-service.ts';
import { userRoutes } from './user-routes.ts';
import { createUserService } from './user-service.ts';

/**
 * How long a user or an open session is trusted from memory before its row is read again: the
 * longest a change can go unseen by an instance that missed the bus's message about it.
 */
const ACCOUNT_CACHE_TTL_MS = 5_000;

/**
 * The auth module: accounts (users, passwords), sign-in with its limits, sessions and their
 * tokens, two-factor authentication and recovery codes, forgotten passwords; it keeps the users,
 * sessions, recovery codes and password resets.
 * In: the organizations (created with an account, their requirement of a second factor), the
 * rate limits, the audit trail, `tell` (announces a change to every instance) and `sendEmail`
 * (the notifications' outbox). Out: its services; `sessionEnded`, `accountChanged` and `signIn`
 * for the members module; the handlers of the bus (`liveEvent`, `busResumed`) that keep the
 * accounts in memory true; the public and signed-in routes.
 */
export function createAuthModule(options: {
  config: Config;
  database: Pick<DatabaseHandle, 'db' | 'pubsub'>;
  jwtSecret: string;
  logger: Logger;
  /** The clock of the audit trail's sign-ins and of password resets. */
  now: () => Date;
  tokens?: TokenService | undefined;
  /** The clock of sessions and tokens (tests of idle and absolute lifetimes); the system clock by default. */
  sessionClock?: (() => Date) | undefined;
  organizations: Pick<OrganizationService, 'ensure' | 'findById' | 'setRequireTotpForAdmins' | 'ensureOperators'>;
  rateLimits: RateLimits;
  audit: Pick<AuditService, 'loginSucceeded' | 'loginFailed' | 'signedInFrom' | 'byAccount'>;
  tell: (announced: Announced) => Promise<void>;
  sendEmail: (message: OneEmail) => Promise<boolean>;
  /** Whether single sign-on is compulsory for this address (the sso module's): its password is then refused. */
  passwordRefused?: (email: string) => Promise<boolean>;
}) {
  const { config, database, logger, now, audit } = options;
  const db = database.db;
  const users = createUserService({ db, organizations: options.organizations });
  // Sessions and their tokens share a clock, which is not the rules' clock that tests move.
  const sessionClock = options.sessionClock ?? (() => new Date());
  const tokens = options.tokens ?? createTokenService(options.jwtSecret, () => sessionClock().getTime());
  // Accounts and sessions in memory (see `createAccountCache`): a change is forgotten as it is made,
  // so a logout or a new role applies from the very next request. Instances sharing PostgreSQL
  // announce their changes on the bus, which each instance hears within milliseconds; while its bus
  // is down an instance reads every request from the database, and it starts afresh once it hears.
  const accountCache = createAccountCache({
    now: () => sessionClock().getTime(),
    ttlMs: ACCOUNT_CACHE_TTL_MS,
    maxEntries: 10_000,
    trusted: () => database.pubsub.live(),
  });
  const sessionEnded: SessionEnded = async ({ organizationId, userId, sessionId }) => {
    accountCache.forgetSession(sessionId);
    await options.tell([{ organizationId, type: 'session-ended', data: { userId, sessionId } }]);
  };
  /** One user, or without one every user of the organization. */
  const forgetAccount = (organizationId: string, userId: string | null) => {
    if (userId) accountCache.forgetUser(userId);
    else accountCache.forgetOrganization(organizationId);
  };
  const accountChanged = async (organizationId: string, userId?: string) => {
    forgetAccount(organizationId, userId ?? null);
    await options.tell([{ organizationId, type: 'account-changed', data: { userId: userId ?? null } }]);
  };
  /** The signed-in user of a request (see `accountCache`). */
  const accounts = {
    getById: (id: string) => accountCache.user(id, () => users.getById(id)),
  };
  const sessions = createSessionService({
    db,
    now: sessionClock,
    lifetimes: config.sessions,
    onEnded: sessionEnded,
    cache: accountCache,
  });
  // Codes of the authenticator app follow the clock of sessions (moved by the tests of codes).
  // Their secrets are sealed with TOTP_KEY, or a key derived from the signing secret: both live outside the database.
  const box = createSecretBox(config.totpKey ?? options.jwtSecret, 'totp-secrets', config.totpPreviousKeys);
  const totp = createTotpService({
    db,
    now: sessionClock,
    box,
    logger,
    onAccountChanged: accountChanged,
    organizations: options.organizations,
  });
  // The owner's usual addresses are those of the sign-ins in the audit trail, on the trail's clock.
  const limiter = createLoginLimiter(config.loginLimits, options.rateLimits, audit, now);
  const auth = createAuthService({
    users,
    tokens,
    limiter,
    sessions,
    audit,
    totp,
    ...(options.passwordRefused ? { passwordRefused: options.passwordRefused } : {}),
  });
  const passwordResets = createPasswordResetService({
    db,
    rateLimits: options.rateLimits,
    now,
    publicUrl: config.publicUrl,
    ttlMinutes: config.passwordResetTtlMinutes,
    limits: {
      maxPerIp: config.loginLimits.maxFailuresPerIp,
      maxPerEmail: PASSWORD_RESET_MAX_PER_EMAIL,
      windowSeconds: config.loginLimits.windowSeconds,
    },
    sendEmail: options.sendEmail,
    endSessions: async (user) => {
      const ended = await sessions.endAll(user);
      await audit.byAccount(user.userId, null, 'auth.password_reset');
      return ended;
    },
    logger,
  });

  const publicRoutes: FastifyPluginAsync = async (app) => {
    await app.register(authRoutes, { auth });
    await app.register(passwordResetRoutes, { passwordResets });
  };
  const routes: FastifyPluginAsync = async (app) => {
    await app.register(logoutRoutes, { sessions, auth });
    await app.register(userRoutes);
    await app.register(totpRoutes, { totp, auth });
  };

  return {
    users,
    accounts,
    tokens,
    auth,
    sessions,
    totp,
    passwordResets,
    sessionEnded,
    accountChanged,
    /** Opens a session for a new member, as a login does; its access token. */
    async signIn(userId: string): Promise<string> {
      return tokens.issue(userId, (await sessions.open(userId)).id);
    },
    /** Opens a session through single sign-on (kept when the organization makes it compulsory); its access token. */
    async signInViaSso(userId: string): Promise<string> {
      const session = await sessions.open(userId, false, true);
      return tokens.issue(userId, session.id, session);
    },
    handlers: {
      /** What another instance announced: a session ended, an account changed. */
      liveEvent(event: LiveEvent) {
        if (event.type === 'session-ended') accountCache.forgetSession(event.data.sessionId);
        if (event.type === 'account-changed') forgetAccount(event.organizationId, event.data.userId);
      },
      /** The bus was deaf for a while: what it missed may have changed any account. */
      busResumed: () => accountCache.clear(),
    },
    publicRoutes,
    routes,
    services: { users, accounts, tokens, auth, sessions, totp, passwordResets },
    close: () => passwordResets.idle(),
  };
}

export type AuthModule = ReturnType<typeof createAuthModule>;
