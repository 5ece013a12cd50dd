import { AppError, forbidden, MESSAGES, unauthorized } from '../../errors.ts';
import type { LoginChallengeResponse, LoginResponse } from '@vigie/contract';
import type { UserService } from './user-service.ts';
import { TOTP_MESSAGES, type TotpService } from './totp-service.ts';
import type { LoginLimiter } from './login-limiter.ts';
import type { SessionService } from './session-service.ts';
import type { TokenService } from './token-service.ts';

export function createAuthService(deps: {
  users: Pick<UserService, 'verifyCredentials' | 'changePassword'>;
  tokens: TokenService;
  limiter: LoginLimiter;
  sessions: Pick<SessionService, 'open' | 'end' | 'endAll'>;
  /** Two-factor authentication: with it on, the password opens only the code step. */
  totp?: Pick<TotpService, 'enabledFor' | 'verify' | 'state'>;
  /**
   * Whether the password is refused to this account: its organization makes single sign-on
   * compulsory for its address's domain (the sso module's). Asked once the password is right.
   */
  passwordRefused?: (email: string) => Promise<boolean>;
  /** The audit trail, told of every sign-in and of every wrong password for a known address. */
  audit?: {
    loginSucceeded(userId: string, ip: string, details?: Record<string, unknown>): Promise<void>;
    loginFailed(email: string, ip: string, details?: Record<string, unknown>): Promise<void>;
  };
}) {
  const { users, tokens, limiter, sessions } = deps;
  return {
    /**
     * Checks the credentials and issues an access token, or, with two-factor authentication on,
     * a challenge for the code step; the same error whether the email exists or not.
     */
    async login(email: string, password: string, ip: string, remember = false): Promise<LoginResponse | LoginChallengeResponse> {
      // The attempt is counted before the password is checked: parallel guesses cannot slip through.
      const retryAfter = await limiter.take(ip, email);
      if (retryAfter > 0) {
        throw new AppError(429, MESSAGES.tooManyAttempts(retryAfter), { 'retry-after': String(retryAfter) });
      }
      const userId = await users.verifyCredentials(email, password);
      if (!userId) {
        await deps.audit?.loginFailed(email, ip);
        throw unauthorized(MESSAGES.invalidCredentials);
      }
      await limiter.succeeded(ip, email);
      if (await deps.passwordRefused?.(email)) throw forbidden(MESSAGES.ssoRequired);
      if (await deps.totp?.enabledFor(userId)) return { totpRequired: true, challenge: await tokens.issueChallenge(userId, remember) };
      const session = await sessions.open(userId, remember);
      await deps.audit?.loginSucceeded(userId, ip);
      return { accessToken: await tokens.issue(userId, session.id, session) };
    },

    /**
     * The code step: a code of the app or a recovery code, throttled per account (see `takeCode`):
     * a right password, given again and again, buys no more codes.
     */
    async loginWithCode(challenge: string, code: string, ip: string): Promise<LoginResponse> {
      const proven = await tokens.readChallenge(challenge);
      const state = proven && (await deps.totp?.state(proven.userId));
      if (!proven || !state) throw unauthorized(MESSAGES.challengeExpired);
      const retryAfter = await limiter.takeCode(ip, proven.userId);
      if (retryAfter > 0) {
        throw new AppError(429, MESSAGES.tooManyAttempts(retryAfter), { 'retry-after': String(retryAfter) });
      }
      const method = await deps.totp?.verify(proven.userId, code);
      if (!method) {
        await deps.audit?.loginFailed(state.email, ip, { step: 'code' });
        throw unauthorized(TOTP_MESSAGES.wrongCode);
      }
      await limiter.codeAccepted(ip, proven.userId);
      const session = await sessions.open(proven.userId, proven.remember);
      // Reset by an admin between the code and the session (whose sessions it ended): not this one either.
      if (!(await deps.totp?.enabledFor(proven.userId))) {
        await sessions.end({ id: session.id, userId: proven.userId, organizationId: state.organizationId });
        throw unauthorized(MESSAGES.challengeExpired);
      }
      await deps.audit?.loginSucceeded(proven.userId, ip, { step: method === 'recovery' ? 'recovery-code' : 'app' });
      return { accessToken: await tokens.issue(proven.userId, session.id, session) };
    },

    /** Confirms a sensitive change of one's own account with the password, throttled like a login. */
    async confirmPassword(user: { email: string }, password: string, ip: string): Promise<void> {
      const retryAfter = await limiter.take(ip, user.email);
      if (retryAfter > 0) {
        throw new AppError(429, MESSAGES.tooManyAttempts(retryAfter), { 'retry-after': String(retryAfter) });
      }
      if (!(await users.verifyCredentials(user.email, password))) throw new AppError(400, MESSAGES.wrongCurrentPassword);
      await limiter.succeeded(ip, user.email);
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
