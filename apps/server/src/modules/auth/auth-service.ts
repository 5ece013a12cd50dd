import { AppError, MESSAGES, unauthorized } from '../../errors.ts';
import type { UserService } from '../users/user-service.ts';
import type { LoginLimiter } from './login-limiter.ts';
import type { TokenService } from './token-service.ts';

export function createAuthService(deps: { users: Pick<UserService, 'verifyCredentials'>; tokens: TokenService; limiter: LoginLimiter }) {
  const { users, tokens, limiter } = deps;
  return {
    /** Checks the credentials and issues an access token; the same error whether the email exists or not. */
    async login(email: string, password: string, ip: string): Promise<string> {
      const retryAfter = await limiter.retryAfter(ip, email);
      if (retryAfter > 0) {
        throw new AppError(429, MESSAGES.tooManyAttempts(retryAfter), { 'retry-after': String(retryAfter) });
      }
      const userId = await users.verifyCredentials(email, password);
      if (!userId) {
        await limiter.recordFailure(ip, email);
        throw unauthorized(MESSAGES.invalidCredentials);
      }
      await limiter.recordSuccess(email);
      return tokens.issue(userId);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
