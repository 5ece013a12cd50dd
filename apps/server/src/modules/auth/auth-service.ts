import { AppError, MESSAGES, unauthorized } from '../../errors.ts';
import type { UserService } from '../users/user-service.ts';
import type { LoginLimiter } from './login-limiter.ts';
import type { SessionService } from './session-service.ts';
import type { TokenService } from './token-service.ts';

export function createAuthService(deps: {
  users: Pick<UserService, 'verifyCredentials' | 'changePassword'>;
  tokens: TokenService;
  limiter: LoginLimiter;
  sessions: Pick<SessionService, 'open' | 'endAll'>;
}) {
  const { users, tokens, limiter, sessions } = deps;
  return {
    /** Checks the credentials and issues an access token; the same error whether the email exists or not. */
    async login(email: string, password: string, ip: string, remember = false): Promise<string> {
      // The attempt is counted before the password is checked: parallel guesses cannot slip through.
      const retryAfter = await limiter.take(ip, email);
      if (retryAfter > 0) {
        throw new AppError(429, MESSAGES.tooManyAttempts(retryAfter), { 'retry-after': String(retryAfter) });
      }
      const userId = await users.verifyCredentials(email, password);
      if (!userId) throw unauthorized(MESSAGES.invalidCredentials);
      await limiter.succeeded(ip, email);
      const session = await sessions.open(userId, remember);
      return tokens.issue(userId, session.id, session);
    },

    /**
     * « Mon compte »: a new password, given the current one (throttled like a login), ends every
     * other session of the user at once; the one that asked stays open.
     */
    async changePassword(
      user: { id: string; email: string; organizationId: string },
      change: { currentPassword: string; newPassword: string },
      context: { ip: string; sessionId: string },
    ): Promise<void> {
      const retryAfter = await limiter.take(context.ip, user.email);
      if (retryAfter > 0) {
        throw new AppError(429, MESSAGES.tooManyAttempts(retryAfter), { 'retry-after': String(retryAfter) });
      }
      if (!(await users.changePassword(user.id, change.currentPassword, change.newPassword))) {
        throw new AppError(400, MESSAGES.wrongCurrentPassword);
      }
      await limiter.succeeded(context.ip, user.email);
      await sessions.endAll({ userId: user.id, organizationId: user.organizationId }, context.sessionId);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
