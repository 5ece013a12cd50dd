import { createECDH, createHmac } from 'node:crypto';

/** The order of P-256: a private key is a number from 1 to n − 1. */
const P256_ORDER = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551');

export interface VapidKeys {
  /** The uncompressed P-256 point (65 bytes), base64url: what browsers subscribe with. */
  publicKey: string;
  /** The 32-byte scalar, base64url. */
  privateKey: string;
  /** Who push services may contact about this server (RFC 8292 `sub`). */
  subject: string;
}

/**
 * The server's VAPID key pair (RFC 8292): the configured one, else one derived from the signing
 * secret — so every instance that shares JWT_SECRET signs its pushes with the same key, and the
 * browsers' subscriptions outlive a restart, as the sessions do.
 */
export function vapidKeys(options: {
  configured: { publicKey: string; privateKey: string } | null;
  jwtSecret: string;
  subject: string | undefined;
  publicUrl: string;
  mailFrom: string | undefined;
}): VapidKeys {
  const subject = options.subject ?? defaultSubject(options.publicUrl, options.mailFrom);
  if (options.configured) return { ...options.configured, subject };
  for (let round = 0; ; round += 1) {
    const scalar = createHmac('sha256', options.jwtSecret).update(`vigie-vapid-${round}`).digest();
    const value = BigInt(`0x${scalar.toString('hex')}`);
    if (value === 0n || value >= P256_ORDER) continue;
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(scalar);
    return { publicKey: ecdh.getPublicKey().toString('base64url'), privateKey: scalar.toString('base64url'), subject };
  }
}

/** PUBLIC_URL when push services can reach it (https), else the sender's address of e-mails. */
function defaultSubject(publicUrl: string, mailFrom: string | undefined): string {
  if (publicUrl.startsWith('https://')) return publicUrl;
  const address = /<([^<>\s]+@[^<>\s]+)>/.exec(mailFrom ?? '')?.[1] ?? /^\S+@\S+$/.exec(mailFrom ?? '')?.[0];
  return `mailto:${address ?? 'alertes@vigie.local'}`;
}
