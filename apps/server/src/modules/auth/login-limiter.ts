import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

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
  /** The password was right: the attempt is given back, and the e-mail's failures are forgotten. */
  succeeded(ip: string, email: string): Promise<void>;
}

const emailKey = (email: string) => email.trim().toLowerCase();

/**
 * Counts failed logins per IP and per e-mail over a window. Successful logins never count, so a
 * busy shop behind one address is not locked out by its own staff.
 */
export function createLoginLimiter(limits: LoginLimits): LoginLimiter {
  const byIp = new RateLimiterMemory({ keyPrefix: 'login-ip', points: limits.maxFailuresPerIp, duration: limits.windowSeconds });
  const byEmail = new RateLimiterMemory({
    keyPrefix: 'login-email',
    points: limits.maxFailuresPerEmail,
    duration: limits.windowSeconds,
  });

  /** Consumes a point; the seconds to wait when none was left. */
  const consume = async (limiter: RateLimiterMemory, key: string): Promise<number> => {
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
      const [ipWait, emailWait] = await Promise.all([consume(byIp, ip), consume(byEmail, emailKey(email))]);
      return Math.max(ipWait, emailWait);
    },
    async succeeded(ip, email) {
      await Promise.all([byIp.reward(ip, 1), byEmail.delete(emailKey(email))]);
    },
  };
}
