import { createHash, randomBytes } from 'node:crypto';
import type { User } from '@vigie/contract';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { RateLimits } from '../rate-limits/rate-limits.ts';
import { createScimTokenDal } from './scim-token-dal.ts';

/** A token reads `scim_` then 43 base64url characters (32 random bytes). */
const TOKEN_PATTERN = /^scim_[A-Za-z0-9_-]{43}$/;
/** What the audit trail shows of a token: `scim_` and its next 8 characters. */
const PREFIX_LENGTH = 13;
/** A token's `lastUsedAt` is written at most once per this. */
const TOUCH_EVERY_MS = 60_000;
/** Wrong tokens from one address: this many per window, then 429 (as for installation keys). */
const WRONG_TOKENS = { points: 20, duration: 900 };
const BEARER = /^Bearer\s+(\S+)\s*$/i;

export const SCIM_TOKEN_MESSAGES = {
  missing: 'Jeton SCIM manquant : envoyez l’en-tête Authorization: Bearer <jeton SCIM>.',
  invalid: 'Jeton SCIM invalide ou remplacé : recopiez le jeton créé dans Équipe, « Provisionnement SCIM ».',
  tooMany: (seconds: number) => `Trop de jetons SCIM invalides. Réessayez dans ${Math.ceil(seconds / 60)} min.`,
} as const;

/** Who calls the SCIM service: the token of one organization. */
export interface ScimCaller {
  tokenId: string;
  organizationId: string;
  prefix: string;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The organization's SCIM token (docs/api.md, Provisionnement SCIM): one at a time, only its SHA-256
 * stored, read from the database on every request so that a replaced token is refused at once on
 * every instance; wrong tokens are counted by address.
 */
export function createScimTokenService(deps: { db: Database; now: () => Date; rateLimits: Pick<RateLimits, 'create'> }) {
  const dal = createScimTokenDal(deps.db);
  const wrongTokens = deps.rateLimits.create({ keyPrefix: 'scim-ip', ...WRONG_TOKENS });
  const touched = new Map<string, number>();

  return {
    /** A new token for the admin's organization, in place of the previous one; its secret is in this answer only. */
    async create(by: User): Promise<{ token: string; id: string; prefix: string; replaced: boolean }> {
      const token = `scim_${randomBytes(32).toString('base64url')}`;
      const prefix = token.slice(0, PREFIX_LENGTH);
      const { record, replaced } = await dal.replace({
        organizationId: by.organization.id,
        prefix,
        tokenHash: hashOf(token),
        createdBy: by.id,
        createdAt: deps.now(),
      });
      return { token, id: record.id, prefix, replaced };
    },

    /**
     * The caller of a request with this `Authorization` header: 401 without a token in force, 429
     * once an address sent too many wrong ones (the attempt is counted before the lookup, a right
     * token gives it back).
     */
    async authenticate(authorization: string | undefined, ip: string): Promise<ScimCaller> {
      if (!authorization) throw new AppError(401, SCIM_TOKEN_MESSAGES.missing, { 'www-authenticate': 'Bearer' });
      try {
        await wrongTokens.consume(ip);
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error;
        const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
        throw new AppError(429, SCIM_TOKEN_MESSAGES.tooMany(seconds), { 'retry-after': String(seconds) });
      }
      const token = BEARER.exec(authorization)?.[1];
      const record = token && TOKEN_PATTERN.test(token) ? await dal.byHash(hashOf(token)) : undefined;
      if (!record) throw new AppError(401, SCIM_TOKEN_MESSAGES.invalid, { 'www-authenticate': 'Bearer error="invalid_token"' });
      await wrongTokens.reward(ip, 1);
      const now = deps.now().getTime();
      const last = touched.get(record.id) ?? record.lastUsedAt?.getTime() ?? -Infinity;
      if (now - last >= TOUCH_EVERY_MS || now < last) {
        touched.set(record.id, now);
        if (touched.size > 10_000) touched.delete(touched.keys().next().value as string);
        await dal.touch(record.id, new Date(now), new Date(now - TOUCH_EVERY_MS));
      }
      return { tokenId: record.id, organizationId: record.organizationId, prefix: record.prefix };
    },
  };
}

export type ScimTokenService = ReturnType<typeof createScimTokenService>;
