import type { MemberScope } from '@vigie/contract';
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
import { invitationRoutes, publicInvitationRoutes } from './invitation-routes.ts';
import { createInvitationService } from './invitation-service.ts';
import { memberRoutes } from './member-routes.ts';
import { createMembersService } from './members-service.ts';

/**
 * The members module: the people of an organization, their roles, and the invitations that bring
 * new ones in; it keeps the invitations.
 * In: the accounts (kept by the auth module: the members' rows, whether an address has an account,
 * the account of an accepted invitation, its first session, the password check of a sensitive
 * change, what to do when a session ends or an account changes), the organizations' names, the
 * rate limits, the audit trail and `sendEmail`. Out: its services, the public invitation page's
 * routes and the members' and invitations' routes.
 */
export function createMembersModule(options: {
  db: Database;
  now: () => Date;
  config: Pick<Config, 'publicUrl' | 'invitationTtlHours' | 'loginLimits'>;
  users: Pick<UserService, 'members' | 'hasAccount' | 'createMemberIn'>;
  auth: Pick<AuthService, 'confirmPassword'>;
  signIn: (userId: string) => Promise<string>;
  sessionEnded: SessionEnded;
  accountChanged: (organizationId: string, userId: string) => Promise<void>;
  organizations: Pick<OrganizationService, 'findById'>;
  rateLimits: RateLimits;
  audit: Pick<AuditService, 'byAccount'>;
  sendEmail: (message: OneEmail) => Promise<boolean>;
  /** Refuses a scope naming a site or region that is not the organization's (the sites module's). */
  validateScope: (organizationId: string, scope: MemberScope | null) => Promise<void>;
  /** A scope as the invitation e-mail names it (the sites module's). */
  describeScope?: (organizationId: string, scope: MemberScope | null) => Promise<string>;
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

  const publicRoutes: FastifyPluginAsync = async (app) => {
    await app.register(publicInvitationRoutes, { invitations });
  };
  const routes: FastifyPluginAsync = async (app) => {
    await app.register(memberRoutes, { members, auth: options.auth });
    await app.register(invitationRoutes, { invitations });
  };
  return { members, invitations, publicRoutes, routes, services: { members, invitations } };
}

export type MembersModule = ReturnType<typeof createMembersModule>;
