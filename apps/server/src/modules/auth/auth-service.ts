import { AppError, MESSAGES, unauthorized } from '../../errors.ts';
import type { UserDal } from '../users/user-dal.ts';
import type { LoginLimiter } from './login-limiter.ts';
import { verifyAgainstDummy, verifyPassword } from './password.ts';
import type { TokenService } from './token-service.ts';

export function createAuthService(deps: { users: Pick<UserDal, 'findByEmail'>; tokens: TokenService; limiter: LoginLimiter }) {
  const { users, tokens, limiter } = deps;
  return {
    /** Checks the credentials and issues an access token; the same error whether the email exists or not. */
    async login(email: string, password: string, ip: string): Promise<string> {
      const retryAfter = await limiter.retryAfter(ip, email);
      if (retryAfter > 0) {
        throw new AppError(429, MESSAGES.tooManyAttempts(retryAfter), { 'retry-after': String(retryAfter) });
      }
      const user = await users.findByEmail(email);
      const valid = user ? await verifyPassword(user.passwordHash, password) : await verifyAgainstDummy(password);
      if (!user || !valid) {
        await limiter.recordFailure(ip, email);
        throw unauthorized(MESSAGES.invalidCredentials);
      }
      await limiter.recordSuccess(email);
      return tokens.issue(user.id);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
