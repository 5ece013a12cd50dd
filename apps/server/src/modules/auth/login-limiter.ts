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
  /** The password was right: the attempt is given back, and this address becomes a usual one for the account. */
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

const emailKey = (email: string) => email.trim().toLowerCase();
/** Addresses remembered per account, and accounts remembered, before the oldest are forgotten. */
const USUAL_ADDRESSES_PER_ACCOUNT = 5;
const MAX_ACCOUNTS_REMEMBERED = 100_000;

/**
 * Throttles login attempts without letting a stranger lock the owner out:
 * - per address, across accounts (`maxFailuresPerIp`);
 * - per account and address pair (`maxFailuresPerEmail`): whoever guesses from one place is stopped
 *   there, and only there;
 * - per account, from addresses that never signed in to it: past `maxFailuresPerEmail` attempts in
 *   the window, each new attempt waits twice as long as the previous one (2 s, 4 s, 8 s… up to the
 *   window), so a guess spread over many addresses slows to a crawl, while the owner, from an
 *   address they signed in from before, is not held by it.
 * Successful logins give their attempt back. Codes of the second factor are counted apart, per
 * account (`maxFailuresPerEmail`), and only a right code gives them back.
 */
export function createLoginLimiter(limits: LoginLimits, counters: Pick<RateLimits, 'create'>): LoginLimiter {
  const byIp = counters.create({ keyPrefix: 'login-ip', points: limits.maxFailuresPerIp, duration: limits.windowSeconds });
  const byPair = counters.create({ keyPrefix: 'login-pair', points: limits.maxFailuresPerEmail, duration: limits.windowSeconds });
  // Counts attempts from unusual addresses per account; never blocks by itself.
  const fromStrangers = counters.create({
    keyPrefix: 'login-strangers',
    points: Number.MAX_SAFE_INTEGER,
    duration: limits.windowSeconds,
  });
  const wrongCodes = counters.create({ keyPrefix: 'login-code', points: limits.maxFailuresPerEmail, duration: limits.windowSeconds });
  const usual = new Map<string, string[]>();
  const lastStrangerAttempt = new Map<string, number>();

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
      if (usual.get(account)?.includes(ip)) return 0;

      const attempts = (await fromStrangers.consume(account)).consumedPoints;
      // Checked and recorded without a pause in between: parallel attempts are seen one by one.
      const beyond = attempts - limits.maxFailuresPerEmail;
      if (beyond <= 0) return 0;
      const gapMs = Math.min(limits.windowSeconds, 2 ** Math.min(beyond, 30)) * 1000;
      const now = Date.now();
      const last = lastStrangerAttempt.get(account) ?? 0;
      if (now - last < gapMs) return Math.max(1, Math.ceil((last + gapMs - now) / 1000));
      if (lastStrangerAttempt.size > MAX_ACCOUNTS_REMEMBERED) lastStrangerAttempt.clear();
      lastStrangerAttempt.set(account, now);
      return 0;
    },
    async succeeded(ip, email) {
      const account = emailKey(email);
      await Promise.all([byIp.reward(ip, 1), byPair.delete(`${account}|${ip}`)]);
      const addresses = (usual.get(account) ?? []).filter((known) => known !== ip);
      addresses.push(ip);
      if (usual.size > MAX_ACCOUNTS_REMEMBERED) usual.clear();
      usual.set(account, addresses.slice(-USUAL_ADDRESSES_PER_ACCOUNT));
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
