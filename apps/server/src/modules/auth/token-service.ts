import { errors, jwtVerify, SignJWT } from 'jose';

export const TOKEN_TTL_SECONDS = 12 * 60 * 60;
const ALGORITHM = 'HS256';
const ISSUER = 'vigie';
const AUDIENCE = 'vigie-api';

/** What a valid token says. */
export interface TokenClaims {
  userId: string;
  /** The session it belongs to; null for a token that names none (refused by the API). */
  sessionId: string | null;
  /** Its session ends after this many seconds without a request; null when it has no idle timeout. */
  idleSeconds: number | null;
  /** When the token itself expires (ms): its session's absolute end. */
  expiresAt: number;
}

export interface TokenService {
  /**
   * A token for this user, naming the session it belongs to; it expires after `lifetimeSeconds`
   * (12 h by default) and carries its session's idle timeout.
   */
  issue(userId: string, sessionId?: string, lifetime?: { lifetimeSeconds: number; idleSeconds: number | null }): Promise<string>;
  /** The user id of a valid token, or null for a missing, tampered, expired or foreign token. */
  verify(token: string): Promise<string | null>;
  /** The claims of a valid token, or null. */
  read(token: string): Promise<TokenClaims | null>;
  /**
   * Proof that the password of an account with two-factor authentication was right, valid 5
   * minutes for the code step only: its audience is not the API's, so it opens nothing else.
   */
  issueChallenge(userId: string, remember: boolean): Promise<string>;
  readChallenge(token: string): Promise<{ userId: string; remember: boolean } | null>;
}

/** How long the code step of a sign-in may wait after the password. */
export const CHALLENGE_TTL_SECONDS = 5 * 60;
const CHALLENGE_AUDIENCE = 'vigie-totp';

/** Tokens whose signature was checked, remembered: a browser sends the same one with every request. */
const VERIFIED_TOKENS = 10_000;

export function createTokenService(secret: string, now: () => number = Date.now): TokenService {
  const key = new TextEncoder().encode(secret);
  // The same string with the same key always verifies the same way: only its expiry, which moves
  // with the clock, is checked again on each use. The key changes only with a restart.
  const verified = new Map<string, TokenClaims>();
  const read = async (token: string): Promise<TokenClaims | null> => {
    const known = verified.get(token);
    if (known) return known.expiresAt > now() ? known : null;
    const claims = await check(token);
    if (claims) {
      verified.set(token, claims);
      if (verified.size > VERIFIED_TOKENS) verified.delete(verified.keys().next().value as string);
    }
    return claims;
  };
  const check = async (token: string): Promise<TokenClaims | null> => {
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: [ALGORITHM],
        issuer: ISSUER,
        audience: AUDIENCE,
        requiredClaims: ['exp', 'sub'],
        currentDate: new Date(now()),
      });
      if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return null;
      const idle = payload['idl'];
      return {
        userId: payload.sub,
        sessionId: typeof payload['sid'] === 'string' ? payload['sid'] : null,
        idleSeconds: typeof idle === 'number' && Number.isInteger(idle) && idle > 0 ? idle : null,
        expiresAt: payload.exp * 1000,
      };
    } catch (error) {
      if (error instanceof errors.JOSEError || error instanceof TypeError) return null;
      throw error;
    }
  };
  return {
    async issue(userId, sessionId, lifetime) {
      const issuedAt = Math.floor(now() / 1000);
      const claims: Record<string, string | number> = {};
      if (sessionId) claims['sid'] = sessionId;
      if (lifetime?.idleSeconds) claims['idl'] = lifetime.idleSeconds;
      return new SignJWT(claims)
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + (lifetime?.lifetimeSeconds ?? TOKEN_TTL_SECONDS))
        .sign(key);
    },
    async verify(token) {
      return (await read(token))?.userId ?? null;
    },
    read,
    async issueChallenge(userId, remember) {
      const issuedAt = Math.floor(now() / 1000);
      return new SignJWT({ rem: remember })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(userId)
        .setIssuer(ISSUER)
        .setAudience(CHALLENGE_AUDIENCE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + CHALLENGE_TTL_SECONDS)
        .sign(key);
    },
    async readChallenge(token) {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: [ALGORITHM],
          issuer: ISSUER,
          audience: CHALLENGE_AUDIENCE,
          requiredClaims: ['exp', 'sub'],
          currentDate: new Date(now()),
        });
        if (typeof payload.sub !== 'string') return null;
        return { userId: payload.sub, remember: payload['rem'] === true };
      } catch (error) {
        if (error instanceof errors.JOSEError || error instanceof TypeError) return null;
        throw error;
      }
    },
  };
}
