import { createHash, randomBytes } from 'node:crypto';
import {
  endpoints,
  pathOf,
  SSO_CODE_TTL_SECONDS,
  type Role,
  type SsoFailure,
  type SsoSettings,
  type ssoSettingsRequestSchema,
} from '@vigie/contract';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { isUniqueViolation } from '../../db/connection-errors.ts';
import type { Database } from '../../db/database.ts';
import { badRequest, conflict, unauthorized } from '../../errors.ts';
import type { SecretBox } from '../auth/secret-box.ts';
import { createSsoDal, type SsoRow } from './sso-dal.ts';
import { SsoProviderError, type SsoProvider } from './sso-provider.ts';

/** How long a sign-in sent to the provider may come back. */
const LOGIN_TTL_MS = 10 * 60_000;
/** What is kept of ended sign-ins and codes before it is forgotten. */
const KEEP_MS = 60 * 60_000;
/** The page after signing in when none was asked for. */
const DEFAULT_NEXT = '/dashboard';
/** The web app's page that exchanges the one-time code, and its sign-in page (errors). */
const EXCHANGE_PAGE = '/login/sso';
const LOGIN_PAGE = '/login';

/** The stronger role first: a person in several groups takes the strongest of their roles. */
const ROLE_RANK: Readonly<Record<Role, number>> = { admin: 0, manager: 1, viewer: 2 };

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const domainOf = (email: string) =>
  email
    .slice(email.lastIndexOf('@') + 1)
    .trim()
    .toLowerCase();

export const SSO_MESSAGES = {
  secretRequired: 'Le secret du client est obligatoire la première fois que l’authentification unique est réglée.',
  domainTaken: (domains: string[]) =>
    domains.length === 1
      ? `Le domaine « ${domains[0]} » est déjà celui de l’authentification unique d’une autre organisation.`
      : `Les domaines ${domains.map((d) => `« ${d} »`).join(', ')} sont déjà ceux de l’authentification unique d’une autre organisation.`,
  codeInvalid: 'Ce code de connexion n’est plus valable (il sert une fois, dans les 60 s) : recommencez la connexion.',
  secretUnreadable: 'Le secret du client enregistré ne peut plus être lu (la clé du serveur a changé) : saisissez-le de nouveau.',
} as const;

/** Where the browser goes at the end of the callback: the exchange page with its code, or the sign-in page with a reason. */
export type CallbackOutcome = { location: string };

/**
 * Single sign-on with OpenID Connect (docs/api.md, Authentification unique): an organization's
 * provider and domains, and the sign-in through it — start (state, nonce and PKCE kept in the
 * database, so that the callback may reach any instance), callback (the person found, or created
 * with the role of the settings), and the one-time code that the web page exchanges for a session.
 */
export function createSsoService(deps: {
  db: Database;
  /** The clock of the one-time codes' 60 s (tests move it). */
  now: () => Date;
  box: Pick<SecretBox, 'seal' | 'open'>;
  provider: SsoProvider;
  publicUrl: string;
  logger: Logger;
  accounts: {
    /** The account of an address, in any letter case. */
    byEmail(email: string): Promise<{ id: string; organizationId: string } | undefined>;
    /** A new account with no password of its own; null when the address has one already. */
    create(input: { organizationId: string; email: string; name: string | null; role: Role }): Promise<string | null>;
    /** A session opened through single sign-on: its access token. */
    signIn(userId: string): Promise<string>;
    /** Ends the password sessions of the organization's people of these domains, but `except`. */
    endPasswordSessions(organizationId: string, domains: readonly string[], except?: string): Promise<number>;
  };
  /** Told of each sign-in through single sign-on (the audit trail). */
  signedIn?: (userId: string, ip: string) => Promise<void>;
}) {
  const dal = createSsoDal(deps.db);
  const { box, provider, accounts } = deps;
  const contextOf = (organizationId: string) => `sso-client-secret:${organizationId}`;
  const redirectUri = `${deps.publicUrl}${pathOf(endpoints.sso.callback)}`;
  const failure = (reason: SsoFailure): CallbackOutcome => ({ location: `${LOGIN_PAGE}?sso=${reason}` });

  const publicSettings = (row: SsoRow): SsoSettings => ({
    issuer: row.issuer,
    clientId: row.clientId,
    domains: row.domains,
    defaultRole: row.defaultRole,
    groupRoles: row.groupRoles,
    enforced: row.enforced,
  });

  /** The client's settings with its secret opened; null when it no longer opens (a key changed). */
  const clientOf = (row: SsoRow) => {
    try {
      return { issuer: row.issuer, clientId: row.clientId, clientSecret: box.open(row.clientSecret, contextOf(row.organizationId)) };
    } catch {
      return null;
    }
  };

  /** The role of a person new to Vigie: the strongest of their groups' roles, else the default. */
  const roleOf = (row: SsoRow, groups: readonly string[]): Role => {
    const roles = groups.flatMap((group) => (Object.hasOwn(row.groupRoles, group) ? [row.groupRoles[group] as Role] : []));
    return roles.sort((a, b) => ROLE_RANK[a] - ROLE_RANK[b])[0] ?? row.defaultRole;
  };

  return {
    async get(organizationId: string): Promise<SsoSettings | null> {
      const row = await dal.settingsOf(organizationId);
      return row && publicSettings(row);
    },

    /**
     * Sets the organization's single sign-on: its issuer checked (not private, discovery answers),
     * its domains free; with `enforced`, the password sessions of its domains end (but the
     * admin's own, `currentSessionId`).
     */
    async update(
      organizationId: string,
      input: z.output<typeof ssoSettingsRequestSchema>,
      currentSessionId?: string,
    ): Promise<SsoSettings> {
      const stored = await dal.settingsOf(organizationId);
      let clientSecret = input.clientSecret;
      if (clientSecret === undefined) {
        if (!stored) throw badRequest(SSO_MESSAGES.secretRequired);
        const opened = clientOf(stored);
        if (!opened) throw badRequest(SSO_MESSAGES.secretUnreadable);
        clientSecret = opened.clientSecret;
      }
      const taken = await dal.domainsTakenElsewhere(organizationId, input.domains);
      if (taken.length > 0) throw conflict(SSO_MESSAGES.domainTaken(taken));
      try {
        await provider.check({ issuer: input.issuer, clientId: input.clientId, clientSecret });
      } catch (error) {
        if (error instanceof SsoProviderError) throw badRequest(error.message);
        throw error;
      }
      const settings = {
        organizationId,
        issuer: input.issuer,
        clientId: input.clientId,
        clientSecret: box.seal(clientSecret, contextOf(organizationId)),
        defaultRole: input.defaultRole,
        groupRoles: input.groupRoles ?? {},
        enforced: input.enforced,
        domains: input.domains,
      };
      try {
        await dal.save(settings);
      } catch (error) {
        if (isUniqueViolation(error))
          throw conflict(SSO_MESSAGES.domainTaken(await dal.domainsTakenElsewhere(organizationId, input.domains)));
        throw error;
      }
      if (settings.enforced) await accounts.endPasswordSessions(organizationId, settings.domains, currentSessionId);
      return publicSettings({ ...settings, domains: [...settings.domains] });
    },

    /** Where a person of this address signs in through single sign-on, or null: it depends on the domain only. */
    async discover(email: string): Promise<{ url: string } | null> {
      const row = await dal.settingsOfDomain(domainOf(email));
      return row ? { url: pathOf(endpoints.sso.start, {}, { email }) } : null;
    },

    /** Whether the password is refused to this address: its account is of an organization that makes single sign-on compulsory for its domain. */
    async passwordRefused(email: string): Promise<boolean> {
      const row = await dal.settingsOfDomain(domainOf(email));
      if (!row?.enforced) return false;
      const account = await accounts.byEmail(email);
      return account?.organizationId === row.organizationId;
    },

    /** The start of a sign-in: the provider's authorization address, or the sign-in page with a reason. */
    async start(email: string, next: string | undefined): Promise<CallbackOutcome> {
      const row = await dal.settingsOfDomain(domainOf(email));
      if (!row) return failure('domain');
      const client = clientOf(row);
      if (!client) return failure('provider');
      const now = deps.now();
      await dal.purge(new Date(now.getTime() - KEEP_MS));
      const state = randomBytes(32).toString('base64url');
      const nonce = randomBytes(32).toString('base64url');
      const codeVerifier = randomBytes(32).toString('base64url');
      try {
        const url = await provider.authorizationUrl(client, { redirectUri, state, nonce, codeVerifier, loginHint: email });
        await dal.saveLogin({
          stateHash: sha256(state),
          organizationId: row.organizationId,
          nonce,
          codeVerifier,
          next: next ?? DEFAULT_NEXT,
          createdAt: now,
          expiresAt: new Date(now.getTime() + LOGIN_TTL_MS),
        });
        return { location: url.href };
      } catch (error) {
        if (!(error instanceof SsoProviderError)) throw error;
        deps.logger.warn({ err: error, organizationId: row.organizationId }, 'single sign-on: provider unavailable at start');
        return failure('provider');
      }
    },

    /**
     * The provider's answer: its state taken once, its code exchanged and checked, then the person
     * found (of this organization) or created (an address of its domains) and given a one-time code.
     */
    async callback(query: { code?: string | undefined; state?: string | undefined; error?: string | undefined }, currentUrl: URL) {
      if (!query.state) return failure('state');
      const login = await dal.takeLogin(sha256(query.state), deps.now());
      if (!login) return failure('state');
      if (query.error || !query.code) return failure('denied');
      const row = await dal.settingsOf(login.organizationId);
      const client = row && clientOf(row);
      if (!row || !client) return failure('provider');
      let identity;
      try {
        identity = await provider.identify(client, {
          currentUrl,
          state: query.state,
          nonce: login.nonce,
          codeVerifier: login.codeVerifier,
        });
      } catch (error) {
        if (!(error instanceof SsoProviderError)) throw error;
        deps.logger.warn({ err: error, organizationId: row.organizationId }, 'single sign-on: the provider’s answer was refused');
        return failure('provider');
      }
      if (!identity.email || identity.emailVerified === false) return failure('email');
      const email = identity.email.toLowerCase();
      // Only the addresses of its domains: the provider speaks for them, not for the others' accounts.
      if (!row.domains.includes(domainOf(email))) return failure('account');
      let account = await accounts.byEmail(email);
      if (!account) {
        const created = await accounts.create({
          organizationId: row.organizationId,
          email,
          name: identity.name,
          role: roleOf(row, identity.groups),
        });
        account = created ? { id: created, organizationId: row.organizationId } : await accounts.byEmail(email);
      }
      if (!account || account.organizationId !== row.organizationId) return failure('account');
      const code = randomBytes(32).toString('base64url');
      await dal.saveCode(sha256(code), account.id, deps.now());
      const fragment = new URLSearchParams({ code, next: login.next });
      return { location: `${EXCHANGE_PAGE}#${fragment.toString()}` };
    },

    /** The one-time code for a session, once, within 60 s. */
    async exchange(code: string, ip: string): Promise<{ accessToken: string }> {
      const now = deps.now();
      const userId = await dal.takeCode(sha256(code), now, new Date(now.getTime() - SSO_CODE_TTL_SECONDS * 1000));
      if (!userId) throw unauthorized(SSO_MESSAGES.codeInvalid);
      const accessToken = await accounts.signIn(userId);
      await deps.signedIn?.(userId, ip);
      return { accessToken };
    },
  };
}

export type SsoService = ReturnType<typeof createSsoService>;
