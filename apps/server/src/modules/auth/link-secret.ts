import { createHash, randomBytes } from 'node:crypto';

/** The SHA-256 of a link's secret: the only thing the database keeps of it. */
export const hashLinkSecret = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The secret of an e-mailed single-use link (32 random bytes, base64url) and its hash. */
export function newLinkSecret(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashLinkSecret(token) };
}
