/**
 * A factory device's printed label (docs/protocole-appareils.md, Appareils d'usine), without zod so that the web app can read it
 * alone (`@vigie/contract/claim-label`): a QR code holding the serial and the secret claim code.
 */
export const CLAIM_URI_PREFIX = 'vigie:claim?';

/** Claim codes are printed: spaces and dashes a person types are not part of them, case is ignored. */
export function normalizeClaimCode(code: string): string {
  return code.replace(/[\s-]+/g, '').toUpperCase();
}

/** Reads a label's QR code: `vigie:claim?serial=…&code=…`; null when it is not one. */
export function parseClaimUri(text: string): { serial: string; claimCode: string } | null {
  const trimmed = text.trim();
  if (!trimmed.startsWith(CLAIM_URI_PREFIX)) return null;
  const params = new URLSearchParams(trimmed.slice(CLAIM_URI_PREFIX.length));
  const serial = params.get('serial')?.trim();
  const code = params.get('code')?.trim();
  if (!serial || !code) return null;
  return { serial, claimCode: code };
}

/** The text of a label's QR code. */
export function claimUri(serial: string, claimCode: string): string {
  return `${CLAIM_URI_PREFIX}${new URLSearchParams({ serial, code: claimCode }).toString()}`;
}
