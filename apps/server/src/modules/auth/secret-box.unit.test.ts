import { describe, expect, it } from 'vitest';
import { createSecretBox, SecretUnreadableError } from './secret-box.ts';

const KEY = 'une-clé-de-test-d-au-moins-trente-deux-caractères';

describe('secret box', () => {
  const box = createSecretBox(KEY, 'totp-secrets');

  it('seals a value so that nothing of it shows, and opens it again for the same record', () => {
    const sealed = box.seal('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', 'totp:user-1');
    expect(sealed.startsWith(box.ownPrefix)).toBe(true);
    expect(sealed).not.toContain('JBSWY3DP');
    expect(box.isSealed(sealed)).toBe(true);
    expect(box.isSealed('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP')).toBe(false);
    expect(box.open(sealed, 'totp:user-1')).toBe('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');
    // A fresh nonce each time: the same secret never seals to the same text.
    expect(box.seal('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', 'totp:user-1')).not.toBe(sealed);
  });

  it('does not open a value moved to another record, altered, or sealed by another key', () => {
    const sealed = box.seal('JBSWY3DPEHPK3PXP', 'totp:user-1');
    const reasonOf = (action: () => unknown) => {
      try {
        action();
      } catch (error) {
        return error instanceof SecretUnreadableError ? error.reason : 'other error';
      }
      return 'opened';
    };
    expect(reasonOf(() => box.open(sealed, 'totp:user-2'))).toBe('altered');
    // One character of the tag changed (the one before last, whatever it was).
    const flipped = `${sealed.slice(0, -2)}${sealed.at(-2) === 'A' ? 'B' : 'A'}${sealed.slice(-1)}`;
    expect(flipped).not.toBe(sealed);
    expect(reasonOf(() => box.open(flipped, 'totp:user-1'))).toBe('altered');
    expect(reasonOf(() => box.open('JBSWY3DPEHPK3PXP', 'totp:user-1'))).toBe('altered');
    expect(reasonOf(() => box.open(`${box.ownPrefix}court.court`, 'totp:user-1'))).toBe('altered');

    const other = createSecretBox(`${KEY}-autre`, 'totp-secrets');
    expect(other.ownPrefix).not.toBe(box.ownPrefix);
    expect(reasonOf(() => other.open(sealed, 'totp:user-1'))).toBe('other-key');
    // The same material for another purpose is another key.
    expect(createSecretBox(KEY, 'autre-usage').ownPrefix).not.toBe(box.ownPrefix);
  });

  it('still opens what a previous key sealed, and tells it from what the current key seals', () => {
    const old = createSecretBox(`${KEY}-ancienne`, 'totp-secrets');
    const sealedBefore = old.seal('JBSWY3DPEHPK3PXP', 'totp:user-1');
    const rotated = createSecretBox(KEY, 'totp-secrets', [`${KEY}-ancienne`]);
    expect(rotated.open(sealedBefore, 'totp:user-1')).toBe('JBSWY3DPEHPK3PXP');
    expect(rotated.isCurrent(sealedBefore)).toBe(false);
    const resealed = rotated.seal('JBSWY3DPEHPK3PXP', 'totp:user-1');
    expect(rotated.isCurrent(resealed)).toBe(true);
    expect(box.open(resealed, 'totp:user-1')).toBe('JBSWY3DPEHPK3PXP');
  });
});
