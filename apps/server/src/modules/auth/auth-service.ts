import { AppError, MESSAGES, unauthorized } from '../../errors.ts';
import type { UserService } from '../users/user-service.ts';
import type { LoginLimiter } from './login-limiter.ts';
import type { SessionService } from './session-service.ts';
import type { TokenService } from './token-service.ts';

export function createAuthService(deps: {
  users: Pick<UserService, 'verifyCredentials'>;
  tokens: TokenService;
  limiter: LoginLimiter;
  sessions: Pick<SessionService, 'open'>;
}) {
  const { users, tokens, limiter, sessions } = deps;
  return {
    /** Checks the credentials and issues an access token; the same error whether the email exists or not. */
    async login(email: string, password: string, ip: string): Promise<string> {
      // The attempt is counted before the password is checked: parallel guesses cannot slip through.
      const retryAfter = await limiter.take(ip, email);
      if (retryAfter > 0) {
        throw new AppError(429, MESSAGES.tooManyAttempts(retryAfter), { 'retry-after': String(retryAfter) });
      }
      const userId = await users.verifyCredentials(email, password);
      if (!userId) throw unauthorized(MESSAGES.invalidCredentials);
      await limiter.succeeded(ip, email);
      const session = await sessions.open(userId);
      return tokens.issue(userId, session.id);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
