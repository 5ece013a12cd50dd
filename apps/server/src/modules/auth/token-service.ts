import { errors, jwtVerify, SignJWT } from 'jose';

export const TOKEN_TTL_SECONDS = 12 * 60 * 60;
const ALGORITHM = 'HS256';
const ISSUER = 'vigie';
const AUDIENCE = 'vigie-api';

export interface TokenService {
  /** A token for this user, naming the session it belongs to. */
  issue(userId: string, sessionId?: string): Promise<string>;
  /** The user id of a valid token, or null for a missing, tampered, expired or foreign token. */
  verify(token: string): Promise<string | null>;
  /** The user and session of a valid token (`sessionId` null when it names none), or null. */
  read(token: string): Promise<{ userId: string; sessionId: string | null } | null>;
}

export function createTokenService(secret: string, now: () => number = Date.now): TokenService {
  const key = new TextEncoder().encode(secret);
  const read = async (token: string): Promise<{ userId: string; sessionId: string | null } | null> => {
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: [ALGORITHM],
        issuer: ISSUER,
        audience: AUDIENCE,
        requiredClaims: ['exp', 'sub'],
        currentDate: new Date(now()),
      });
      if (typeof payload.sub !== 'string') return null;
      return { userId: payload.sub, sessionId: typeof payload['sid'] === 'string' ? payload['sid'] : null };
    } catch (error) {
      if (error instanceof errors.JOSEError || error instanceof TypeError) return null;
      throw error;
    }
  };
  return {
    async issue(userId, sessionId) {
      const issuedAt = Math.floor(now() / 1000);
      return new SignJWT(sessionId ? { sid: sessionId } : {})
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + TOKEN_TTL_SECONDS)
        .sign(key);
    },
    async verify(token) {
      return (await read(token))?.userId ?? null;
    },
    read,
  };
}
