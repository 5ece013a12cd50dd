import type { SendSecretEmail } from '../notifications/notification-service.ts';
import { hashLinkSecret, newLinkSecret } from './link-secret.ts';
import { PASSWORD_RESET_REQUESTED } from '@vigie/contract';
import type { Logger } from 'pino';
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimits } from '../rate-limits/rate-limits.ts';
import type { Database } from '../../db/database.ts';
import { AppError, notFound } from '../../errors.ts';
import { hashPassword } from './password.ts';
import { createPasswordResetDal } from './password-reset-dal.ts';
import { passwordResetEmail } from './password-reset-message.ts';

/** How long a reset link works, by default. */
export const PASSWORD_RESET_TTL_MINUTES = 60;
/** Reset e-mails asked for one address within the window: more would flood its mailbox. */
export const PASSWORD_RESET_MAX_PER_EMAIL = 3;

export const PASSWORD_RESET_MESSAGES = {
  requested: PASSWORD_RESET_REQUESTED,
  unusable: 'Ce lien n’est plus valable\u202F: demandez-en un nouveau.',
  expired: 'Ce lien a expiré\u202F: demandez-en un nouveau.',
  tooManyRequests: (seconds: number) =>
    `Trop de demandes de réinitialisation du mot de passe. Réessayez dans ${Math.ceil(seconds / 60)}\u202Fmin.`,
} as const;

/**
 * « Mot de passe oublié ? »: a link e-mailed through the outbox, whose secret is kept only as a
 * hash, that works once and for a limited time, and ends every session of the account when used.
 */
export function createPasswordResetService(deps: {
  db: Database;
  rateLimits: Pick<RateLimits, 'create'>;
  now: () => Date;
  publicUrl: string;
  ttlMinutes?: number;
  /** Requests per address (IP) and per e-mail address, and link uses per address, within the window. */
  limits: { maxPerIp: number; maxPerEmail: number; windowSeconds: number };
  /** Queues an e-mail in the notification outbox and starts its delivery; false when e-mail is off. */
  sendEmail: SendSecretEmail;
  /** Ends every session of the user (and their live streams). */
  endSessions(user: { userId: string; organizationId: string }): Promise<number>;
  logger: Pick<Logger, 'warn' | 'error'>;
}) {
  const dal = createPasswordResetDal(deps.db);
  const ttlMs = (deps.ttlMinutes ?? PASSWORD_RESET_TTL_MINUTES) * 60_000;
  const { limits } = deps;
  const byIp = deps.rateLimits.create({ keyPrefix: 'reset-ip', points: limits.maxPerIp, duration: limits.windowSeconds });
  const byEmail = deps.rateLimits.create({ keyPrefix: 'reset-email', points: limits.maxPerEmail, duration: limits.windowSeconds });
  const useByIp = deps.rateLimits.create({ keyPrefix: 'reset-use-ip', points: limits.maxPerIp, duration: limits.windowSeconds });
  /** Work done after the answer was sent, awaited before the database closes. */
  const background = new Set<Promise<void>>();

  async function take(limiter: RateLimiterAbstract, key: string): Promise<void> {
    try {
      await limiter.consume(key);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
      throw new AppError(429, PASSWORD_RESET_MESSAGES.tooManyRequests(seconds), { 'retry-after': String(seconds) });
    }
  }

  /** Looks the address up and, when an account uses it, creates its link and e-mails it. */
  async function issue(email: string): Promise<void> {
    const user = await dal.findUser(email);
    if (!user) return;
    const createdAt = deps.now();
    const { token, tokenHash } = newLinkSecret();
    const row = await dal.create({
      userId: user.id,
      tokenHash,
      createdAt,
      expiresAt: new Date(createdAt.getTime() + ttlMs),
    });
    const sent = await deps.sendEmail({
      organizationId: user.organizationId,
      to: user.email,
      ...passwordResetEmail({ link: `${deps.publicUrl}/reinitialiser-mot-de-passe#${token}`, expiresAt: row.expiresAt }),
      idempotencyKey: `password-reset:${row.id}`,
      // The link is the credential: the outbox forgets it once the e-mail has left.
      secret: true,
    });
    if (!sent) deps.logger.warn('Réinitialisation de mot de passe demandée, mais l’envoi d’e-mails n’est pas configuré (SMTP_URL)');
  }

  return {
    /**
     * Always the same answer, at about the same time, whether an account uses the address or
     * not: the lookup, the link and the e-mail are done after the answer.
     */
    async request(email: string, ip: string): Promise<string> {
      await take(byIp, ip);
      await take(byEmail, email.trim().toLowerCase());
      const work = issue(email)
        .catch((error: unknown) => deps.logger.error({ err: error }, 'Échec de la demande de réinitialisation de mot de passe'))
        .finally(() => background.delete(work));
      background.add(work);
      return PASSWORD_RESET_MESSAGES.requested;
    },

    /** Sets the new password and ends every session; the link works once, even when sent twice at once. */
    async confirm(input: { token: string; password: string }, ip: string): Promise<void> {
      await take(useByIp, ip);
      const tokenHash = hashLinkSecret(input.token);
      const check = async () => {
        const row = await dal.findByTokenHash(tokenHash);
        if (!row || row.usedAt) throw notFound(PASSWORD_RESET_MESSAGES.unusable);
        if (row.expiresAt.getTime() <= deps.now().getTime()) throw new AppError(410, PASSWORD_RESET_MESSAGES.expired);
      };
      await check();
      const used = await dal.use(tokenHash, deps.now(), await hashPassword(input.password));
      // Used, replaced or expired while the password was being hashed: the same answers as before.
      if (!used) {
        await check();
        throw notFound(PASSWORD_RESET_MESSAGES.unusable);
      }
      await deps.endSessions(used);
      await useByIp.reward(ip, 1);
    },

    /** Resolves once the requests already answered have done their work. */
    async idle(): Promise<void> {
      while (background.size > 0) await Promise.all(background);
    },
  };
}

export type PasswordResetService = ReturnType<typeof createPasswordResetService>;
