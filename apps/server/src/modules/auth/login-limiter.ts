import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

export interface LoginLimits {
  maxFailuresPerEmail: number;
  maxFailuresPerIp: number;
  windowSeconds: number;
}

export interface LoginLimiter {
  /** Seconds to wait before another attempt is allowed, or 0 when one is allowed now. */
  retryAfter(ip: string, email: string): Promise<number>;
  recordFailure(ip: string, email: string): Promise<void>;
  recordSuccess(email: string): Promise<void>;
}

const emailKey = (email: string) => email.trim().toLowerCase();

/**
 * Counts failed logins per IP and per email over a sliding window. Successful logins never
 * count, so a busy shop behind one address is not locked out by its own staff.
 */
export function createLoginLimiter(limits: LoginLimits): LoginLimiter {
  const byIp = new RateLimiterMemory({ keyPrefix: 'login-ip', points: limits.maxFailuresPerIp, duration: limits.windowSeconds });
  const byEmail = new RateLimiterMemory({
    keyPrefix: 'login-email',
    points: limits.maxFailuresPerEmail,
    duration: limits.windowSeconds,
  });

  const wait = (res: RateLimiterRes | null, points: number) =>
    res && res.consumedPoints >= points ? Math.max(1, Math.ceil(res.msBeforeNext / 1000)) : 0;

  const consume = async (limiter: RateLimiterMemory, key: string) => {
    try {
      await limiter.consume(key);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
    }
  };

  return {
    async retryAfter(ip, email) {
      const [ipRes, emailRes] = await Promise.all([byIp.get(ip), byEmail.get(emailKey(email))]);
      return Math.max(wait(ipRes, limits.maxFailuresPerIp), wait(emailRes, limits.maxFailuresPerEmail));
    },
    async recordFailure(ip, email) {
      await Promise.all([consume(byIp, ip), consume(byEmail, emailKey(email))]);
    },
    async recordSuccess(email) {
      await byEmail.delete(emailKey(email));
    },
  };
}
