import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/** How every sealed value starts, whatever key sealed it. */
const SEALED = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A sealed value this server cannot open: another key sealed it, or it was altered or moved. */
export class SecretUnreadableError extends Error {
  constructor(readonly reason: 'other-key' | 'altered') {
    super(reason === 'other-key' ? 'sealed with another key' : 'altered, or sealed for another record');
    this.name = 'SecretUnreadableError';
  }
}

/**
 * Secrets kept in the database sealed with a key that is not in it (AES-256-GCM, node:crypto):
 * reading the database alone gives nothing to compute with. Each value is bound to its record
 * (`context`, authenticated but not stored), so a sealed value copied onto another row does not
 * open there. A sealed value reads `v1.<key id>.<iv>.<ciphertext and tag>`; the key id (an HMAC
 * of the key, which reveals nothing of it) names the key that sealed it. Values are sealed with
 * `material`; those of `previous` keys still open, so that a key can change without losing them.
 */
export function createSecretBox(material: string, purpose: string, previous: readonly string[] = []) {
  const derive = (from: string) => {
    const key = Buffer.from(hkdfSync('sha256', from, 'vigie secret box', purpose, 32));
    return { key, prefix: `${SEALED}${createHmac('sha256', key).update('key id').digest('hex').slice(0, 16)}.` };
  };
  const current = derive(material);
  const keys = [current, ...previous.map(derive)];

  return {
    /** How the values the current key sealed start. */
    ownPrefix: current.prefix,

    /** Whether a stored value is sealed (by any key), rather than kept as it was before sealing. */
    isSealed: (value: string) => value.startsWith(SEALED),

    /** Whether the current key sealed it (if not, sealing it again moves it to the current key). */
    isCurrent: (value: string) => value.startsWith(current.prefix),

    seal(plain: string, context: string): string {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current.key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${current.prefix}${iv.toString('base64url')}.${sealed.toString('base64url')}`;
    },

    /** The plain value; throws {@link SecretUnreadableError} when no key of this box opens it for this context. */
    open(value: string, context: string): string {
      const known = keys.find((candidate) => value.startsWith(candidate.prefix));
      if (!known) throw new SecretUnreadableError(value.startsWith(SEALED) ? 'other-key' : 'altered');
      const [ivText, sealedText] = value.slice(known.prefix.length).split('.');
      const iv = Buffer.from(ivText ?? '', 'base64url');
      const sealed = Buffer.from(sealedText ?? '', 'base64url');
      if (iv.length !== IV_BYTES || sealed.length < TAG_BYTES) throw new SecretUnreadableError('altered');
      try {
        const decipher = createDecipheriv('aes-256-gcm', known.key, iv);
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
        return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretUnreadableError('altered');
      }
    },
  };
}

export type SecretBox = ReturnType<typeof createSecretBox>;
