import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimits } from '../rate-limits/rate-limits.ts';

export interface LoginLimits {
  maxFailuresPerEmail: number;
  maxFailuresPerIp: number;
  windowSeconds: number;
}

export interface LoginLimiter {
  /**
   * Takes one attempt for this address and e-mail before the password is checked, atomically, so
   * that attempts sent in parallel cannot all pass a check made before any failure is counted.
   * Resolves with 0 when the attempt may go on, or the seconds to wait.
   */
  take(ip: string, email: string): Promise<number>;
  /** The password was right: the attempt is given back. */
  succeeded(ip: string, email: string): Promise<void>;
  /**
   * Takes one attempt at the second factor of this account, and one for this address, before the
   * code is checked. Whoever reaches the code step holds the password: giving it again must not
   * buy more codes, so wrong codes count per account whatever the address, and only a right code
   * starts the count again. Resolves with 0 when the attempt may go on, or the seconds to wait.
   */
  takeCode(ip: string, userId: string): Promise<number>;
  /** The code was right: the account's wrong codes are forgotten, and the address's attempt given back. */
  codeAccepted(ip: string, userId: string): Promise<void>;
}

/** Where an account's sign-ins are kept: the audit trail, which every instance reads and a restart keeps. */
export interface SignInHistory {
  /** Whether the account of this address completed a sign-in from `ip` at or after `since`. */
  signedInFrom(email: string, ip: string, since: Date): Promise<boolean>;
}

const emailKey = (email: string) => email.trim().toLowerCase();
/** An address the account signed in from within this many days is one of the owner's. */
const USUAL_ADDRESS_DAYS = 90;
const MAX_ACCOUNTS_REMEMBERED = 100_000;

/**
 * Throttles login attempts without letting a stranger lock the owner out:
 * - per address, across accounts (`maxFailuresPerIp`);
 * - per account and address pair (`maxFailuresPerEmail`): whoever guesses from one place is stopped
 *   there, and only there;
 * - per account: past `maxFailuresPerEmail` failed attempts in the window, each new attempt from an
 *   address the account has not signed in from lately waits twice as long as the previous one
 *   (2 s, 4 s, 8 s… up to the window), so a guess spread over many addresses slows to a crawl,
 *   while the owner, from an address they signed in from, is not held by it. Those addresses are
 *   read from the sign-ins on record, not from memory: a restarted instance, or another one
 *   behind the same load balancer, knows them as well as the one the owner last used.
 * Successful logins give their attempt back. Codes of the second factor are counted apart, per
 * account (`maxFailuresPerEmail`), and only a right code gives them back.
 */
export function createLoginLimiter(
  limits: LoginLimits,
  counters: Pick<RateLimits, 'create'>,
  history: SignInHistory,
  clock: () => Date = () => new Date(),
): LoginLimiter {
  const byIp = counters.create({ keyPrefix: 'login-ip', points: limits.maxFailuresPerIp, duration: limits.windowSeconds });
  const byPair = counters.create({ keyPrefix: 'login-pair', points: limits.maxFailuresPerEmail, duration: limits.windowSeconds });
  // Counts failed attempts per account; never blocks by itself, but past the limit spaces out the strangers'.
  const byAccount = counters.create({
    keyPrefix: 'login-account',
    points: Number.MAX_SAFE_INTEGER,
    duration: limits.windowSeconds,
  });
  const wrongCodes = counters.create({ keyPrefix: 'login-code', points: limits.maxFailuresPerEmail, duration: limits.windowSeconds });
  /** When an attempt on each account last went through here (the gaps are timed per instance). */
  const lastAttempt = new Map<string, number>();

  /** Consumes a point; the seconds to wait when none was left. */
  const consume = async (limiter: RateLimiterAbstract, key: string): Promise<number> => {
    try {
      await limiter.consume(key);
      return 0;
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      return Math.max(1, Math.ceil(error.msBeforeNext / 1000));
    }
  };

  return {
    async take(ip, email) {
      const account = emailKey(email);
      const [ipWait, pairWait] = await Promise.all([consume(byIp, ip), consume(byPair, `${account}|${ip}`)]);
      if (ipWait > 0 || pairWait > 0) return Math.max(ipWait, pairWait);

      const attempts = (await byAccount.consume(account)).consumedPoints;
      // Checked and recorded without a pause in between: parallel attempts are seen one by one.
      const beyond = attempts - limits.maxFailuresPerEmail;
      const now = Date.now();
      const last = lastAttempt.get(account) ?? 0;
      const letThrough = () => {
        if (lastAttempt.size > MAX_ACCOUNTS_REMEMBERED) lastAttempt.clear();
        lastAttempt.set(account, now);
        return 0;
      };
      if (beyond <= 0) return letThrough();
      // Only an account under a spread guess asks whether the address is the owner's.
      const since = new Date(clock().getTime() - USUAL_ADDRESS_DAYS * 86_400_000);
      if (await history.signedInFrom(account, ip, since)) return 0;
      const gapMs = Math.min(limits.windowSeconds, 2 ** Math.min(beyond, 30)) * 1000;
      if (now - last < gapMs) return Math.max(1, Math.ceil((last + gapMs - now) / 1000));
      return letThrough();
    },
    async succeeded(ip, email) {
      const account = emailKey(email);
      // The owner's own sign-ins never bring a stranger's attempts closer to being spaced out.
      await Promise.all([byIp.reward(ip, 1), byPair.delete(`${account}|${ip}`), byAccount.reward(account, 1)]);
    },
    async takeCode(ip, userId) {
      const [ipWait, codeWait] = await Promise.all([consume(byIp, ip), consume(wrongCodes, userId)]);
      return Math.max(ipWait, codeWait);
    },
    async codeAccepted(ip, userId) {
      await Promise.all([byIp.reward(ip, 1), wrongCodes.delete(userId)]);
    },
  };
}
