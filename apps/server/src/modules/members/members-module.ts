import type { MemberScope, Role } from '@vigie/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { AuditService } from '../audit/audit-service.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { SessionEnded } from '../auth/session-service.ts';
import type { UserService } from '../auth/user-service.ts';
import type { OneEmail } from '../notifications/notification-service.ts';
import type { OrganizationService } from '../organizations/organization-service.ts';
import type { RateLimits } from '../rate-limits/rate-limits.ts';
import type { LiveEvent } from '../events/live-event.ts';
import { apiKeyRoutes } from './api-key-routes.ts';
import { createApiKeyService } from './api-key-service.ts';
import { invitationRoutes, publicInvitationRoutes } from './invitation-routes.ts';
import { createInvitationService } from './invitation-service.ts';
import { memberRoutes } from './member-routes.ts';
import { createMembersService } from './members-service.ts';
import { scimRoutes, scimTokenRoutes } from './scim-routes.ts';
import { createScimService } from './scim-service.ts';
import { createScimTokenService } from './scim-token-service.ts';

/** How long a key in use is trusted from memory before its row is read again (as accounts: see the auth module). */
const API_KEY_CACHE_TTL_MS = 5_000;

/**
 * The members module: the people of an organization, their roles, the invitations that bring
 * new ones in, the API keys that let programs act for it, and SCIM 2.0 for its identity provider
 * (its token, and the members it creates and removes); it keeps the invitations, the keys and the SCIM tokens.
 * In: the accounts (kept by the auth module: the members' rows, whether an address has an account,
 * the account of an accepted invitation, its first session, the password check of a sensitive
 * change, what to do when a session ends or an account changes), the organizations' names, the
 * rate limits, the audit trail, `sendEmail` and whether the bus is heard. Out: its services (the
 * keys' `authenticate` for the authentication hook), the public invitation page's routes, the
 * members', invitations' and keys' routes, and the bus's handlers that keep the keys in memory true.
 */
export function createMembersModule(options: {
  db: Database;
  now: () => Date;
  config: Pick<Config, 'publicUrl' | 'invitationTtlHours' | 'loginLimits'>;
  users: Pick<UserService, 'members' | 'hasAccount' | 'createMemberIn' | 'getById' | 'scimAccounts'>;
  auth: Pick<AuthService, 'confirmPassword'>;
  signIn: (userId: string) => Promise<string>;
  sessionEnded: SessionEnded;
  accountChanged: (organizationId: string, userId: string) => Promise<void>;
  organizations: Pick<OrganizationService, 'findById'>;
  rateLimits: RateLimits;
  audit: Pick<AuditService, 'byAccount' | 'recordBy'>;
  sendEmail: (message: OneEmail) => Promise<boolean>;
  /** Refuses a scope naming a site or region that is not the organization's (the sites module's). */
  validateScope: (organizationId: string, scope: MemberScope | null) => Promise<void>;
  /** A scope as the invitation e-mail names it (the sites module's). */
  describeScope?: (organizationId: string, scope: MemberScope | null) => Promise<string>;
  /** Whether this instance hears the others (a key revoked elsewhere); always, on the embedded database. */
  busLive?: () => boolean;
  /** The role of a person SCIM brings in: `defaultRole` of the organization's single sign-on, viewer without it. */
  defaultRole?: (organizationId: string) => Promise<Role>;
}) {
  const { config, users } = options;
  const members = createMembersService({
    accounts: users.members,
    now: () => new Date(),
    onSessionEnded: options.sessionEnded,
    onAccountChanged: options.accountChanged,
    sendEmail: options.sendEmail,
    publicUrl: config.publicUrl,
    validateScope: options.validateScope,
  });
  const invitations = createInvitationService({
    db: options.db,
    rateLimits: options.rateLimits,
    now: options.now,
    publicUrl: config.publicUrl,
    ttlHours: config.invitationTtlHours,
    limits: { maxPerIp: config.loginLimits.maxFailuresPerIp, windowSeconds: config.loginLimits.windowSeconds },
    hasAccount: (email) => users.hasAccount(email),
    createMember: (tx, member) => users.createMemberIn(tx, member),
    organizationName: async (organizationId) => (await options.organizations.findById(organizationId))?.name ?? '',
    sendEmail: options.sendEmail,
    validateScope: options.validateScope,
    ...(options.describeScope ? { describeScope: options.describeScope } : {}),
    signIn: async (userId, ip) => {
      const token = await options.signIn(userId);
      await options.audit.byAccount(userId, ip, 'member.joined');
      return token;
    },
  });

  const apiKeys = createApiKeyService({
    db: options.db,
    now: options.now,
    users,
    validateScope: options.validateScope,
    onRevoked: options.sessionEnded,
    trusted: options.busLive ?? (() => true),
    ttlMs: API_KEY_CACHE_TTL_MS,
  });

  const scimTokens = createScimTokenService({ db: options.db, now: options.now, rateLimits: options.rateLimits });
  const scim = createScimService({
    accounts: users.scimAccounts,
    members,
    accountChanged: options.accountChanged,
    defaultRole: options.defaultRole ?? (async () => 'viewer'),
    publicUrl: config.publicUrl,
  });

  const publicRoutes: FastifyPluginAsync = async (app) => {
    await app.register(publicInvitationRoutes, { invitations });
    await app.register(scimRoutes, { scim, tokens: scimTokens, audit: options.audit, publicUrl: config.publicUrl });
  };
  const routes: FastifyPluginAsync = async (app) => {
    await app.register(memberRoutes, { members, auth: options.auth });
    await app.register(invitationRoutes, { invitations });
    await app.register(apiKeyRoutes, { apiKeys });
    await app.register(scimTokenRoutes, { tokens: scimTokens });
  };
  return {
    members,
    invitations,
    apiKeys,
    publicRoutes,
    routes,
    services: { members, invitations, apiKeys, scim, scimTokens },
    handlers: {
      /** What another instance announced: a key revoked (it ends as a session of its id), an account changed. */
      liveEvent(event: LiveEvent) {
        if (event.type === 'session-ended') apiKeys.forgetKey(event.data.sessionId);
        if (event.type === 'account-changed') apiKeys.forgetCreator(event.organizationId, event.data.userId);
      },
      /** The bus was deaf for a while: a key may have been revoked meanwhile. */
      busResumed: () => apiKeys.clear(),
    },
  };
}

export type MembersModule = ReturnType<typeof createMembersModule>;
