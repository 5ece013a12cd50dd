import type { User } from '@vigie/contract';
import type { FastifyRequest } from 'fastify';
import { MESSAGES, unauthorized } from '../errors.ts';
import type { TokenService } from '../modules/auth/token-service.ts';
import type { SessionService } from '../modules/auth/session-service.ts';
import type { DeviceIdentity } from '../modules/devices/credential-service.ts';
import { API_KEY_INVALID, type ApiKeyIdentity, type ApiKeyService, looksLikeApiKey } from '../modules/members/api-key-service.ts';
import type { UserService } from '../modules/auth/user-service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, set by the authenticate hook on protected routes. */
    user: User | null;
    /** The device of a device-protocol request, set by its token check. */
    device: DeviceIdentity | null;
    /** The session of the signed-in user's token (for an API key, the key's id: its revocation ends it). */
    sessionId: string | null;
    /** The API key the request was made with (docs/api.md, Clés d’API); null for a person's session. */
    apiKey: ApiKeyIdentity | null;
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An onRequest hook: a valid bearer token of an existing user, or an API key in force (`vk_…`), or
 * 401 before anything else runs.
 */
export function createAuthenticate(deps: {
  tokens: TokenService;
  users: Pick<UserService, 'getById'>;
  sessions: Pick<SessionService, 'use'>;
  apiKeys: Pick<ApiKeyService, 'authenticate'>;
}) {
  return async function authenticate(request: FastifyRequest): Promise<void> {
    const header = request.headers.authorization;
    if (!header) throw unauthorized(MESSAGES.authRequired);
    const token = BEARER.exec(header)?.[1];
    if (!token) throw unauthorized(MESSAGES.sessionInvalid);
    if (looksLikeApiKey(token)) {
      // A key acts as a member of its role and scope; revoked or expired, it is refused like an ended session.
      const caller = await deps.apiKeys.authenticate(token);
      if (!caller) throw unauthorized(API_KEY_INVALID);
      request.user = caller.user;
      request.apiKey = caller.apiKey;
      request.sessionId = caller.apiKey.id;
      return;
    }
    const claims = await deps.tokens.read(token);
    // A validly signed token whose subject is not a user id is as invalid as a forged one; a token
    // of a session that ended (logout) is refused at once.
    if (!claims || !UUID.test(claims.userId) || !claims.sessionId || !UUID.test(claims.sessionId)) {
      throw unauthorized(MESSAGES.sessionInvalid);
    }
    const [user, open] = await Promise.all([
      deps.users.getById(claims.userId),
      deps.sessions.use(claims.sessionId, claims.userId, { idleSeconds: claims.idleSeconds, endsAt: claims.expiresAt }),
    ]);
    if (!user || !open) throw unauthorized(MESSAGES.sessionInvalid);
    request.user = user;
    request.sessionId = claims.sessionId;
  };
}

/** The signed-in user of a protected route; the hook guarantees it is there. */
export function currentUser(request: FastifyRequest): User {
  if (!request.user) throw unauthorized(MESSAGES.authRequired);
  return request.user;
}
